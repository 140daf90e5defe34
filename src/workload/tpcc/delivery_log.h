// --delivery_log PATH: the deferred Delivery's result file (TPC-C clause 2.7.2.2). After each
// deferred Delivery commits, the delivery thread appends one line: when the request was queued,
// when it completed, its warehouse and carrier, and for each of the 10 districts the O_ID it
// delivered or "skipped" (no new order, clause 2.7.4). The format is in docs/tpcc.md:
//
//   2026-12-02T00:20:01.123456Z 2026-12-02T00:20:01.234567Z w=1 carrier=7 1:3001 2:skipped ...
//
// Each line is flushed when written, so a run that stops early keeps the lines of the Deliveries
// it committed. Thread-safe.
#ifndef STOREBENCH_WORKLOAD_TPCC_DELIVERY_LOG_H_
#define STOREBENCH_WORKLOAD_TPCC_DELIVERY_LOG_H_

#include <array>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>

#include "storebench/status.h"
#include "workload/tpcc/tpcc_random.h"

namespace sb::tpcc {

// The O_ID delivered in each district (index d - 1), or 0 when the district was skipped.
using DeliveredOrders = std::array<int64_t, kDistrictsPerWarehouse>;

// One executed deferred Delivery. Times are wall-clock nanoseconds since the Unix epoch.
struct DeliveryRecord {
  int64_t queued_unix_nanos = 0;
  int64_t completed_unix_nanos = 0;
  int64_t w = 0;
  int64_t carrier = 0;
  DeliveredOrders orders{};
};

class DeliveryLog {
 public:
  // Creates or truncates `path`: InvalidArgument naming the path when it cannot be written.
  static Result<std::unique_ptr<DeliveryLog>> Open(const std::string& path);
  ~DeliveryLog();
  DeliveryLog(const DeliveryLog&) = delete;
  DeliveryLog& operator=(const DeliveryLog&) = delete;

  // Appends the record's line and flushes it; an error (disk full) names the path and is kept.
  Status Write(const DeliveryRecord& r);
  // The first write that failed, or OK: the run ends on it (Workload::OutputError).
  Status error() const;
  // The line of `r` without its newline.
  static std::string Format(const DeliveryRecord& r);
  // Lines written, and the skipped districts in them.
  int64_t lines() const;
  int64_t skipped_districts() const;
  const std::string& path() const { return path_; }

 private:
  DeliveryLog(std::string path, std::FILE* f) : path_(std::move(path)), f_(f) {}
  const std::string path_;
  mutable std::mutex mu_;
  std::FILE* f_;
  int64_t lines_ = 0;
  int64_t skipped_ = 0;
  Status error_;
};

// Wall-clock nanoseconds since the Unix epoch (system_clock).
int64_t UnixNanosNow();

}  // namespace sb::tpcc

#endif  // STOREBENCH_WORKLOAD_TPCC_DELIVERY_LOG_H_
