// Times a file pass (workload/fs/file_pass.h: `io read`, `io copy`, `io fragtest`'s sequential
// read): the pass's steps run back to back on the calling thread, and the clock is read before
// the first step and after Finish(), so the time includes everything the pass does (a copy's
// fsync). The stop flag is read between steps.
#ifndef STOREBENCH_DRIVER_FILE_PASS_RUNNER_H_
#define STOREBENCH_DRIVER_FILE_PASS_RUNNER_H_

#include <atomic>
#include <cstdint>

#include "base/clock.h"
#include "storebench/status.h"
#include "workload/fs/file_pass.h"

namespace sb::driver {

struct TimedPass {
  double seconds = 0;
  uint64_t bytes = 0;
  double MibPerSec() const {
    return seconds > 0 ? static_cast<double>(bytes) / seconds / 1048576.0 : 0;
  }
};

// Cancelled when `stop` was set before the pass ended; the pass's own error otherwise.
Result<TimedPass> RunFilePass(Clock& clock, fsload::FilePass& pass, const std::atomic<bool>* stop);

}  // namespace sb::driver

#endif  // STOREBENCH_DRIVER_FILE_PASS_RUNNER_H_
