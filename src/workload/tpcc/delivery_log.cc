#include "workload/tpcc/delivery_log.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <utility>

namespace sb::tpcc {
namespace {

// "2026-12-02T00:20:01.123456Z": UTC to the microsecond, sortable as text.
void AppendUtc(int64_t unix_nanos, std::string* out) {
  const auto secs = static_cast<std::time_t>(unix_nanos / 1000000000);
  const int64_t micros = (unix_nanos % 1000000000) / 1000;
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[40];
  const size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  std::snprintf(buf + n, sizeof buf - n, ".%06lldZ", static_cast<long long>(micros));  // NOLINT
  *out += buf;
}

}  // namespace

int64_t UnixNanosNow() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Result<std::unique_ptr<DeliveryLog>> DeliveryLog::Open(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) {
    return Status::InvalidArgument("cannot write the delivery log " + path + ": " +
                                   std::strerror(errno));
  }
  return std::unique_ptr<DeliveryLog>(new DeliveryLog(path, f));
}

DeliveryLog::~DeliveryLog() { std::fclose(f_); }

std::string DeliveryLog::Format(const DeliveryRecord& r) {
  std::string line;
  AppendUtc(r.queued_unix_nanos, &line);
  line += ' ';
  AppendUtc(r.completed_unix_nanos, &line);
  line += " w=" + std::to_string(r.w) + " carrier=" + std::to_string(r.carrier);
  for (int d = 0; d < kDistrictsPerWarehouse; ++d) {
    const int64_t o = r.orders[static_cast<size_t>(d)];
    line += ' ' + std::to_string(d + 1) + ':' + (o != 0 ? std::to_string(o) : "skipped");
  }
  return line;
}

Status DeliveryLog::Write(const DeliveryRecord& r) {
  const std::string line = Format(r) + '\n';
  int64_t skipped = 0;
  for (int64_t o : r.orders) skipped += o == 0 ? 1 : 0;
  std::lock_guard lock(mu_);
  if (std::fwrite(line.data(), 1, line.size(), f_) != line.size() || std::fflush(f_) != 0) {
    const Status s =
        Status::IoError("cannot write the delivery log " + path_ + ": " + std::strerror(errno));
    if (error_.ok()) error_ = s;
    return s;
  }
  ++lines_;
  skipped_ += skipped;
  return Status::Ok();
}

Status DeliveryLog::error() const {
  std::lock_guard lock(mu_);
  return error_;
}

int64_t DeliveryLog::lines() const {
  std::lock_guard lock(mu_);
  return lines_;
}

int64_t DeliveryLog::skipped_districts() const {
  std::lock_guard lock(mu_);
  return skipped_;
}

}  // namespace sb::tpcc
