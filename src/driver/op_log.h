// The per-operation log (--op_log FILE, --op_log_sampling 0.01), like pgbench's -l: one line per
// sampled unit of work, for post-processing:
//   worker type intended_start_us start_us latency_us outcome
// Times are microseconds since Start; outcome is ok, rollback or error. Workers buffer their
// lines and hand full buffers to the shared file, so logging adds no lock per operation.
#ifndef STOREBENCH_DRIVER_OP_LOG_H_
#define STOREBENCH_DRIVER_OP_LOG_H_

#include <cstdio>
#include <memory>
#include <mutex>
#include <string>

#include "storebench/status.h"

namespace sb::driver {

class OpLog {
 public:
  // Creates (truncates) the file and writes a header comment line.
  static Result<std::unique_ptr<OpLog>> Open(const std::string& path);
  ~OpLog();
  // Appends whole lines; thread-safe.
  void Write(const std::string& lines);
  // The first write that failed so far (a full disk), or OK: the runner ends the run on it
  // within a second instead of running on with a log that is already incomplete.
  Status Error();
  Status Close();

 private:
  OpLog(std::FILE* f, std::string path) : f_(f), path_(std::move(path)) {}
  Status Failure(int err) const;
  std::mutex mu_;
  std::FILE* f_;
  std::string path_;
  int write_errno_ = 0;  // the first failed write's errno (a full disk): Close reports it
};

}  // namespace sb::driver

#endif  // STOREBENCH_DRIVER_OP_LOG_H_
