// The storage open loop (io run --rate): I/Os start on a schedule, never more than it asks for;
// each I/O's latency runs from its scheduled start, so time spent waiting for a free slot counts
// (no coordinated omission); a target that cannot keep the rate stops the test with a reason.
// The engines here complete I/Os without a device: the null engine at once, and a wrapper that
// takes a fixed time per I/O. The assertions are bounds that follow from the schedule and the
// engine's service time, never from how fast this machine happens to be.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <memory>
#include <thread>

#include "backend/io/null/null_engine.h"
#include "base/clock.h"
#include "driver/io_runner.h"
#include "workload/storage/access_spec.h"

namespace sb::driver {
namespace {

constexpr int64_t kServiceNanos = 20 * kNanosPerMilli;

// Completes each I/O kServiceNanos after the previous one completed (one device, serial
// service), so an I/O never finishes sooner than that after its submission.
class SlowEngine final : public io::IoEngine {
 public:
  const char* name() const override { return "slow"; }
  bool is_async() const override { return true; }
  Result<int> Open(const std::string&, const io::FileOptions&) override { return 0; }
  Result<int> Submit(const io::IoRequest* requests, int n) override {
    for (int i = 0; i < n; ++i) {
      const int64_t begin = std::max(clock_.NowNanos(), last_due_);
      last_due_ = begin + kServiceNanos;
      queue_.push_back({requests[i].tag, requests[i].length, last_due_});
    }
    return n;
  }
  Result<int> Reap(io::IoCompletion* out, int min_complete, int max) override {
    return ReapWithin(out, min_complete, max, -1);
  }
  Result<int> ReapWithin(io::IoCompletion* out, int min_complete, int max,
                         int64_t timeout_nanos) override {
    const int64_t give_up = timeout_nanos < 0 ? INT64_MAX : clock_.NowNanos() + timeout_nanos;
    int n = 0;
    for (;;) {
      while (n < max && !queue_.empty() && queue_.front().due <= clock_.NowNanos()) {
        out[n++] = {queue_.front().tag, queue_.front().length};
        queue_.pop_front();
      }
      if (n >= min_complete || queue_.empty() || clock_.NowNanos() >= give_up) return n;
      clock_.SleepUntil(std::min(queue_.front().due, give_up));
    }
  }
  void Close() override {}

 private:
  struct Pending {
    uint64_t tag;
    int64_t length;
    int64_t due;
  };
  SteadyClock clock_;
  std::deque<Pending> queue_;
  int64_t last_due_ = 0;
};

io::EngineRegistry Engines() {
  io::EngineRegistry engines;
  engines.Register("null", io::CreateNullEngine);
  engines.Register("slow", [](const io::EngineOptions&) -> Result<std::unique_ptr<io::IoEngine>> {
    return std::unique_ptr<io::IoEngine>(std::make_unique<SlowEngine>());
  });
  return engines;
}

Result<metrics::StorageTest> RunOpenLoop(const std::string& engine, double rate, int outstanding,
                                         int64_t run_nanos, int64_t max_lag_nanos = 0) {
  const io::EngineRegistry engines = Engines();
  auto spec = storage::ParseSpecText("4KiB,100%read,100%random");
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  IoRunConfig c;
  c.engine = engine;
  c.outstanding = outstanding;
  c.rate_iops = rate;
  if (max_lag_nanos > 0) c.max_lag_nanos = max_lag_nanos;
  c.targets.emplace_back();
  c.targets.back().path = "unused-by-these-engines";
  c.targets.back().range_bytes = 64 << 20;
  c.run_nanos = run_nanos;
  SteadyClock clock;
  return RunStorageTest(engines, *spec, 0, c, clock, nullptr);
}

TEST(IoOpenLoopTest, NeverStartsMoreIosThanTheScheduleAsks) {
  // The null engine completes at once: a closed loop would do millions of I/Os per second.
  const double rate = 2000;
  auto t = RunOpenLoop("null", rate, 4, 300 * kNanosPerMilli);
  ASSERT_TRUE(t.ok()) << t.status().message();
  const double ios = static_cast<double>(t->totals.ios());
  EXPECT_LE(ios, rate * t->measured_sec + 4 + 1);
  EXPECT_GT(ios, 0);
  EXPECT_EQ(t->rate_iops, rate);
  EXPECT_EQ(t->arrival, "constant");
  EXPECT_TRUE(t->stopped.empty()) << t->stopped;
}

TEST(IoOpenLoopTest, LatencyRunsFromTheScheduledStart) {
  // 1,000 I/Os per second asked of a device that serves one every 20 ms through one slot: the
  // I/Os queue, and the n-th completed one was scheduled at about n ms but finished no sooner
  // than n x 20 ms. Measured from submission each would take 20 ms; from its scheduled start the
  // slowest of the test must have waited far longer.
  auto t = RunOpenLoop("slow", 1000, 1, 400 * kNanosPerMilli, 30 * kNanosPerSecond);
  ASSERT_TRUE(t.ok()) << t.status().message();
  const auto done = static_cast<int64_t>(t->totals.read_ios);
  ASSERT_GE(done, 5);
  const double max_ms = static_cast<double>(t->totals.read_latency_max_ns) / 1e6;
  // The last completed I/O: scheduled at (done - 1) ms, completed at >= done x 20 ms.
  const double at_least_ms = static_cast<double>(done) * 20.0 - static_cast<double>(done - 1);
  EXPECT_GE(max_ms, at_least_ms * 0.9);
  EXPECT_GT(max_ms, 2 * 20.0);
}

TEST(IoOpenLoopTest, ATargetThatCannotKeepTheRateStopsTheTestWithAReason) {
  auto t = RunOpenLoop("slow", 1000, 1, 30 * kNanosPerSecond, 50 * kNanosPerMilli);
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_NE(t->stopped.find("behind the requested rate of 1000 I/Os per second"), std::string::npos)
      << t->stopped;
}

}  // namespace
}  // namespace sb::driver
