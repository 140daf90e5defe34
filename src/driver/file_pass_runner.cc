#include "driver/file_pass_runner.h"

namespace sb::driver {

Result<TimedPass> RunFilePass(Clock& clock, fsload::FilePass& pass, const std::atomic<bool>* stop) {
  const int64_t t0 = clock.NowNanos();
  for (;;) {
    if (stop != nullptr && stop->load(std::memory_order_relaxed)) {
      return Status::Cancelled("stopped by a signal");
    }
    auto more = pass.Step();
    if (!more.ok()) return more.status();
    if (!*more) break;
  }
  if (Status s = pass.Finish(); !s.ok()) return s;
  TimedPass t;
  t.seconds = static_cast<double>(clock.NowNanos() - t0) / 1e9;
  t.bytes = pass.bytes();
  return t;
}

}  // namespace sb::driver
