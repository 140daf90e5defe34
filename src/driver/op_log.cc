#include "driver/op_log.h"

#include <cerrno>
#include <cstring>

namespace sb::driver {

Result<std::unique_ptr<OpLog>> OpLog::Open(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) {
    return Status::InvalidArgument("cannot write op_log '" + path + "': " + std::strerror(errno));
  }
  std::fputs("# worker type intended_start_us start_us latency_us outcome\n", f);
  return std::unique_ptr<OpLog>(new OpLog(f));
}

OpLog::~OpLog() { Close().IgnoreError(); }

void OpLog::Write(const std::string& lines) {
  std::lock_guard lock(mu_);
  if (f_ != nullptr) std::fwrite(lines.data(), 1, lines.size(), f_);
}

Status OpLog::Close() {
  std::lock_guard lock(mu_);
  if (f_ == nullptr) return Status::Ok();
  const bool ok = std::fclose(f_) == 0;
  f_ = nullptr;
  return ok ? Status::Ok() : Status::IoError("writing the op_log failed");
}

}  // namespace sb::driver
