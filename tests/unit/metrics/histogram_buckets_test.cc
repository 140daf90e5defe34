#include "metrics/histogram_buckets.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "unit/metrics/histogram_testing.h"

namespace sb::metrics {
namespace {

using testing::ExpectSameHistogram;

Histogram Random(uint64_t seed, size_t n) {
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> ms(1.0, 1.5);
  Histogram h;
  for (size_t i = 0; i < n; ++i) h.Record(static_cast<int64_t>(ms(rng) * 1e6));
  return h;
}

TEST(HistogramBucketsTest, RoundTripIsExact) {
  const Histogram h = Random(7, 20000);
  const HistogramData d = ToBuckets(h);
  EXPECT_EQ(d.count(), h.count());
  EXPECT_LT(d.buckets.size(), 2000u);  // only the non-empty buckets
  for (size_t i = 1; i < d.buckets.size(); ++i) {
    EXPECT_LT(d.buckets[i - 1].low_ns, d.buckets[i].low_ns);
  }
  auto back = FromBuckets(d);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ExpectSameHistogram(*back, h);
}

TEST(HistogramBucketsTest, MergingRoundTrippedHistogramsEqualsMergingInMemory) {
  // What MPI ranks or instances do: each sends its buckets, the receiver merges.
  Histogram a = Random(1, 5000), b = Random(2, 7000);
  b.Record(Histogram::kLimit + 5);  // a saturated value travels too
  Histogram merged = a;
  merged.Merge(b);
  auto ra = FromBuckets(ToBuckets(a));
  auto rb = FromBuckets(ToBuckets(b));
  ASSERT_TRUE(ra.ok() && rb.ok());
  ra->Merge(*rb);
  ExpectSameHistogram(*ra, merged);
  EXPECT_EQ(ra->saturated(), 1u);
}

TEST(HistogramBucketsTest, EmptyHistogram) {
  const HistogramData d = ToBuckets(Histogram());
  EXPECT_TRUE(d.buckets.empty());
  auto back = FromBuckets(d);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->count(), 0u);
}

TEST(HistogramBucketsTest, BadDataIsRefusedWithAReason) {
  Histogram h;
  h.Record(1'000'000);
  h.Record(3'000'000);
  const HistogramData good = ToBuckets(h);
  ASSERT_EQ(good.buckets.size(), 2u);
  struct Case {
    HistogramData d;
    const char* words;
  };
  std::vector<Case> cases;
  HistogramData d = good;
  d.sub_bits = 7;
  cases.push_back({d, "sub_bits 7"});
  d = good;
  d.buckets[0].low_ns += 1;
  cases.push_back({d, "is not the lower bound of a bucket"});
  d = good;
  std::swap(d.buckets[0], d.buckets[1]);
  cases.push_back({d, "bounds must rise"});
  d = good;
  d.buckets[1].count = 0;
  cases.push_back({d, "has count 0"});
  d = good;
  d.max_ns = 9'000'000;
  cases.push_back({d, "outside its lowest and highest buckets"});
  d = good;
  d.buckets[0].low_ns = -256;
  cases.push_back({d, "is not the lower bound"});
  for (const Case& c : cases) {
    auto r = FromBuckets(c.d);
    ASSERT_FALSE(r.ok()) << c.words;
    EXPECT_NE(r.status().message().find(c.words), std::string::npos) << r.status().message();
  }
}

}  // namespace
}  // namespace sb::metrics
