#include "metrics/run_result.h"

#include <gtest/gtest.h>

#include <cstdint>

#include "metrics/histogram.h"

namespace sb::metrics {
namespace {

constexpr int64_t kMilli = 1000 * 1000;

TEST(LatencySummaryTest, EmptyHistogramGivesZeros) {
  const LatencySummary s = LatencySummary::From(Histogram());
  EXPECT_EQ(s.count, 0u);
  for (double v :
       {s.mean_ms, s.min_ms, s.p50_ms, s.p90_ms, s.p95_ms, s.p99_ms, s.p999_ms, s.max_ms}) {
    EXPECT_EQ(v, 0.0);
  }
}

TEST(LatencySummaryTest, ConvertsNanosecondsToMilliseconds) {
  Histogram h;
  h.Record(1'234'567);  // a lone value is reported exactly at every percentile
  const LatencySummary s = LatencySummary::From(h);
  EXPECT_EQ(s.count, 1u);
  for (double v :
       {s.mean_ms, s.min_ms, s.p50_ms, s.p90_ms, s.p95_ms, s.p99_ms, s.p999_ms, s.max_ms}) {
    EXPECT_DOUBLE_EQ(v, 1.234567);
  }
}

TEST(LatencySummaryTest, TakesEachFigureFromTheHistogram) {
  Histogram h;
  for (int64_t i = 1; i <= 1000; ++i) h.Record(i * kMilli);  // 1 ms .. 1000 ms
  const LatencySummary s = LatencySummary::From(h);
  EXPECT_EQ(s.count, 1000u);
  EXPECT_DOUBLE_EQ(s.mean_ms, 500.5);
  EXPECT_DOUBLE_EQ(s.min_ms, 1.0);
  EXPECT_DOUBLE_EQ(s.max_ms, 1000.0);
  EXPECT_DOUBLE_EQ(s.p50_ms, h.ValueAtPercentile(50) / 1e6);
  EXPECT_DOUBLE_EQ(s.p90_ms, h.ValueAtPercentile(90) / 1e6);
  EXPECT_DOUBLE_EQ(s.p95_ms, h.ValueAtPercentile(95) / 1e6);
  EXPECT_DOUBLE_EQ(s.p99_ms, h.ValueAtPercentile(99) / 1e6);
  EXPECT_DOUBLE_EQ(s.p999_ms, h.ValueAtPercentile(99.9) / 1e6);
  // And each is within the histogram's error of the exact order statistic.
  EXPECT_NEAR(s.p50_ms, 500.0, 500.0 / 256);
  EXPECT_NEAR(s.p90_ms, 900.0, 900.0 / 256);
  EXPECT_NEAR(s.p95_ms, 950.0, 950.0 / 256);
  EXPECT_NEAR(s.p99_ms, 990.0, 990.0 / 256);
  EXPECT_NEAR(s.p999_ms, 999.0, 999.0 / 256);
  EXPECT_LT(s.p50_ms, s.p90_ms);
  EXPECT_LT(s.p99_ms, s.p999_ms);
}

}  // namespace
}  // namespace sb::metrics
