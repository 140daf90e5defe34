#include "metrics/recorder.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <thread>
#include <type_traits>

namespace sb::metrics {

void RecorderSnapshot::Merge(const RecorderSnapshot& other) {
  if (types.empty() && counters.empty()) {
    *this = other;  // reuses this one's memory where it can
    return;
  }
  assert(types.size() == other.types.size() && counters.size() == other.counters.size());
  // The min() keeps a shape mismatch in a release build from reading out of bounds.
  for (size_t i = 0; i < std::min(types.size(), other.types.size()); ++i) {
    types[i].Merge(other.types[i]);
  }
  for (size_t i = 0; i < std::min(counters.size(), other.counters.size()); ++i) {
    counters[i] += other.counters[i];
  }
}

void RecorderSnapshot::Subtract(const RecorderSnapshot& earlier) {
  // An empty snapshot is zero of any shape, as Merge takes it: the first interval of a run is
  // the first snapshot minus a default-constructed one.
  if (earlier.types.empty() && earlier.counters.empty()) return;
  assert(types.size() == earlier.types.size() && counters.size() == earlier.counters.size());
  for (size_t i = 0; i < std::min(types.size(), earlier.types.size()); ++i) {
    types[i].Subtract(earlier.types[i]);
  }
  for (size_t i = 0; i < std::min(counters.size(), earlier.counters.size()); ++i) {
    counters[i] -= earlier.counters[i];
  }
}

Recorder::Recorder(int num_types, int num_counters)
    : num_types_(num_types),
      num_counters_(num_counters),
      types_(std::make_unique<TypeData[]>(num_types)),
      counters_(std::make_unique<std::atomic<int64_t>[]>(num_counters)) {
  // make_unique<T[]> value-initializes, and since C++20 that zeroes a std::atomic.
  for (int i = 0; i < num_types; ++i) {
    types_[i].buckets = std::make_unique<std::atomic<uint64_t>[]>(Histogram::kNumBuckets);
  }
}

void Recorder::BeginCopy(RecorderSnapshot* out, std::vector<Hints>* hints) const {
  // resize() keeps existing Histograms (and their bucket arrays) when the shape is unchanged;
  // every copy attempt sets each one's whole stored range (CopyInto).
  out->types.resize(num_types_);
  out->counters.resize(num_counters_);
  hints->assign(num_types_, Hints());
}

bool Recorder::TryOptimistic(RecorderSnapshot* out, std::vector<Hints>* hints) const {
  for (int attempt = 0; attempt < kOptimisticTries; ++attempt) {
    if (TryCopy(out, hints)) return true;
  }
  return false;
}

void Recorder::EndCopy(RecorderSnapshot* out, const std::vector<Hints>& hints) const {
  for (int i = 0; i < num_types_; ++i) {
    // count is taken from the copied buckets (not the writer's count), so the snapshot's count
    // always matches its buckets; min/max read after the buckets may be newer values, which
    // FinishRaw moves back into the copied buckets' range.
    out->types[i].FinishRaw(hints[i].min, hints[i].max, /*cap_last=*/false);
  }
}

namespace {

// Waits a little between copy attempts while held writers finish their batches: a few yields,
// then sleeps (a yield gives nothing to other threads when the reader runs at real-time
// priority, as the run controller does; the writer needs a CPU to finish).
void Pause(int round) {
  if (round < 16) {
    std::this_thread::yield();
  } else {
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

}  // namespace

void Recorder::Snapshot(RecorderSnapshot* out) const {
  std::vector<Hints> hints;
  BeginCopy(out, &hints);
  if (!TryOptimistic(out, &hints)) {
    // The writer finishes batches faster than a copy takes: ask it to hold. A batch it began
    // before seeing the request may still overlap one more copy; after that it waits.
    holds_.fetch_add(1, std::memory_order_seq_cst);
    for (int round = 0; !TryCopy(out, &hints); ++round) Pause(round);
    holds_.fetch_sub(1, std::memory_order_release);
  }
  EndCopy(out, hints);
}

void Recorder::SnapshotMany(const std::vector<const Recorder*>& recorders,
                            std::vector<RecorderSnapshot>* out) {
  out->resize(recorders.size());
  std::vector<std::vector<Hints>> hints(recorders.size());
  std::vector<size_t> pending;
  for (size_t i = 0; i < recorders.size(); ++i) {
    recorders[i]->BeginCopy(&(*out)[i], &hints[i]);
    if (!recorders[i]->TryOptimistic(&(*out)[i], &hints[i])) pending.push_back(i);
  }
  for (size_t i : pending) recorders[i]->holds_.fetch_add(1, std::memory_order_seq_cst);
  for (int round = 0; !pending.empty(); ++round) {
    std::vector<size_t> still;
    for (size_t i : pending) {
      if (recorders[i]->TryCopy(&(*out)[i], &hints[i])) {
        recorders[i]->holds_.fetch_sub(1, std::memory_order_release);
      } else {
        still.push_back(i);
      }
    }
    pending.swap(still);
    if (!pending.empty()) Pause(round);
  }
  for (size_t i = 0; i < recorders.size(); ++i) recorders[i]->EndCopy(&(*out)[i], hints[i]);
}

bool Recorder::TryCopy(RecorderSnapshot* out, std::vector<Hints>* hints) const {
  const uint64_t before = seq_.load(std::memory_order_acquire);
  if (before % 2 == 1) return false;  // the writer is inside a batch
  CopyInto(out, hints);
  std::atomic_thread_fence(std::memory_order_acquire);
  return seq_.load(std::memory_order_relaxed) == before;
}

void Recorder::WaitWhileHeld() const {
  while (holds_.load(std::memory_order_acquire) != 0) std::this_thread::yield();
}

void Recorder::CopyInto(RecorderSnapshot* out, std::vector<Hints>* hints) const {
  for (int i = 0; i < num_types_; ++i) {
    const TypeData& t = types_[i];
    Histogram& h = out->types[i];
    // Only the written range is stored in the copy (the rest of a Histogram is 0 by definition).
    const size_t lo = t.lo_bucket.load(kRelaxed);
    const size_t hi = std::min(t.hi_bucket.load(kRelaxed), Histogram::kNumBuckets - 1);
    if (lo > hi) {
      h.buckets_.clear();
      h.first_ = 0;
    } else {
      h.first_ = lo;
      h.buckets_.resize(hi - lo + 1);
      for (size_t b = lo; b <= hi; ++b) h.buckets_[b - lo] = t.buckets[b].load(kRelaxed);
    }
    h.sum_ = t.sum.load(kRelaxed);
    h.saturated_ = t.saturated.load(kRelaxed);
    (*hints)[i] = {t.min.load(kRelaxed), t.max.load(kRelaxed)};
  }
  for (int i = 0; i < num_counters_; ++i) out->counters[i] = counters_[i].load(kRelaxed);
}

}  // namespace sb::metrics
