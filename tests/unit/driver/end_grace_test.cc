// The run's end (DbInstance::InterruptStalled, docs/measurement.md#stalled-workers): units still
// in flight are waited for while the server answers others, and are cut only once nothing has
// answered for the end's grace. Real threads on a clock that runs a case's speedup times as fast
// as the steady clock (every time below is that clock's): the units sleep on it for whole
// seconds, far from the rule's edges either way, and the driver's own times (the 5 s grace, the
// 10 s stall timeout floor, the retries' back-off, its polling) are the product's, unscaled.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "backend/db/null/null_backend.h"
#include "base/clock.h"
#include "driver/runner.h"
#include "storebench/db.h"
#include "storebench/workload.h"
#include "unit/driver/stub_workload.h"

namespace sb::driver {
namespace {

// Each case's clock runs as fast as its own margin allows: its event nearest to a rule's edge
// (an answer before a grace runs out, a silence noticed before the unit returns) is at least
// half a second of real time from it, so a thread woken a third of a second late (the machine
// busy) still lands on the same side.
// The steady clock, `speedup` times as fast. Sleeping on it sleeps the scaled-down real time.
class FastClock final : public Clock {
 public:
  explicit FastClock(int64_t speedup) : speedup_(speedup) {}
  int64_t NowNanos() const override { return (MonotonicNanos() - origin_) * speedup_; }
  void SleepUntil(int64_t deadline_nanos) override {
    for (int64_t now = NowNanos(); now < deadline_nanos; now = NowNanos()) {
      std::this_thread::sleep_for(
          std::chrono::nanoseconds((deadline_nanos - now + speedup_ - 1) / speedup_));
    }
  }

 private:
  const int64_t speedup_;
  const int64_t origin_ = MonotonicNanos();
};

// Each worker's first unit waits `first_unit_ms[worker]` (a statement waiting on a lock), or
// with a negative value retries a call failing with a deadlock for that long; its later units
// return at once.
class WaitingWorkload final : public StubWorkload {
 public:
  WaitingWorkload(std::vector<int> first_unit_ms, Clock& clock)
      : StubWorkload("waiting"), first_unit_ms_(std::move(first_unit_ms)), clock_(clock) {
    shape_.unit_name = "op";
    shape_.headline_name = "ops_per_minute";
    shape_.headlines = {metrics::UnitsPerMinute("ops_per_minute", "operations per minute")};
    shape_.step_types = {"wait"};
  }
  Result<std::unique_ptr<workload::Session>> NewSession(std::unique_ptr<db::Connection>, uint64_t,
                                                        int worker) override {
    return std::unique_ptr<workload::Session>(
        new WaitingSession(first_unit_ms_.at(worker), clock_));
  }

 private:
  class WaitingSession final : public workload::Session {
   public:
    WaitingSession(int ms, Clock& clock) : ms_(ms), clock_(clock) {}
    Status RunUnit(workload::OpContext& ctx) override {
      if (ms_ < 0) {
        // Its one call fails with the server's deadlock error every 1.5 s (the driver retries
        // it after a back-off of up to a second) until -ms_ ms have passed, then succeeds.
        const int64_t until = clock_.NowNanos() - ms_ * kNanosPerMilli;
        ms_ = 0;
        return ctx
            .Timed([&] {
              clock_.SleepFor(1500 * kNanosPerMilli);
              if (clock_.NowNanos() >= until) return Status::Ok();
              return Status::Db(ErrorCategory::kDeadlock, "deadlock detected");
            })
            .status;
      }
      clock_.SleepFor(ms_ * kNanosPerMilli);
      ms_ = 0;
      return Status::Ok();
    }

   private:
    int ms_;
    Clock& clock_;
  };

  std::vector<int> first_unit_ms_;
  Clock& clock_;
};

// On the null back end counting as a server (`null://?server=1`) unless `server` is false, on a
// clock `speedup` times as fast as the steady clock.
RunOutcome RunWaiting(int64_t speedup, const std::vector<int>& first_unit_ms,
                      int64_t run_nanos = kNanosPerSecond, bool server = true) {
  FastClock clock(speedup);
  WaitingWorkload workload(first_unit_ms, clock);
  auto url = db::ParseDbUrl(server ? "null://?server=1" : "null://");
  EXPECT_TRUE(url.ok()) << url.status().message();
  auto backend = db::OpenNull(*url, db::BackendOptions()).value();
  EXPECT_EQ(backend->capabilities().server, server);
  DbInstanceSpec spec;
  spec.name = "w";
  spec.workload = &workload;
  spec.backend = backend.get();
  spec.options.threads = static_cast<int>(first_unit_ms.size());
  spec.options.units_per_thread = 2;
  spec.options.ramp_rate = 0;
  spec.options.seed = 1;
  RunOptions common;
  common.run_nanos = run_nanos;
  common.log_freq_sec = 0;
  Runner runner(clock);
  return runner.RunMany({spec}, common, {});
}

TEST(EndGraceTest, UnitsAnsweredOneAfterAnotherAfterTheEndAreNoStall) {
  // The run ends at 1 s; the grace is 5 s (no unit took longer before). Worker 0's unit returns
  // at 3.5 s, worker 1's at 7 s: 6 s after the end, but 3.5 s after the server last answered.
  // Cut at 5 s, its statement would have been one the server ran and the client never counted.
  // The nearest edge: worker 0 answers 1.5 s before the 5 s of silence (and worker 1 1.5 s
  // before 8.5 s): three times as fast, half a second.
  RunOutcome out = RunWaiting(3, {3500, 7000});
  EXPECT_TRUE(out.status.ok()) << out.status.message();
  EXPECT_EQ(out.result.workers_stalled, 0);
}

TEST(EndGraceTest, CallsFailingAndRetriedAfterTheEndAreAnswersToo) {
  // No unit completes between the start and 7 s, but worker 0's call fails with the server's
  // deadlock error every 1.5 to 2.5 s and is retried until 7 s: the server answers, so worker
  // 1's unit, waiting until 7.5 s, is no stall either (both began at the start, more than the
  // 5 s grace before).
  // The nearest edge: answers at most 2.5 s apart against the 5 s grace, and worker 1's unit
  // ends 2.5 s before the 10 s stall timeout: five times as fast, half a second.
  RunOutcome out = RunWaiting(5, {-7000, 7500});
  EXPECT_TRUE(out.status.ok()) << out.status.message();
  EXPECT_EQ(out.result.workers_stalled, 0);
  EXPECT_GT(out.result.retries, 0);
}

TEST(EndGraceTest, AUnitRetryingLongerThanTheStallTimeoutIsNoStall) {
  // During a 16 s run a unit's call fails with the server's deadlock error every 1.5 to 2.5 s
  // and is retried until 11.5 s (so it ends by 14 s, inside the run: only the stall timeout
  // watches it): the unit is older than the 10 s stall timeout (no unit completed before it, so
  // the timeout is its floor), but the server answered it all along.
  // The nearest edge: answers at most 2.5 s apart against the 10 s stall timeout: fifteen times
  // as fast, half a second.
  RunOutcome out = RunWaiting(15, {-11500}, 16 * kNanosPerSecond);
  EXPECT_TRUE(out.status.ok()) << out.status.message();
  EXPECT_EQ(out.result.workers_stalled, 0);
  EXPECT_GT(out.result.retries, 0);
}

TEST(EndGraceTest, AServerSilentForTheGraceAfterTheEndIsTakenForFrozen) {
  // The run ends at 1 s and nothing ever answers: the unit, waiting until 7 s, is cut once it
  // is older than the 5 s grace, and counts as a stall.
  // The nearest edge: the silence is noticed from 5 s, 2 s before the unit returns by itself:
  // four times as fast, half a second.
  RunOutcome out = RunWaiting(4, {7000});
  EXPECT_FALSE(out.status.ok());
  EXPECT_EQ(out.result.workers_stalled, 1);
}

TEST(EndGraceTest, AnEmbeddedEngineIsNotWatched) {
  // The same unit on a back end without a server (SQLite's waits are its busy timeout and the
  // local disk, which no interrupt shortens): it is waited for, and no stall.
  // No rule watches it, so no edge to keep from: ten times as fast.
  RunOutcome out = RunWaiting(10, {7000}, kNanosPerSecond, /*server=*/false);
  EXPECT_TRUE(out.status.ok()) << out.status.message();
  EXPECT_EQ(out.result.workers_stalled, 0);
}

}  // namespace
}  // namespace sb::driver
