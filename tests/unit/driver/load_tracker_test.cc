#include <gtest/gtest.h>

#include "driver/load.h"
#include "metrics/load_meter.h"

namespace sb::driver {
namespace {

constexpr int64_t kSec = 1'000'000'000;

TEST(LoadProgressTrackerTest, RateIsOverTheLastWindowAndEtaFromIt) {
  metrics::LoadMeter meter;
  const int a = meter.Expect("a", 1000);
  const int b = meter.Expect("b", 9000);
  LoadProgressTracker tracker(/*start=*/0, /*rate_window=*/2 * kSec);
  // 1 000 rows/s for 3 s, then 4 000 rows/s: the rate must follow the last 2 s only.
  meter.Add(a, 1000, 10'000);
  EXPECT_DOUBLE_EQ(tracker.Sample(meter, 1 * kSec).rows_per_sec, 1000);
  meter.Add(b, 1000, 10'000);
  tracker.Sample(meter, 2 * kSec);
  meter.Add(b, 1000, 10'000);
  tracker.Sample(meter, 3 * kSec);
  meter.Add(b, 4000, 40'000);
  metrics::LoadSample s = tracker.Sample(meter, 4 * kSec);
  EXPECT_DOUBLE_EQ(s.rows_per_sec, (1000 + 4000) / 2.0);  // rows 2000 -> 7000 over 2 s
  EXPECT_DOUBLE_EQ(s.bytes_per_sec, (10'000 + 40'000) / 2.0);
  EXPECT_EQ(s.rows(), 7000);
  EXPECT_EQ(s.expected_rows(), 10'000);
  EXPECT_DOUBLE_EQ(s.eta_sec, 3000 / 2500.0);
  EXPECT_DOUBLE_EQ(s.elapsed_sec, 4.0);
  ASSERT_EQ(s.tables.size(), 2u);
  EXPECT_EQ(s.tables[0].name, "a");
  EXPECT_EQ(s.tables[1].rows, 6000);
  EXPECT_FALSE(s.data_done);
}

TEST(LoadProgressTrackerTest, EtaUnknownWithoutRateOrExpectationAndZeroWhenDone) {
  metrics::LoadMeter meter;
  const int t = meter.Expect("t", 0);  // nothing expected: no ETA
  LoadProgressTracker tracker(0);
  meter.Add(t, 10, 100);
  EXPECT_EQ(tracker.Sample(meter, kSec).eta_sec, -1);

  metrics::LoadMeter stalled;
  stalled.Expect("t", 100);
  LoadProgressTracker tracker2(0);
  EXPECT_EQ(tracker2.Sample(stalled, kSec).eta_sec, -1);  // no rows yet: no rate
  stalled.MarkDataDone();
  const metrics::LoadSample done = tracker2.Sample(stalled, 2 * kSec);
  EXPECT_TRUE(done.data_done);
  EXPECT_EQ(done.eta_sec, 0);
}

TEST(LoadMeterTest, AddToAnUndeclaredTableIsIgnored) {
  metrics::LoadMeter meter;
  const int t = meter.Expect("t", 5);
  meter.Add(t + 1, 7, 7);
  meter.Add(-1, 7, 7);
  const auto tables = meter.Read();
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(tables[0].rows, 0);
}

TEST(LoadProgressTrackerTest, IndexPhaseShowsRunningStepsAndEtaFromWeights) {
  using State = metrics::IndexStepProgress::State;
  metrics::LoadMeter meter;
  meter.Add(meter.Expect("t", 10), 10, 100);
  LoadProgressTracker tracker(0);
  meter.MarkDataDone();
  EXPECT_FALSE(tracker.Sample(meter, 1 * kSec).index_phase);  // no steps declared (yet)
  const int big = meter.ExpectIndexStep("big", 60);
  const int small = meter.ExpectIndexStep("small", 30);
  const int rest = meter.ExpectIndexStep("rest", 10);
  meter.IndexStepStarted(big);
  meter.IndexStepStarted(small);
  metrics::LoadSample s = tracker.Sample(meter, 2 * kSec);  // the index phase starts here
  ASSERT_TRUE(s.index_phase);
  EXPECT_DOUBLE_EQ(s.index_elapsed_sec, 0);
  EXPECT_EQ(s.eta_sec, -1);
  meter.IndexStepDone(small);
  s = tracker.Sample(meter, 5 * kSec);
  EXPECT_DOUBLE_EQ(s.index_elapsed_sec, 3);
  EXPECT_DOUBLE_EQ(s.index_steps[big].running_sec, 3);
  EXPECT_EQ(s.index_steps[small].state, State::kDone);
  EXPECT_EQ(s.eta_sec, -1);  // 30 of 100 done: too early to say
  meter.IndexStepDone(big);
  meter.IndexStepStarted(rest);
  s = tracker.Sample(meter, 8 * kSec);
  EXPECT_DOUBLE_EQ(s.eta_sec, 10 * 6.0 / 90);  // 90 weight in 6 s, 10 to go
  EXPECT_DOUBLE_EQ(s.index_steps[rest].running_sec, 0);
  meter.IndexStepDone(rest);
  EXPECT_EQ(tracker.Sample(meter, 9 * kSec).eta_sec, 0);
}

}  // namespace
}  // namespace sb::driver
