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
  return std::unique_ptr<OpLog>(new OpLog(f, path));
}

OpLog::~OpLog() { Close().IgnoreError(); }

void OpLog::Write(const std::string& lines) {
  std::lock_guard lock(mu_);
  if (f_ == nullptr) return;
  if (std::fwrite(lines.data(), 1, lines.size(), f_) != lines.size() && write_errno_ == 0) {
    write_errno_ = errno != 0 ? errno : EIO;
  }
}

Status OpLog::Error() {
  std::lock_guard lock(mu_);
  return write_errno_ == 0 ? Status::Ok() : Failure(write_errno_);
}

Status OpLog::Failure(int err) const {
  return Status::IoError("cannot write --op_log '" + path_ + "': " + std::strerror(err) +
                         "; the log is incomplete");
}

Status OpLog::Close() {
  std::lock_guard lock(mu_);
  if (f_ == nullptr) return Status::Ok();
  // A write that failed during the run (its buffer flushed onto a full disk) leaves the stream
  // in error; fclose reports only its own last flush.
  int err = write_errno_ != 0 ? write_errno_ : std::ferror(f_) ? EIO : 0;
  if (std::fclose(f_) != 0 && err == 0) err = errno;
  f_ = nullptr;
  return err == 0 ? Status::Ok() : Failure(err);
}

}  // namespace sb::driver
