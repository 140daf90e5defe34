// A log-linear latency histogram with bounded memory (HdrHistogram's idea, written for storebench).
//
// Values are nanoseconds. Buckets: values below 2^kSubBits are exact; above, each power-of-two
// range [2^k, 2^(k+1)) is split into 2^(kSubBits-1) equal sub-buckets, so a bucket is at most
// 1/2^(kSubBits-1) of its lower bound wide. Reported values are bucket midpoints (clamped to the
// observed min/max), so the relative error of any reported percentile is at most
// 1/2^kSubBits = 0.39 % for any value from 1 ns to 2^kMaxExp ns (> 1 h); the documented bound is
// "at most 1 % from 1 µs to 1 h". Larger values are clamped into the last bucket and counted in
// `saturated()`.
//
// Memory and time follow the occupied range: a histogram stores only the buckets from its lowest
// to its highest non-empty one (plus some room to grow), so copying, merging, subtracting and
// reading percentiles touch that range and not all kNumBuckets (4,736 × 8 bytes). A run's
// controller copies and subtracts every worker's histograms once a second; with the full array
// that was ~1 million instructions per second for one worker (docs/driver-cost.md).
//
// Not thread-safe; see Recorder for the concurrent single-writer form.
#ifndef STOREBENCH_METRICS_HISTOGRAM_H_
#define STOREBENCH_METRICS_HISTOGRAM_H_

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace sb::metrics {

class Histogram {
 public:
  static constexpr int kSubBits = 8;  // 128 sub-buckets per power of two
  static constexpr int kMaxExp = 43;  // 2^43 ns ≈ 2.4 h
  static constexpr size_t kNumBuckets =
      (1u << kSubBits) + static_cast<size_t>(kMaxExp - kSubBits) * (1u << (kSubBits - 1));
  // Values >= kLimit are beyond the range: they go to the last bucket and count as saturated.
  static constexpr int64_t kLimit = int64_t{1} << kMaxExp;

  Histogram() = default;

  // Bucket index of a value (values < 0 count as 0; values beyond the range clamp). Inline: a
  // worker records every unit with it (docs/driver-cost.md).
  static size_t BucketOf(int64_t nanos) {
    constexpr int64_t kExact = int64_t{1} << kSubBits;  // values below have a bucket each
    constexpr size_t kSubCount = size_t{1} << (kSubBits - 1);
    if (nanos < kExact) return nanos < 0 ? 0 : static_cast<size_t>(nanos);
    if (nanos >= kLimit) return kNumBuckets - 1;
    // v in [2^k, 2^(k+1)), k >= kSubBits: the top kSubBits bits of v are 1xxxxxxx; the seven x
    // bits pick the sub-bucket, so each sub-bucket is 2^(k - kSubBits + 1) wide.
    const int k = std::bit_width(static_cast<uint64_t>(nanos)) - 1;
    const int shift = k - (kSubBits - 1);
    const size_t sub = static_cast<size_t>(nanos >> shift) - kSubCount;
    return static_cast<size_t>(kExact) + static_cast<size_t>(k - kSubBits) * kSubCount + sub;
  }
  // Smallest and one-past-largest value that map to `bucket`.
  static int64_t BucketLow(size_t bucket);
  static int64_t BucketHigh(size_t bucket);
  // The value reported for `bucket` before clamping to [min, max]: its midpoint (rounded down).
  static int64_t BucketMid(size_t bucket);

  void Record(int64_t nanos) { RecordN(nanos, 1); }
  void RecordN(int64_t nanos, uint64_t n);
  // Adds all of `other` (same bucket layout by construction).
  void Merge(const Histogram& other);
  // Removes `earlier` from this, where `earlier` is an older snapshot of the same cumulative
  // histogram (interval = now − then). min/max become those of the remaining buckets' ranges.
  void Subtract(const Histogram& earlier);
  void Clear();

  uint64_t count() const { return count_; }
  // Exact sum of recorded values (for means that match DVD Store's sums).
  int64_t sum() const { return sum_; }
  int64_t min() const;  // 0 when empty
  int64_t max() const;  // 0 when empty
  double mean() const;  // sum / count, 0 when empty
  uint64_t saturated() const { return saturated_; }
  // The value at percentile p in [0, 100] (nearest-rank: the smallest recorded value v such that
  // at least p % of values are <= v), reported as the bucket midpoint clamped to [min, max].
  // 0 when empty.
  int64_t ValueAtPercentile(double p) const;

  // Raw bucket access for serialization and tests (0 outside the stored range).
  uint64_t bucket_count(size_t bucket) const {
    return bucket >= first_ && bucket - first_ < buckets_.size() ? buckets_[bucket - first_] : 0;
  }
  // The stored range [first_bucket(), end_bucket()): every non-empty bucket lies inside it (it
  // may also hold empty ones). Empty when count() is 0 and nothing was ever stored.
  size_t first_bucket() const { return first_; }
  size_t end_bucket() const { return first_ + buckets_.size(); }
  // Sets buckets [first, first + buckets.size()) to `buckets` and every other one to 0.
  // count() becomes the sum of `buckets`; min/max are moved into the lowest/highest non-empty
  // bucket's range if they lie outside it; saturated() becomes 0 (see set_saturated).
  // REQUIRES: first + buckets.size() <= kNumBuckets.
  void SetRaw(const std::vector<uint64_t>& buckets, int64_t sum, int64_t min, int64_t max,
              size_t first = 0);
  void set_saturated(uint64_t n) { saturated_ = n; }

 private:
  friend class Recorder;  // Snapshot() fills buckets_ in place to avoid a temporary copy.

  // After buckets_ are set: recomputes count_, narrows the stored range to the non-empty
  // buckets and sets min_/max_ from the hints, kept inside the lowest/highest non-empty bucket.
  // `cap_last` also caps max_ at kLimit - 1 when the last bucket is the highest one (only valid
  // when no saturated value remains).
  void FinishRaw(int64_t min_hint, int64_t max_hint, bool cap_last);
  // Widens the stored range to hold buckets [lo, hi) (new buckets are 0); never narrows it.
  void Cover(size_t lo, size_t hi);

  size_t first_ = 0;               // the bucket stored at buckets_[0]
  std::vector<uint64_t> buckets_;  // buckets [first_, first_ + size()); the rest are 0
  uint64_t count_ = 0;
  int64_t sum_ = 0;
  int64_t min_ = INT64_MAX;
  int64_t max_ = 0;
  uint64_t saturated_ = 0;
};

}  // namespace sb::metrics

#endif  // STOREBENCH_METRICS_HISTOGRAM_H_
