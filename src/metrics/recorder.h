// Per-worker measurement: one cumulative histogram per operation type plus a set of counters.
//
// One writer (the worker thread) and any number of concurrent readers (the runner, once per
// interval). The writer never takes a lock: each bucket and counter is a std::atomic updated with
// relaxed load+store (a plain store on x86, since there is only one writer). Readers copy with
// Snapshot(); an interval is the difference of two snapshots (Histogram::Subtract), so nothing is
// ever reset under the writer's feet. Updates bracketed by BeginBatch/EndBatch (one unit of work)
// are seen by a snapshot all together or not at all.
#ifndef STOREBENCH_METRICS_RECORDER_H_
#define STOREBENCH_METRICS_RECORDER_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "metrics/histogram.h"

namespace sb::metrics {

// Plain copy of a Recorder (or a merge of several), safe to pass between threads.
struct RecorderSnapshot {
  std::vector<Histogram> types;   // indexed by operation type
  std::vector<int64_t> counters;  // indexed by counter id

  // Element-wise sum; REQUIRES: same shape (or this one empty, then it takes other's shape).
  void Merge(const RecorderSnapshot& other);
  // this − earlier, element-wise; REQUIRES: same shape.
  void Subtract(const RecorderSnapshot& earlier);
};

class Recorder {
 public:
  Recorder(int num_types, int num_counters);

  // Writer thread only.
  void Record(int type, int64_t nanos);
  void Add(int counter, int64_t delta = 1);
  // Writer thread only: brackets updates that belong together (one unit of work and its
  // steps and counters), so a Snapshot sees all of them or none (a sequence lock: the writer
  // never waits; a reader that overlaps a batch copies again).
  void BeginBatch() {
    seq_.store(seq_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
  }
  void EndBatch() {
    seq_.store(seq_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
  }

  // Any thread. Copies the current cumulative state into *out (reusing its memory). The copy
  // is consistent with respect to batches unless the writer completes batches faster than a
  // copy takes for kMaxSnapshotTries attempts in a row (microsecond-scale units, e.g. the null
  // back end), in which case the last copy is used as it is.
  void Snapshot(RecorderSnapshot* out) const;
  static constexpr int kMaxSnapshotTries = 1000;

 private:
  struct Hints {
    int64_t min = 0, max = 0;
  };
  // Copies the written bucket ranges, sums and counters; min/max go to `hints`.
  void CopyInto(RecorderSnapshot* out, std::vector<Hints>* hints) const;

 public:

  int num_types() const { return num_types_; }
  int num_counters() const { return num_counters_; }

 private:
  struct TypeData {
    std::unique_ptr<std::atomic<uint64_t>[]> buckets;
    std::atomic<int64_t> sum{0};
    std::atomic<int64_t> min{INT64_MAX};
    std::atomic<int64_t> max{0};
    std::atomic<uint64_t> saturated{0};
    // The lowest and highest bucket ever written, so a snapshot copies only that range (a few
    // hundred buckets instead of thousands: fast enough to fit between two batches).
    std::atomic<size_t> lo_bucket{Histogram::kNumBuckets};
    std::atomic<size_t> hi_bucket{0};
  };
  int num_types_;
  int num_counters_;
  std::unique_ptr<TypeData[]> types_;
  std::unique_ptr<std::atomic<int64_t>[]> counters_;
  std::atomic<uint64_t> seq_{0};  // odd while the writer is inside a batch
};

}  // namespace sb::metrics

#endif  // STOREBENCH_METRICS_RECORDER_H_
