// Coordinated omission, shown on a fake clock: a 1-second stall of the system under test is
// visible in open-loop latency and lag, and hidden in the closed loop.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <vector>

#include "base/clock.h"
#include "driver/pacer.h"
#include "driver/worker.h"

namespace sb::driver {
namespace {

constexpr int64_t kMs = kNanosPerMilli;

// A session whose every unit is one step taking 1 ms of fake time, except the unit that starts
// at or after `stall_at`, which takes 1 s. It ends the run at `stop_at`.
class StallSession final : public workload::Session {
 public:
  StallSession(FakeClock& clock, int64_t stall_at, int64_t stop_at, std::atomic<bool>& end)
      : clock_(clock), stall_at_(stall_at), stop_at_(stop_at), end_(end) {}
  Status RunUnit(workload::OpContext& ctx) override {
    auto out = ctx.Step(0, [&] {
      const bool stall = !stalled_ && clock_.NowNanos() >= stall_at_;
      stalled_ = stalled_ || stall;
      clock_.Advance(stall ? 1000 * kMs : 1 * kMs);
      return Status::Ok();
    });
    if (clock_.NowNanos() >= stop_at_) end_ = true;
    return out.status;
  }

 private:
  FakeClock& clock_;
  int64_t stall_at_, stop_at_;
  std::atomic<bool>& end_;
  bool stalled_ = false;
};

struct LoopResult {
  metrics::RecorderSnapshot snap;
  uint64_t units = 0;
};

LoopResult RunLoop(bool open) {
  FakeClock clock(0);
  std::atomic<bool> end{false};
  Layout layout;
  layout.steps = 1;
  Worker w(0, layout, 1);
  w.session = std::make_unique<StallSession>(clock, 2 * kNanosPerSecond, 6 * kNanosPerSecond, end);
  // Open loop: 500 units/s (one every 2 ms) for a system that needs 1 ms per unit.
  w.pacer = open ? NewOpenLoopPacer(500, 1, 0, Arrival::kConstant, 0, 1) : NewClosedLoopPacer(0, 1);
  LoopLimits limits;
  RunSignals signals;  // the session ends the run through the stop flag
  signals.stop = &end;
  RunUnits(w, layout, limits, clock, signals, nullptr);
  LoopResult r;
  w.recorder.Snapshot(&r.snap);
  r.units = r.snap.types[0].count();
  return r;
}

TEST(CoordinatedOmissionTest, StallShowsInOpenLoopAndHidesInClosedLoop) {
  const LoopResult closed = RunLoop(false);
  const LoopResult open = RunLoop(true);
  const metrics::Histogram& c = closed.snap.types[0];
  const metrics::Histogram& o = open.snap.types[0];
  // Closed loop: one slow unit among thousands; p99 looks perfect, only max sees the stall.
  EXPECT_GT(closed.units, 4000u);
  EXPECT_LT(c.ValueAtPercentile(99), 2 * kMs);
  EXPECT_GE(c.max(), 990 * kMs);
  // Open loop: every unit scheduled during the stall waits for it; measured from the intended
  // start, the stall reaches far into the percentiles.
  EXPECT_GE(o.max(), 990 * kMs);
  EXPECT_GT(o.ValueAtPercentile(99), 500 * kMs);
  EXPECT_GT(o.ValueAtPercentile(90), 50 * kMs);
  // The schedule lag (actual − intended start, recorder type 1 + steps) sees the stall too.
  const metrics::Histogram& lag = open.snap.types[2];
  EXPECT_GE(lag.max(), 990 * kMs);
  // The open loop kept the requested rate: 6 s at 500/s.
  EXPECT_NEAR(static_cast<double>(open.units), 3000, 5);
}

}  // namespace
}  // namespace sb::driver

namespace sb::driver {
namespace {

TEST(PacerTest, ConstantScheduleIsEvenAndInterleavesWorkers) {
  // 1000/s over 4 workers: each worker every 4 ms, offset by 1 ms from the previous worker.
  std::vector<int64_t> all;
  for (int w = 0; w < 4; ++w) {
    auto p = NewOpenLoopPacer(1000, 4, w, Arrival::kConstant, 0, 1);
    for (int i = 0; i < 250; ++i) all.push_back(p->NextIntendedStart(0));
  }
  std::sort(all.begin(), all.end());
  for (size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i], static_cast<int64_t>(i) * kMs);
}

TEST(PacerTest, PoissonGapsHaveTheRequestedMean) {
  auto p = NewOpenLoopPacer(10000, 1, 0, Arrival::kPoisson, 0, 9);
  const int n = 100000;
  int64_t last = p->NextIntendedStart(0);
  const int64_t first = last;
  int64_t max_gap = 0;
  for (int i = 1; i < n; ++i) {
    const int64_t t = p->NextIntendedStart(0);
    ASSERT_GE(t, last);
    max_gap = std::max(max_gap, t - last);
    last = t;
  }
  const double mean_gap_us = static_cast<double>(last - first) / (n - 1) / 1000.0;
  EXPECT_NEAR(mean_gap_us, 100.0, 1.5);  // sigma of the mean: 0.32 us
  EXPECT_GT(max_gap, 500 * 1000);        // exponential tail: P(max gap < 5 means) ~ 0
}

TEST(PacerTest, ClosedLoopWaitsOnlyTheThinkTime) {
  auto p = NewClosedLoopPacer(0, 1);
  EXPECT_EQ(p->NextIntendedStart(12345), 12345);
  EXPECT_FALSE(p->open_loop());
}

}  // namespace
}  // namespace sb::driver
