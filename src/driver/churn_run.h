// Runs `storebench io churn` (workload/fs/churn_writer.h): one ChurnWriter per worker thread,
// driven by the Controller (the one run loop) for the run's duration, with the directory and
// volume measured (workload/fs/churn_sample.h) before Start, at every sample interval, and after
// the writers stopped. The time of each sample is the controller's clock's.
#ifndef STOREBENCH_DRIVER_CHURN_RUN_H_
#define STOREBENCH_DRIVER_CHURN_RUN_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "backend/fs/extent_map.h"
#include "base/clock.h"
#include "storebench/status.h"
#include "workload/fs/churn_sample.h"

namespace sb::driver {

struct ChurnRunOptions {
  std::string dir;  // writer i works in dir/w<i>
  int writers = 3;
  uint64_t max_bytes = 1ull << 30;  // split evenly between the writers
  uint64_t seed = 1;                // writer i's: DeriveSeed(seed, {i})
  int64_t duration_nanos = 0;
  int64_t sample_nanos = 10 * kNanosPerSecond;
  const std::atomic<bool>* stop = nullptr;
  fs::FileSystemInfo fs;  // the volume holding dir
};

struct ChurnRunResult {
  std::vector<fsload::ChurnSample> samples;  // before, every interval, after
  std::string started_at;                    // wall clock, when the writers were started
  uint64_t operations = 0, bytes_written = 0, files_deleted = 0, write_errors = 0;
  std::string first_error;   // the first failed write's reason ("" when none)
  bool interrupted = false;  // stopped by the stop flag
};

// `on_sample` sees every sample as it is taken (the console line). An error: a writer's
// directory could not be created (nothing ran or was measured: no sample), or the run was
// stopped before Start.
Result<ChurnRunResult> RunChurn(Clock& clock, const ChurnRunOptions& options,
                                const std::function<void(const fsload::ChurnSample&)>& on_sample);

}  // namespace sb::driver

#endif  // STOREBENCH_DRIVER_CHURN_RUN_H_
