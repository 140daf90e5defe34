#include "metrics/histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "unit/metrics/histogram_testing.h"

namespace sb::metrics {
namespace {

using testing::ExpectSameHistogram;
using testing::kMaxRelativeError;

constexpr int64_t kMicro = 1000;
constexpr int64_t kMilli = 1000 * kMicro;
constexpr int64_t kSecond = 1000 * kMilli;
constexpr int64_t kHour = 3600 * kSecond;
constexpr size_t kLast = Histogram::kNumBuckets - 1;

double RelativeError(int64_t reported, int64_t exact) {
  return std::abs(static_cast<double>(reported) - static_cast<double>(exact)) /
         static_cast<double>(exact);
}

// Nearest rank for a percentile given in millionths (p = ppm / 10^4 %), in exact integer
// arithmetic, as an independent reference for the histogram's floating-point version.
uint64_t NearestRank(uint64_t ppm, uint64_t n) {
  return std::max<uint64_t>(1, (ppm * n + 999'999) / 1'000'000);
}

// Log-uniform random values in [lo, hi].
std::vector<int64_t> LogUniform(size_t n, int64_t lo, int64_t hi, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(std::log(static_cast<double>(lo)),
                                           std::log(static_cast<double>(hi)));
  std::vector<int64_t> values(n);
  for (int64_t& v : values) v = std::clamp(static_cast<int64_t>(std::exp(u(rng))), lo, hi);
  return values;
}

TEST(HistogramLayoutTest, Constants) {
  EXPECT_EQ(Histogram::kNumBuckets, 256u + 35u * 128u);
  EXPECT_EQ(Histogram::BucketLow(0), 0);
  EXPECT_EQ(Histogram::BucketHigh(kLast), Histogram::kLimit);
  // The documented range reaches past an hour.
  EXPECT_GT(Histogram::kLimit, kHour);
}

TEST(HistogramLayoutTest, BucketsTileTheRangeWithBoundedWidth) {
  for (size_t b = 0; b < Histogram::kNumBuckets; ++b) {
    const int64_t low = Histogram::BucketLow(b);
    const int64_t high = Histogram::BucketHigh(b);
    ASSERT_LT(low, high) << b;
    if (b + 1 < Histogram::kNumBuckets) {
      ASSERT_EQ(high, Histogram::BucketLow(b + 1)) << b;
    }
    ASSERT_EQ(Histogram::BucketOf(low), b);
    ASSERT_EQ(Histogram::BucketOf(high - 1), b);
    if (b > 0) {
      ASSERT_EQ(Histogram::BucketOf(low - 1), b - 1);
    }
    if (b < 256) {
      ASSERT_EQ(high - low, 1) << "values below 2^kSubBits are exact";
    } else {
      // At most 1/128 of the lower bound wide, and a power of two.
      ASSERT_LE((high - low) * 128, low) << b;
      ASSERT_EQ((high - low) & (high - low - 1), 0) << b;
    }
    const int64_t mid = Histogram::BucketMid(b);
    ASSERT_GE(mid, low);
    ASSERT_LT(mid, high);
  }
}

TEST(HistogramLayoutTest, BucketOfIsMonotonicAndContainsTheValue) {
  std::vector<int64_t> values;
  for (int64_t v = 0; v < 100'000; ++v) values.push_back(v);  // exhaustive low range
  std::vector<int64_t> random = LogUniform(200'000, 1, Histogram::kLimit - 1, 7);
  values.insert(values.end(), random.begin(), random.end());
  for (int e = 1; e < Histogram::kMaxExp; ++e) {  // every power of two and its neighbours
    const int64_t p = int64_t{1} << e;
    values.insert(values.end(), {p - 1, p, p + 1});
  }
  std::sort(values.begin(), values.end());
  size_t previous = 0;
  for (int64_t v : values) {
    const size_t b = Histogram::BucketOf(v);
    ASSERT_GE(b, previous) << v;
    ASSERT_LE(Histogram::BucketLow(b), v);
    ASSERT_LT(v, Histogram::BucketHigh(b));
    previous = b;
  }
}

TEST(HistogramLayoutTest, OutOfRangeValuesClamp) {
  EXPECT_EQ(Histogram::BucketOf(-1), 0u);
  EXPECT_EQ(Histogram::BucketOf(INT64_MIN), 0u);
  EXPECT_EQ(Histogram::BucketOf(Histogram::kLimit - 1), kLast);
  EXPECT_EQ(Histogram::BucketOf(Histogram::kLimit), kLast);
  EXPECT_EQ(Histogram::BucketOf(INT64_MAX), kLast);
}

TEST(HistogramLayoutTest, MidpointErrorIsWithinBoundForEveryBucket) {
  for (size_t b = 0; b < Histogram::kNumBuckets; ++b) {
    const int64_t mid = Histogram::BucketMid(b);
    if (b < 256) {
      ASSERT_EQ(mid, Histogram::BucketLow(b));
      continue;
    }
    // The extreme values of the bucket are the worst cases.
    for (int64_t v : {Histogram::BucketLow(b), Histogram::BucketHigh(b) - 1}) {
      ASSERT_LE(RelativeError(mid, v), kMaxRelativeError) << "bucket " << b << " value " << v;
    }
  }
}

TEST(HistogramTest, EmptyReportsZeros) {
  Histogram h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.sum(), 0);
  EXPECT_EQ(h.min(), 0);
  EXPECT_EQ(h.max(), 0);
  EXPECT_EQ(h.mean(), 0.0);
  EXPECT_EQ(h.saturated(), 0u);
  for (double p : {0.0, 50.0, 99.9, 100.0}) EXPECT_EQ(h.ValueAtPercentile(p), 0);
}

TEST(HistogramTest, ClearReturnsToEmpty) {
  Histogram h;
  h.Record(5 * kMilli);
  h.Record(Histogram::kLimit + 1);
  h.Clear();
  ExpectSameHistogram(h, Histogram());
  h.Record(3);
  EXPECT_EQ(h.min(), 3) << "min must restart after Clear";
  EXPECT_EQ(h.max(), 3);
}

TEST(HistogramTest, SingleValueIsReportedExactlyAtEveryPercentile) {
  // Clamping to [min, max] makes a lone value exact, whatever its bucket's width.
  Histogram h;
  for (int64_t v : LogUniform(2'000, kMicro, kHour, 11)) {
    h.Clear();
    h.Record(v);
    for (double p : {0.0, 0.1, 1.0, 25.0, 50.0, 90.0, 99.0, 99.9, 99.99, 100.0}) {
      ASSERT_EQ(h.ValueAtPercentile(p), v) << "p" << p;
    }
    ASSERT_EQ(h.min(), v);
    ASSERT_EQ(h.max(), v);
    ASSERT_EQ(h.sum(), v);
    ASSERT_DOUBLE_EQ(h.mean(), static_cast<double>(v));
  }
}

TEST(HistogramTest, RelativeErrorBoundOverLogSweepFromMicrosecondToHour) {
  // Each value is the median of {0, v, kLimit - 1}, so clamping cannot hide a bucket error.
  Histogram h;
  size_t checked = 0;
  double worst = 0;
  for (double v = kMicro; v <= kHour; v *= 1.0007) {
    const int64_t value = static_cast<int64_t>(v);
    h.Clear();
    h.Record(0);
    h.Record(value);
    h.Record(Histogram::kLimit - 1);
    const double err = RelativeError(h.ValueAtPercentile(50), value);
    ASSERT_LE(err, kMaxRelativeError) << value;
    worst = std::max(worst, err);
    ++checked;
  }
  EXPECT_GT(checked, 20'000u);
  EXPECT_LE(worst, 0.004);  // the figure quoted in the header comment (0.39 %)
  EXPECT_GT(worst, 0.0) << "a sweep this dense must hit values away from midpoints";
}

TEST(HistogramTest, RandomValuesMatchExactOrderStatistics) {
  std::vector<int64_t> values = LogUniform(200'000, kMicro, kHour, 42);
  Histogram h;
  for (int64_t v : values) h.Record(v);
  std::sort(values.begin(), values.end());
  for (uint64_t ppm : {0u, 1u, 1'000u, 10'000u, 100'000u, 250'000u, 500'000u, 750'000u, 900'000u,
                       950'000u, 990'000u, 999'000u, 999'900u, 999'990u, 1'000'000u}) {
    const int64_t exact = values[NearestRank(ppm, values.size()) - 1];
    const int64_t reported = h.ValueAtPercentile(ppm / 10'000.0);
    EXPECT_LE(RelativeError(reported, exact), kMaxRelativeError)
        << "p" << ppm / 10'000.0 << " exact " << exact << " reported " << reported;
  }
  EXPECT_EQ(h.min(), values.front());
  EXPECT_EQ(h.max(), values.back());
}

TEST(HistogramTest, UniformMicrosecondsMatchExactPercentiles) {
  // 1 µs, 2 µs, ..., 100000 µs once each: the k-th smallest value is k µs.
  constexpr int64_t kN = 100'000;
  Histogram h;
  int64_t sum = 0;
  for (int64_t i = 1; i <= kN; ++i) {
    h.Record(i * kMicro);
    sum += i * kMicro;
  }
  EXPECT_EQ(h.count(), static_cast<uint64_t>(kN));
  EXPECT_EQ(h.sum(), sum);
  EXPECT_DOUBLE_EQ(h.mean(), 50'000.5 * kMicro);
  EXPECT_EQ(h.min(), kMicro);
  EXPECT_EQ(h.max(), kN * kMicro);
  struct Case {
    double p;
    int64_t exact;
  };
  for (const Case& c : {Case{50, 50'000 * kMicro}, Case{90, 90'000 * kMicro},
                        Case{99, 99'000 * kMicro}, Case{99.9, 99'900 * kMicro}}) {
    const int64_t reported = h.ValueAtPercentile(c.p);
    EXPECT_LE(RelativeError(reported, c.exact), 0.01) << "p" << c.p;
    EXPECT_LE(RelativeError(reported, c.exact), kMaxRelativeError) << "p" << c.p;
  }
  // p0 and p100 are bucket midpoints too (clamped to [min, max]), not min() and max() themselves.
  EXPECT_LE(RelativeError(h.ValueAtPercentile(100), kN * kMicro), kMaxRelativeError);
  EXPECT_LE(h.ValueAtPercentile(100), kN * kMicro);
  EXPECT_LE(RelativeError(h.ValueAtPercentile(0), kMicro), kMaxRelativeError);
  EXPECT_GE(h.ValueAtPercentile(0), kMicro);
}

TEST(HistogramTest, NearestRankIsExactForSmallValues) {
  // Values below 256 have their own buckets, so the nearest-rank rule itself is checked exactly,
  // including decimal percentiles whose double is slightly above the intended value (99.9).
  for (uint64_t n = 1; n <= 200; ++n) {
    Histogram h;
    for (uint64_t v = 1; v <= n; ++v) h.Record(static_cast<int64_t>(v));
    for (uint64_t tenths = 0; tenths <= 1000; ++tenths) {
      const auto expected = static_cast<int64_t>(NearestRank(tenths * 1000, n));
      ASSERT_EQ(h.ValueAtPercentile(tenths / 10.0), expected) << "n " << n << " p" << tenths / 10.0;
    }
  }
}

TEST(HistogramTest, NearestRankDoesNotRoundUpAWholeRank) {
  Histogram h;
  h.RecordN(1, 999);
  h.Record(200);
  EXPECT_EQ(h.ValueAtPercentile(99.9), 1);  // rank 999 exactly
  EXPECT_EQ(h.ValueAtPercentile(99.95), 200);
  EXPECT_EQ(h.ValueAtPercentile(-5), 1) << "p below 0 is p0";
  EXPECT_EQ(h.ValueAtPercentile(250), 200) << "p above 100 is p100";
  EXPECT_EQ(h.ValueAtPercentile(std::nan("")), 1);
}

TEST(HistogramTest, NegativeValuesCountAsZero) {
  Histogram h;
  h.Record(-42);
  h.Record(10);
  EXPECT_EQ(h.count(), 2u);
  EXPECT_EQ(h.bucket_count(0), 1u);
  EXPECT_EQ(h.min(), 0);
  EXPECT_EQ(h.sum(), 10);
  EXPECT_EQ(h.ValueAtPercentile(50), 0);
}

TEST(HistogramTest, SaturationBeyondTheRange) {
  Histogram h;
  h.Record(kMilli);
  h.Record(Histogram::kLimit - 1);  // last bucket, but in range
  h.Record(Histogram::kLimit);
  h.Record(Histogram::kLimit * 4);
  EXPECT_EQ(h.saturated(), 2u);
  EXPECT_EQ(h.count(), 4u);
  EXPECT_EQ(h.bucket_count(kLast), 3u);
  EXPECT_EQ(h.max(), Histogram::kLimit * 4) << "max keeps the real value";
  EXPECT_EQ(h.sum(), kMilli + Histogram::kLimit - 1 + Histogram::kLimit * 5) << "sum is exact";
  // The top percentile cannot be resolved beyond the last bucket, but stays within [min, max].
  EXPECT_GE(h.ValueAtPercentile(100), Histogram::BucketLow(kLast));
  EXPECT_LE(h.ValueAtPercentile(100), h.max());
}

TEST(HistogramTest, RecordNEqualsRepeatedRecord) {
  Histogram a, b;
  a.RecordN(123 * kMicro, 5);
  a.RecordN(7 * kSecond, 0);  // no-op: must not move max
  for (int i = 0; i < 5; ++i) b.Record(123 * kMicro);
  ExpectSameHistogram(a, b);
  EXPECT_EQ(a.max(), 123 * kMicro);
}

TEST(HistogramTest, MergeEqualsRecordingEverythingIntoOne) {
  std::vector<int64_t> values = LogUniform(100'000, 1, kHour, 3);
  values.push_back(Histogram::kLimit * 2);  // a saturated value travels too
  Histogram all, parts[3];
  for (size_t i = 0; i < values.size(); ++i) {
    all.Record(values[i]);
    parts[i % 3].Record(values[i]);
  }
  Histogram merged;
  merged.Merge(Histogram());  // empty into empty stays empty
  ExpectSameHistogram(merged, Histogram());
  for (const Histogram& part : parts) merged.Merge(part);
  ExpectSameHistogram(merged, all);
  merged.Merge(Histogram());  // empty into non-empty changes nothing
  ExpectSameHistogram(merged, all);
}

TEST(HistogramTest, SubtractEarlierSnapshotGivesTheInterval) {
  std::vector<int64_t> before = LogUniform(50'000, kMicro, kHour, 5);
  std::vector<int64_t> during = LogUniform(30'000, 10 * kMicro, 10 * kSecond, 6);
  Histogram cumulative, interval;
  for (int64_t v : before) cumulative.Record(v);
  const Histogram earlier = cumulative;
  for (int64_t v : during) {
    cumulative.Record(v);
    interval.Record(v);
  }
  cumulative.Subtract(earlier);
  EXPECT_EQ(cumulative.count(), interval.count());
  EXPECT_EQ(cumulative.sum(), interval.sum());
  EXPECT_EQ(cumulative.saturated(), 0u);
  for (size_t b = 0; b < Histogram::kNumBuckets; ++b) {
    ASSERT_EQ(cumulative.bucket_count(b), interval.bucket_count(b)) << b;
  }
  // The interval's exact min/max are gone; what remains lies in the same bucket and bounds the
  // values from outside.
  EXPECT_LE(cumulative.min(), interval.min());
  EXPECT_EQ(Histogram::BucketOf(cumulative.min()), Histogram::BucketOf(interval.min()));
  EXPECT_GE(cumulative.max(), interval.max());
  EXPECT_EQ(Histogram::BucketOf(cumulative.max()), Histogram::BucketOf(interval.max()));
  // Percentiles keep the error bound against the interval's own order statistics.
  std::sort(during.begin(), during.end());
  for (uint64_t ppm : {0u, 500'000u, 900'000u, 990'000u, 999'000u, 1'000'000u}) {
    const int64_t exact = during[NearestRank(ppm, during.size()) - 1];
    EXPECT_LE(RelativeError(cumulative.ValueAtPercentile(ppm / 10'000.0), exact), kMaxRelativeError)
        << "p" << ppm / 10'000.0;
  }
}

TEST(HistogramTest, SubtractKeepsExactMinMaxWhenTheyAreNewExtremes) {
  Histogram cumulative;
  cumulative.Record(kMilli);
  cumulative.Record(2 * kMilli);
  const Histogram earlier = cumulative;
  cumulative.Record(123'457);          // new overall minimum
  cumulative.Record(5 * kSecond + 3);  // new overall maximum
  cumulative.Subtract(earlier);
  EXPECT_EQ(cumulative.count(), 2u);
  EXPECT_EQ(cumulative.min(), 123'457);
  EXPECT_EQ(cumulative.max(), 5 * kSecond + 3);
  EXPECT_LE(RelativeError(cumulative.ValueAtPercentile(0), 123'457), kMaxRelativeError);
  EXPECT_LE(RelativeError(cumulative.ValueAtPercentile(100), 5 * kSecond + 3), kMaxRelativeError);
}

TEST(HistogramTest, SubtractDerivesMinMaxFromBucketsOtherwise) {
  Histogram cumulative;
  cumulative.Record(kMicro);
  cumulative.Record(kHour);
  const Histogram earlier = cumulative;
  const int64_t v = 5 * kMilli + 777;
  cumulative.Record(v);
  cumulative.Subtract(earlier);
  const size_t b = Histogram::BucketOf(v);
  EXPECT_EQ(cumulative.count(), 1u);
  EXPECT_EQ(cumulative.min(), Histogram::BucketLow(b));
  EXPECT_EQ(cumulative.max(), Histogram::BucketHigh(b) - 1);
  EXPECT_LE(RelativeError(cumulative.ValueAtPercentile(50), v), kMaxRelativeError);
}

TEST(HistogramTest, SubtractOfEverythingIsEmpty) {
  Histogram cumulative;
  for (int64_t v : LogUniform(1'000, 1, kHour, 9)) cumulative.Record(v);
  const Histogram earlier = cumulative;
  cumulative.Subtract(earlier);
  ExpectSameHistogram(cumulative, Histogram());
  EXPECT_EQ(cumulative.mean(), 0.0);
}

TEST(HistogramTest, SubtractOfEmptyChangesNothing) {
  Histogram cumulative;
  for (int64_t v : LogUniform(1'000, 1, kHour, 10)) cumulative.Record(v);
  const Histogram original = cumulative;
  cumulative.Subtract(Histogram());
  ExpectSameHistogram(cumulative, original);
}

TEST(HistogramTest, SubtractHandlesSaturation) {
  Histogram cumulative;
  cumulative.Record(Histogram::kLimit * 8);
  const Histogram earlier = cumulative;
  cumulative.Record(Histogram::kLimit - 5);  // last bucket, not saturated
  cumulative.Subtract(earlier);
  EXPECT_EQ(cumulative.saturated(), 0u);
  EXPECT_EQ(cumulative.max(), Histogram::kLimit - 1) << "no saturated value left: capped";

  const Histogram earlier2 = cumulative = earlier;
  cumulative.Record(Histogram::kLimit * 2);
  cumulative.Subtract(earlier2);
  EXPECT_EQ(cumulative.saturated(), 1u);
  EXPECT_EQ(cumulative.max(), Histogram::kLimit * 8) << "the cumulative max still bounds it";
}

TEST(HistogramTest, SetRawRoundTrips) {
  Histogram h;
  for (int64_t v : LogUniform(10'000, 1, kHour, 12)) h.Record(v);
  std::vector<uint64_t> raw(Histogram::kNumBuckets);
  for (size_t b = 0; b < raw.size(); ++b) raw[b] = h.bucket_count(b);
  Histogram copy;
  copy.Record(1);  // overwritten entirely
  copy.SetRaw(raw, h.sum(), h.min(), h.max());
  ExpectSameHistogram(copy, h);

  // Trailing empty buckets may be left out.
  const size_t used = Histogram::BucketOf(h.max()) + 1;
  raw.resize(used);
  Histogram shorter;
  shorter.SetRaw(raw, h.sum(), h.min(), h.max());
  ExpectSameHistogram(shorter, h);
}

TEST(HistogramTest, SetRawKeepsMinMaxConsistentWithBuckets) {
  std::vector<uint64_t> raw(Histogram::kNumBuckets, 0);
  const size_t lo = Histogram::BucketOf(kMilli), hi = Histogram::BucketOf(kSecond);
  raw[lo] = 3;
  raw[hi] = 1;
  Histogram h;
  h.SetRaw(raw, 0, /*min=*/kHour, /*max=*/0);  // hints outside the buckets
  EXPECT_EQ(h.count(), 4u);
  EXPECT_EQ(h.min(), Histogram::BucketHigh(lo) - 1);
  EXPECT_EQ(h.max(), Histogram::BucketLow(hi));
  h.SetRaw(std::vector<uint64_t>(Histogram::kNumBuckets, 0), 0, 5, 5);
  ExpectSameHistogram(h, Histogram());
}

// The stored range: only the buckets from the lowest to the highest non-empty one (and some room
// to grow) are stored; every operation must behave as if all kNumBuckets were there.

TEST(HistogramRangeTest, RangeHoldsEveryNonEmptyBucketAndOutsideIsZero) {
  Histogram h;
  EXPECT_EQ(h.first_bucket(), h.end_bucket());  // nothing stored
  EXPECT_EQ(h.bucket_count(kLast), 0u);
  h.Record(5 * kMilli);
  h.Record(3 * kMicro);   // grows at the front
  h.Record(2 * kSecond);  // grows at the back
  for (int64_t v : {5 * kMilli, 3 * kMicro, 2 * kSecond}) {
    const size_t b = Histogram::BucketOf(v);
    EXPECT_LE(h.first_bucket(), b);
    EXPECT_LT(b, h.end_bucket());
    EXPECT_EQ(h.bucket_count(b), 1u);
  }
  EXPECT_EQ(h.bucket_count(0), 0u);
  EXPECT_EQ(h.bucket_count(kLast), 0u);
  EXPECT_EQ(h.ValueAtPercentile(0), 3 * kMicro);
  EXPECT_EQ(h.ValueAtPercentile(100), 2 * kSecond);
}

TEST(HistogramRangeTest, FallingAndRisingValuesEqualTheSameValuesShuffled) {
  std::vector<int64_t> values = LogUniform(20'000, 1, kHour, 11);
  std::sort(values.begin(), values.end(), std::greater<>());  // every value a new front
  Histogram falling, rising, shuffled;
  for (int64_t v : values) falling.Record(v);
  for (auto it = values.rbegin(); it != values.rend(); ++it) rising.Record(*it);
  std::shuffle(values.begin(), values.end(), std::mt19937_64(12));
  for (int64_t v : values) shuffled.Record(v);
  ExpectSameHistogram(falling, shuffled);
  ExpectSameHistogram(rising, shuffled);
}

TEST(HistogramRangeTest, MergeOfDisjointRangesInEitherOrderEqualsOneHistogram) {
  const std::vector<int64_t> low = LogUniform(5'000, kMicro, 10 * kMicro, 13);
  const std::vector<int64_t> high = LogUniform(5'000, kSecond, kHour, 14);
  Histogram a, b, all;
  for (int64_t v : low) {
    a.Record(v);
    all.Record(v);
  }
  for (int64_t v : high) {
    b.Record(v);
    all.Record(v);
  }
  b.Record(Histogram::kLimit + 1);  // the last bucket, saturated
  all.Record(Histogram::kLimit + 1);
  Histogram low_first = a, high_first = b;
  low_first.Merge(b);
  high_first.Merge(a);
  ExpectSameHistogram(low_first, all);
  ExpectSameHistogram(high_first, all);
}

TEST(HistogramRangeTest, IntervalKeepsOnlyItsOwnBucketsAndSubtractsAcrossRanges) {
  Histogram cumulative;
  for (int64_t v : LogUniform(10'000, kMicro, kHour, 15)) cumulative.Record(v);
  const Histogram earlier = cumulative;
  Histogram interval;
  for (int64_t v : LogUniform(1'000, kMilli, 2 * kMilli, 16)) {
    cumulative.Record(v);
    interval.Record(v);
  }
  Histogram difference = cumulative;
  difference.Subtract(earlier);
  // Only the interval's buckets stay stored: what follows (copies, merges) costs that range.
  EXPECT_EQ(difference.first_bucket(), Histogram::BucketOf(interval.min()));
  EXPECT_EQ(difference.end_bucket(), Histogram::BucketOf(interval.max()) + 1);
  EXPECT_EQ(difference.count(), interval.count());
  for (size_t b = 0; b < Histogram::kNumBuckets; ++b) {
    ASSERT_EQ(difference.bucket_count(b), interval.bucket_count(b)) << b;
  }
  // A narrow interval back onto the earlier snapshot gives the cumulative histogram again,
  // and subtracting the wide earlier one from a narrow histogram leaves nothing negative.
  Histogram again = earlier;
  again.Merge(difference);
  EXPECT_EQ(again.count(), cumulative.count());
  for (size_t b = 0; b < Histogram::kNumBuckets; ++b) {
    ASSERT_EQ(again.bucket_count(b), cumulative.bucket_count(b)) << b;
  }
  Histogram narrow = interval;
  narrow.Subtract(earlier);
  EXPECT_LE(narrow.count(), interval.count());
}

TEST(HistogramRangeTest, SetRawAtAnOffsetAndClearThenReuse) {
  Histogram h;
  const size_t first = Histogram::BucketOf(kMilli);
  h.SetRaw({0, 2, 0, 3, 0}, 5 * kMilli, kMilli, 2 * kMilli, first);
  EXPECT_EQ(h.count(), 5u);
  EXPECT_EQ(h.bucket_count(first + 1), 2u);
  EXPECT_EQ(h.bucket_count(first + 3), 3u);
  EXPECT_EQ(h.bucket_count(first), 0u);
  EXPECT_EQ(h.first_bucket(), first + 1);  // narrowed to the non-empty buckets
  EXPECT_EQ(h.end_bucket(), first + 4);
  h.Clear();
  ExpectSameHistogram(h, Histogram());
  h.Record(7);
  Histogram fresh;
  fresh.Record(7);
  ExpectSameHistogram(h, fresh);
}

}  // namespace
}  // namespace sb::metrics
