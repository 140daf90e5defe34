#include "metrics/recorder.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "metrics/histogram.h"
#include "unit/metrics/histogram_testing.h"

namespace sb::metrics {
namespace {

using testing::ExpectSameHistogram;

// A deterministic stream of (type, nanos) operations, so a test can replay it into plain
// Histograms as the reference.
struct Op {
  int type;
  int64_t nanos;
};

std::vector<Op> MakeOps(size_t n, int num_types, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> type(0, num_types - 1);
  std::lognormal_distribution<double> latency(13.0, 1.5);  // median ≈ 0.44 ms, long tail
  std::vector<Op> ops(n);
  for (Op& op : ops) op = {type(rng), static_cast<int64_t>(latency(rng))};
  return ops;
}

TEST(RecorderTest, SnapshotOfEmptyRecorderHasShapeAndZeros) {
  Recorder r(3, 2);
  EXPECT_EQ(r.num_types(), 3);
  EXPECT_EQ(r.num_counters(), 2);
  RecorderSnapshot s;
  r.Snapshot(&s);
  ASSERT_EQ(s.types.size(), 3u);
  ASSERT_EQ(s.counters.size(), 2u);
  for (const Histogram& h : s.types) ExpectSameHistogram(h, Histogram());
  for (int64_t c : s.counters) EXPECT_EQ(c, 0);
}

TEST(RecorderTest, SnapshotMatchesPlainHistograms) {
  constexpr int kTypes = 3;
  Recorder r(kTypes, 2);
  std::vector<Histogram> expected(kTypes);
  for (const Op& op : MakeOps(50'000, kTypes, 1)) {
    r.Record(op.type, op.nanos);
    expected[op.type].Record(op.nanos);
  }
  r.Record(1, -7);  // negative counts as 0, as in Histogram
  expected[1].Record(-7);
  r.Record(2, Histogram::kLimit * 3);  // saturated
  expected[2].Record(Histogram::kLimit * 3);
  r.Add(0);
  r.Add(0);
  r.Add(1, 40);
  r.Add(1, -15);

  RecorderSnapshot s;
  r.Snapshot(&s);
  ASSERT_EQ(s.types.size(), static_cast<size_t>(kTypes));
  for (int t = 0; t < kTypes; ++t) {
    SCOPED_TRACE(t);
    ExpectSameHistogram(s.types[t], expected[t]);
  }
  EXPECT_EQ(s.types[2].saturated(), 1u);
  EXPECT_EQ(s.counters, (std::vector<int64_t>{2, 25}));
}

TEST(RecorderTest, SnapshotReusesTheTargetAndOverwritesIt) {
  Recorder r(2, 1);
  r.Record(0, 1000);
  RecorderSnapshot s;
  // A target with another shape and stale data is reshaped and fully overwritten.
  s.types.resize(5);
  s.types[0].Record(999'999);
  s.counters = {7, 7, 7};
  r.Snapshot(&s);
  ASSERT_EQ(s.types.size(), 2u);
  ASSERT_EQ(s.counters.size(), 1u);
  Histogram expected;
  expected.Record(1000);
  ExpectSameHistogram(s.types[0], expected);
  ExpectSameHistogram(s.types[1], Histogram());
  EXPECT_EQ(s.counters[0], 0);

  r.Record(0, 2000);
  r.Snapshot(&s);  // same shape: overwritten in place
  expected.Record(2000);
  ExpectSameHistogram(s.types[0], expected);
}

TEST(RecorderTest, IntervalIsDifferenceOfSnapshots) {
  Recorder r(2, 1);
  for (const Op& op : MakeOps(10'000, 2, 2)) r.Record(op.type, op.nanos);
  r.Add(0, 5);
  RecorderSnapshot before;
  r.Snapshot(&before);
  std::vector<Histogram> interval(2);
  for (const Op& op : MakeOps(7'000, 2, 3)) {
    r.Record(op.type, op.nanos);
    interval[op.type].Record(op.nanos);
  }
  r.Add(0, 3);
  RecorderSnapshot after;
  r.Snapshot(&after);
  after.Subtract(before);
  for (int t = 0; t < 2; ++t) {
    EXPECT_EQ(after.types[t].count(), interval[t].count());
    EXPECT_EQ(after.types[t].sum(), interval[t].sum());
    for (size_t b = 0; b < Histogram::kNumBuckets; ++b) {
      ASSERT_EQ(after.types[t].bucket_count(b), interval[t].bucket_count(b));
    }
  }
  EXPECT_EQ(after.counters[0], 3);
}

TEST(RecorderTest, ConcurrentReaderSeesMonotonicStateAndFinalIsExact) {
  constexpr int kTypes = 2;
  constexpr size_t kOps = 1'000'000;
  const std::vector<Op> ops = MakeOps(kOps, kTypes, 4);
  Recorder r(kTypes, 1);
  std::atomic<bool> done{false};

  std::thread writer([&] {
    for (const Op& op : ops) {
      r.Record(op.type, op.nanos);
      r.Add(0);
    }
    done.store(true, std::memory_order_release);
  });

  // The reader checks what must hold in any snapshot taken during writes: every bucket, count
  // and counter only grows, and a snapshot is internally consistent.
  RecorderSnapshot previous, current, interval;
  r.Snapshot(&previous);
  int snapshots = 0;
  bool writer_done = false;
  do {
    writer_done = done.load(std::memory_order_acquire);
    r.Snapshot(&current);
    ++snapshots;
    for (int t = 0; t < kTypes; ++t) {
      const Histogram& now = current.types[t];
      const Histogram& then = previous.types[t];
      ASSERT_GE(now.count(), then.count());
      ASSERT_GE(now.sum(), then.sum());
      for (size_t b = 0; b < Histogram::kNumBuckets; ++b) {
        ASSERT_GE(now.bucket_count(b), then.bucket_count(b)) << "type " << t << " bucket " << b;
      }
      if (now.count() > 0) {
        ASSERT_LE(now.min(), now.max());
        ASSERT_GE(now.ValueAtPercentile(99), now.min());
        ASSERT_LE(now.ValueAtPercentile(99), now.max());
      }
    }
    ASSERT_GE(current.counters[0], previous.counters[0]);
    interval = current;
    interval.Subtract(previous);
    for (int t = 0; t < kTypes; ++t) {
      ASSERT_EQ(interval.types[t].count(), current.types[t].count() - previous.types[t].count());
    }
    std::swap(previous, current);
  } while (!writer_done);  // one more snapshot after the writer finished
  writer.join();

  // The last snapshot began after the writer's final store was visible: it is exact.
  std::vector<Histogram> expected(kTypes);
  for (const Op& op : ops) expected[op.type].Record(op.nanos);
  for (int t = 0; t < kTypes; ++t) {
    SCOPED_TRACE(t);
    ExpectSameHistogram(previous.types[t], expected[t]);
  }
  EXPECT_EQ(previous.counters[0], static_cast<int64_t>(kOps));
  EXPECT_GE(snapshots, 1);
  RecordProperty("snapshots", snapshots);
}

TEST(RecorderSnapshotTest, MergeIntoEmptyTakesTheOtherShape) {
  Recorder r(2, 3);
  for (const Op& op : MakeOps(1'000, 2, 5)) r.Record(op.type, op.nanos);
  r.Add(2, 9);
  RecorderSnapshot a, total;
  r.Snapshot(&a);
  total.Merge(a);
  ASSERT_EQ(total.types.size(), 2u);
  ASSERT_EQ(total.counters.size(), 3u);
  for (int t = 0; t < 2; ++t) ExpectSameHistogram(total.types[t], a.types[t]);
  EXPECT_EQ(total.counters, a.counters);
}

// The first interval of a run subtracts a default-constructed snapshot: zero, whatever the
// shape (a build with asserts aborted here when Subtract required the same shape).
TEST(RecorderSnapshotTest, SubtractingAnEmptySnapshotLeavesItUnchanged) {
  Recorder r(2, 3);
  for (const Op& op : MakeOps(1'000, 2, 8)) r.Record(op.type, op.nanos);
  r.Add(1, 4);
  RecorderSnapshot a, copy, empty;
  r.Snapshot(&a);
  r.Snapshot(&copy);
  a.Subtract(empty);
  ASSERT_EQ(a.types.size(), 2u);
  for (int t = 0; t < 2; ++t) ExpectSameHistogram(a.types[t], copy.types[t]);
  EXPECT_EQ(a.counters, copy.counters);
}

TEST(RecorderSnapshotTest, MergeAndSubtractAreElementWise) {
  // Two workers' recorders merged equal one recorder that saw both streams.
  const std::vector<Op> ops_a = MakeOps(20'000, 3, 6), ops_b = MakeOps(15'000, 3, 7);
  Recorder ra(3, 2), rb(3, 2), both(3, 2);
  for (const Op& op : ops_a) {
    ra.Record(op.type, op.nanos);
    both.Record(op.type, op.nanos);
  }
  for (const Op& op : ops_b) {
    rb.Record(op.type, op.nanos);
    both.Record(op.type, op.nanos);
  }
  ra.Add(0, 4);
  rb.Add(0, 6);
  rb.Add(1, 1);
  both.Add(0, 10);
  both.Add(1, 1);
  RecorderSnapshot a, b, expected;
  ra.Snapshot(&a);
  rb.Snapshot(&b);
  both.Snapshot(&expected);

  RecorderSnapshot merged;
  merged.Merge(a);
  merged.Merge(b);
  for (int t = 0; t < 3; ++t) {
    SCOPED_TRACE(t);
    ExpectSameHistogram(merged.types[t], expected.types[t]);
  }
  EXPECT_EQ(merged.counters, expected.counters);

  // (a + b) − a has b's counts, sums and counters.
  merged.Subtract(a);
  for (int t = 0; t < 3; ++t) {
    EXPECT_EQ(merged.types[t].count(), b.types[t].count());
    EXPECT_EQ(merged.types[t].sum(), b.types[t].sum());
    for (size_t bucket = 0; bucket < Histogram::kNumBuckets; ++bucket) {
      ASSERT_EQ(merged.types[t].bucket_count(bucket), b.types[t].bucket_count(bucket));
    }
  }
  EXPECT_EQ(merged.counters, b.counters);
}

// What the run controller does once a second, many times over while writers record: every
// interval (this snapshot − the previous one) is added to a running total, which must equal,
// bucket for bucket, exactly what was recorded: a sample lost or counted twice by a snapshot
// (a bucket range copied short, a retry, a subtraction over the wrong range) shows here. The
// values drift from the middle of the range to both ends while the snapshots run, so the stored
// ranges of the copies grow at the front and at the back.
TEST(RecorderSnapshotTest, IntervalsOfManySnapshotsAddUpToExactlyWhatWasRecorded) {
  constexpr int kWriters = 2, kTypes = 2;
  constexpr int64_t kBatches = 200'000;
  auto value = [](int64_t i, int type) -> int64_t {
    const int64_t phase = i * 4 / kBatches;  // 0..3: middle, lower, higher, everywhere
    const int64_t jitter = (i * 7919 + type * 104729) % 1000;
    switch (phase) {
      case 0:
        return 500'000 + jitter * 100;  // 0.5–0.6 ms
      case 1:
        return 2'000 + jitter;  // 2–3 µs
      case 2:
        return 50'000'000 + jitter * 1'000'000;  // 50 ms–1 s
      default:
        return i % 40'000 == 7 ? Histogram::kLimit + i : (i * 2654435761) % 5'000'000'000;
    }
  };
  std::vector<std::unique_ptr<Recorder>> recorders;
  std::vector<const Recorder*> readers;
  for (int w = 0; w < kWriters; ++w) {
    recorders.push_back(std::make_unique<Recorder>(kTypes, 1));
    readers.push_back(recorders.back().get());
  }
  std::atomic<int> done{0};
  std::atomic<int> rounds{0};  // snapshot rounds the reader has finished
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      Recorder& r = *recorders[w];
      for (int64_t i = 0; i < kBatches; ++i) {
        if (i % (kBatches / 4) == 0) {
          // At each change of range, wait for two more snapshots, so that snapshots of the
          // narrower range are surely taken before it grows.
          const int seen = rounds.load(std::memory_order_acquire);
          while (rounds.load(std::memory_order_acquire) < seen + 2) std::this_thread::yield();
        }
        r.BeginBatch();
        r.Record(0, value(i, 0));
        if (i % 3 == 0) r.Record(1, value(i, 1));
        r.Add(0, 1);
        r.EndBatch();
      }
      done.fetch_add(1, std::memory_order_release);
    });
  }
  std::vector<RecorderSnapshot> previous(kWriters), current;
  RecorderSnapshot total;  // every interval of every writer, merged
  int snapshots = 0;
  bool writers_done = false;
  do {
    writers_done = done.load(std::memory_order_acquire) == kWriters;
    Recorder::SnapshotMany(readers, &current);
    ++snapshots;
    for (int w = 0; w < kWriters; ++w) {
      RecorderSnapshot interval = current[w];
      interval.Subtract(previous[w]);
      // A whole batch or none: each unit has its counter increment.
      ASSERT_EQ(static_cast<int64_t>(interval.types[0].count()), interval.counters[0]);
      total.Merge(interval);
    }
    std::swap(previous, current);
    rounds.fetch_add(1, std::memory_order_release);
  } while (!writers_done);  // one more round after the writers finished
  for (std::thread& t : writers) t.join();

  std::vector<Histogram> expected(kTypes);
  for (int w = 0; w < kWriters; ++w) {
    for (int64_t i = 0; i < kBatches; ++i) {
      expected[0].Record(value(i, 0));
      if (i % 3 == 0) expected[1].Record(value(i, 1));
    }
  }
  for (int t = 0; t < kTypes; ++t) {
    SCOPED_TRACE(t);
    ExpectSameHistogram(total.types[t], expected[t]);
  }
  EXPECT_EQ(total.counters[0], kWriters * kBatches);
  EXPECT_GE(snapshots, 8);  // the writers waited for them
  RecordProperty("snapshots", snapshots);
}

}  // namespace
}  // namespace sb::metrics

namespace sb::metrics {
namespace {

void WaitForBatches(const std::atomic<int64_t>& batches, int64_t n) {
  while (batches.load(std::memory_order_relaxed) < n) std::this_thread::yield();
}

TEST(RecorderBatchTest, SnapshotsSeeWholeBatches) {
  // The writer records one sample and one counter per batch, about a microsecond apart; every
  // snapshot must see as many samples as counter increments.
  Recorder r(1, 1);
  std::atomic<bool> stop{false};
  std::atomic<int64_t> batches{0};
  std::thread writer([&] {
    for (int64_t i = 0; !stop.load(std::memory_order_relaxed); ++i) {
      r.BeginBatch();
      r.Record(0, 1000 + i % 5000);
      r.Add(0, 1);
      r.EndBatch();
      batches.store(i + 1, std::memory_order_relaxed);
      // Slow enough that a snapshot can finish between batches (as with database units).
      volatile int sink = 0;
      for (int spin = 0; spin < 20000; ++spin) sink = sink + 1;
    }
  });
  // A snapshot of an untouched recorder copies nothing: the reader waits until the writer is
  // under way, or its snapshots could all be over before the first batch.
  WaitForBatches(batches, 100);
  RecorderSnapshot s;
  int inconsistent = 0;
  for (int i = 0; i < 2000; ++i) {
    r.Snapshot(&s);
    if (static_cast<int64_t>(s.types[0].count()) != s.counters[0]) ++inconsistent;
  }
  stop = true;
  writer.join();
  EXPECT_EQ(inconsistent, 0);
}

TEST(RecorderBatchTest, SnapshotsSeeWholeBatchesEvenFromAWriterFasterThanACopy) {
  // No pause between batches, and samples spread over thousands of buckets so that one copy
  // takes longer than several batches: optimistic copies fail, and the reader must still get
  // a whole-batch copy (CI once saw reads = transactions + 1 on SQLite point selects).
  Recorder r(3, 2);
  std::atomic<bool> stop{false};
  std::atomic<int64_t> batches{0};
  std::thread writer([&] {
    for (int64_t i = 0; !stop.load(std::memory_order_relaxed); ++i) {
      r.BeginBatch();
      r.Add(0, 1);
      r.Record(1, (i * 7919) % 100'000'000);
      r.Record(2, (i * 104729) % 1'000'000'000);
      r.Add(1, 2);
      r.Record(0, 1 + (i * 31) % 50'000'000);
      r.EndBatch();
      batches.store(i + 1, std::memory_order_relaxed);
    }
  });
  // Wide enough ranges first (snapshots copy only the written buckets), then the snapshots.
  WaitForBatches(batches, 20'000);
  RecorderSnapshot s;
  int inconsistent = 0;
  for (int i = 0; i < 3000; ++i) {
    r.Snapshot(&s);
    const auto n = static_cast<int64_t>(s.types[0].count());
    if (n != s.counters[0] || 2 * n != s.counters[1] ||
        n != static_cast<int64_t>(s.types[1].count()) ||
        n != static_cast<int64_t>(s.types[2].count())) {
      ++inconsistent;
    }
  }
  // The writer is not held for good: it goes on after the last snapshot (a hang fails here).
  WaitForBatches(batches, batches.load() + 1);
  stop = true;
  writer.join();
  EXPECT_EQ(inconsistent, 0);
}

}  // namespace
}  // namespace sb::metrics
