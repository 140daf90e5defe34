// Per-worker measurement: one cumulative histogram per operation type plus a set of counters.
//
// One writer (the worker thread) and any number of concurrent readers (the runner, once per
// interval). The writer never takes a lock: each bucket and counter is a std::atomic updated with
// relaxed load+store (a plain store on x86, since there is only one writer). Readers copy with
// Snapshot(); an interval is the difference of two snapshots (Histogram::Subtract), so nothing is
// ever reset under the writer's feet. Updates bracketed by BeginBatch/EndBatch (one unit of work)
// are seen by a snapshot all together or not at all: always, however fast the writer is.
#ifndef STOREBENCH_METRICS_RECORDER_H_
#define STOREBENCH_METRICS_RECORDER_H_

#include <atomic>
#include <cassert>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "metrics/histogram.h"

namespace sb::metrics {

// Plain copy of a Recorder (or a merge of several), safe to pass between threads.
struct RecorderSnapshot {
  std::vector<Histogram> types;   // indexed by operation type
  std::vector<int64_t> counters;  // indexed by counter id

  // Element-wise sum; REQUIRES: same shape (or this one empty, then it takes other's shape).
  void Merge(const RecorderSnapshot& other);
  // this − earlier, element-wise; REQUIRES: same shape (or earlier empty: this is unchanged).
  void Subtract(const RecorderSnapshot& earlier);
};

class Recorder {
 public:
  Recorder(int num_types, int num_counters);

  // Writer thread only. Inline: a worker calls them for every unit (docs/driver-cost.md).
  void Record(int type, int64_t nanos) {
    assert(type >= 0 && type < num_types_);
    TypeData& t = types_[type];
    if (nanos < 0) nanos = 0;  // as Histogram::Record does
    const size_t b = Histogram::BucketOf(nanos);
    WriterAdd<uint64_t>(t.buckets[b], 1);
    if (b < t.lo_bucket.load(kRelaxed)) t.lo_bucket.store(b, kRelaxed);
    if (b > t.hi_bucket.load(kRelaxed)) t.hi_bucket.store(b, kRelaxed);
    WriterAdd<int64_t>(t.sum, nanos);
    // Only stored when they change, so the common case is two loads and no store.
    if (nanos < t.min.load(kRelaxed)) t.min.store(nanos, kRelaxed);
    if (nanos > t.max.load(kRelaxed)) t.max.store(nanos, kRelaxed);
    if (nanos >= Histogram::kLimit) WriterAdd<uint64_t>(t.saturated, 1);
  }
  void Add(int counter, int64_t delta = 1) {
    assert(counter >= 0 && counter < num_counters_);
    WriterAdd<int64_t>(counters_[counter], delta);
  }
  // Writer thread only: brackets updates that belong together (one unit of work and its
  // steps and counters), so a Snapshot sees all of them or none. A sequence lock: a reader
  // that overlaps a batch copies again. The writer only waits when a reader has failed to fit
  // a copy between batches several times in a row (microsecond units, e.g. SQLite point
  // selects or the null back end) and asked it to hold: then for one copy, microseconds, at
  // most a few times per second.
  void BeginBatch() {
    if (holds_.load(std::memory_order_relaxed) != 0) WaitWhileHeld();
    seq_.store(seq_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
  }
  void EndBatch() {
    seq_.store(seq_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
  }

  // Any thread. Copies the current cumulative state into *out (reusing its memory); the copy
  // always holds whole batches.
  void Snapshot(RecorderSnapshot* out) const;
  // Optimistic copies a reader tries before it asks the writer to hold.
  static constexpr int kOptimisticTries = 8;

  // Snapshots of many recorders at once (a run's workers). The recorders whose writer is
  // inside a batch are all asked to hold together and waited for together: with many more busy
  // workers than cores, a writer preempted inside a batch finishes it only when it runs again,
  // and waiting for such writers one after another took seconds per sample (256 workers).
  static void SnapshotMany(const std::vector<const Recorder*>& recorders,
                           std::vector<RecorderSnapshot>* out);

  int num_types() const { return num_types_; }
  int num_counters() const { return num_counters_; }

 private:
  static constexpr auto kRelaxed = std::memory_order_relaxed;
  // The one writer owns every value, so a relaxed load+store is a correct increment and avoids
  // the locked read-modify-write that fetch_add costs on x86. Readers see each value move
  // forward only.
  template <typename T>
  static void WriterAdd(std::atomic<T>& a, T delta) {
    // Through unsigned arithmetic so that an (unrealistic) overflow wraps instead of being UB.
    using U = std::make_unsigned_t<T>;
    a.store(static_cast<T>(static_cast<U>(a.load(kRelaxed)) + static_cast<U>(delta)), kRelaxed);
  }

  struct Hints {
    int64_t min = 0, max = 0;
  };
  // Copies the written bucket ranges, sums and counters; min/max go to `hints`.
  void CopyInto(RecorderSnapshot* out, std::vector<Hints>* hints) const;
  // One copy attempt; true when no batch overlapped it.
  bool TryCopy(RecorderSnapshot* out, std::vector<Hints>* hints) const;
  // Snapshot's steps: prepare `out`, the optimistic tries, and the final fix-up.
  void BeginCopy(RecorderSnapshot* out, std::vector<Hints>* hints) const;
  bool TryOptimistic(RecorderSnapshot* out, std::vector<Hints>* hints) const;
  void EndCopy(RecorderSnapshot* out, const std::vector<Hints>& hints) const;
  void WaitWhileHeld() const;

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
  // Readers that asked the writer not to start a batch until their copy is done.
  mutable std::atomic<int> holds_{0};
};

}  // namespace sb::metrics

#endif  // STOREBENCH_METRICS_RECORDER_H_
