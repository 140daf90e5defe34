// The per-second merge of a scaled-out run: snapshots sent over the wire and merged on rank 0
// equal, bucket by bucket, the histogram of every operation recorded in one place.
#include "dist/wire.h"

#include <gtest/gtest.h>

#include <memory>
#include <random>

#include "metrics/recorder.h"

namespace sb::dist {
namespace {

TEST(WireTest, MergedRanksEqualTheHistogramOfAllOperations) {
  constexpr int kRanks = 3;
  std::mt19937_64 rng(42);
  // A seeded latency pattern over six decades (1 µs .. 1 s), plus a value beyond the range.
  std::lognormal_distribution<double> latency(12.0, 2.5);
  std::vector<std::unique_ptr<metrics::Recorder>> ranks;
  ranks.reserve(kRanks);
  for (int i = 0; i < kRanks; ++i) ranks.push_back(std::make_unique<metrics::Recorder>(2, 3));
  metrics::Histogram all_ops, all_other;
  int64_t counter_sum = 0;
  for (int i = 0; i < 30000; ++i) {
    const int r = static_cast<int>(rng() % kRanks);
    const auto nanos = static_cast<int64_t>(latency(rng));
    const int type = static_cast<int>(rng() % 2);
    ranks[r]->Record(type, nanos);
    ranks[r]->Add(1, 3);
    counter_sum += 3;
    (type == 0 ? all_ops : all_other).Record(nanos);
  }
  ranks[1]->Record(0, metrics::Histogram::kLimit + 5);
  all_ops.Record(metrics::Histogram::kLimit + 5);

  std::vector<metrics::RecorderSnapshot> merged(1);
  for (int r = 0; r < kRanks; ++r) {
    std::vector<metrics::RecorderSnapshot> one(1);
    ranks[r]->Snapshot(&one[0]);
    WireWriter w;
    w.Double(1.5);
    w.Snapshots(one);
    WireReader rd(w.bytes());
    EXPECT_EQ(rd.Double(), 1.5);
    const std::vector<metrics::RecorderSnapshot> got = rd.Snapshots();
    ASSERT_TRUE(rd.ok());
    ASSERT_EQ(got.size(), 1u);
    merged[0].Merge(got[0]);
  }
  const metrics::Histogram& ops = merged[0].types[0];
  EXPECT_EQ(ops.count(), all_ops.count());
  EXPECT_EQ(ops.sum(), all_ops.sum());
  EXPECT_EQ(ops.min(), all_ops.min());
  EXPECT_EQ(ops.saturated(), all_ops.saturated());
  for (size_t b = 0; b < metrics::Histogram::kNumBuckets; ++b) {
    ASSERT_EQ(ops.bucket_count(b), all_ops.bucket_count(b)) << "bucket " << b;
    ASSERT_EQ(merged[0].types[1].bucket_count(b), all_other.bucket_count(b)) << "bucket " << b;
  }
  for (double p : {50.0, 90.0, 99.0, 99.9}) {
    EXPECT_EQ(ops.ValueAtPercentile(p), all_ops.ValueAtPercentile(p)) << p;
  }
  EXPECT_EQ(merged[0].counters[1], counter_sum);
}

TEST(WireTest, ATruncatedMessageIsRefusedNotReadPastItsEnd) {
  metrics::Recorder rec(1, 1);
  rec.Record(0, 1000);
  std::vector<metrics::RecorderSnapshot> one(1);
  rec.Snapshot(&one[0]);
  WireWriter w;
  w.Snapshots(one);
  const std::string cut = w.bytes().substr(0, w.bytes().size() - 5);
  WireReader rd(cut);
  EXPECT_TRUE(rd.Snapshots().empty());
  EXPECT_FALSE(rd.ok());
}

}  // namespace
}  // namespace sb::dist
