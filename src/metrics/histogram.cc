#include "metrics/histogram.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cfloat>
#include <cmath>

namespace sb::metrics {

namespace {

// Values below kExact (2^kSubBits) have a bucket each; above, each power of two has kSubCount
// sub-buckets.
constexpr int64_t kExact = int64_t{1} << Histogram::kSubBits;
constexpr int kSubCount = 1 << (Histogram::kSubBits - 1);

// Sums wrap instead of overflowing (signed overflow is undefined behaviour); a wrapped sum needs
// ~292 years of recorded nanoseconds, so it never happens in a real run.
int64_t WrapAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
int64_t WrapSub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}

}  // namespace

int64_t Histogram::BucketLow(size_t bucket) {
  assert(bucket < kNumBuckets);
  if (bucket < static_cast<size_t>(kExact)) return static_cast<int64_t>(bucket);
  const size_t i = bucket - kExact;
  const int shift = static_cast<int>(i / kSubCount) + 1;  // k - (kSubBits - 1)
  return static_cast<int64_t>(kSubCount + i % kSubCount) << shift;
}

int64_t Histogram::BucketHigh(size_t bucket) {
  assert(bucket < kNumBuckets);
  if (bucket < static_cast<size_t>(kExact)) return static_cast<int64_t>(bucket) + 1;
  const size_t i = bucket - kExact;
  const int shift = static_cast<int>(i / kSubCount) + 1;
  return static_cast<int64_t>(kSubCount + i % kSubCount + 1) << shift;
}

int64_t Histogram::BucketMid(size_t bucket) {
  const int64_t low = BucketLow(bucket);
  // Width 1 (exact buckets) gives `low` itself; otherwise the error of the midpoint is at most
  // half a width, i.e. 1/2^kSubBits of the bucket's lower bound.
  return low + (BucketHigh(bucket) - low) / 2;
}

void Histogram::Cover(size_t lo, size_t hi) {
  assert(lo < hi && hi <= kNumBuckets);
  if (buckets_.empty()) {
    first_ = lo;
    buckets_.assign(hi - lo, 0);
    return;
  }
  const size_t end = end_bucket();
  if (lo >= first_ && hi <= end) return;
  if (lo >= first_) {
    buckets_.resize(hi - first_, 0);  // at the back: the vector's own amortized growth
    return;
  }
  std::vector<uint64_t> grown(std::max(hi, end) - lo, 0);
  std::copy(buckets_.begin(), buckets_.end(), grown.begin() + static_cast<ptrdiff_t>(first_ - lo));
  buckets_.swap(grown);
  first_ = lo;
}

void Histogram::RecordN(int64_t nanos, uint64_t n) {
  if (n == 0) return;  // must not move min/max
  if (nanos < 0) nanos = 0;
  const size_t b = BucketOf(nanos);
  if (b < first_ || b >= end_bucket()) {
    // Values arriving in falling order would move the whole range once per bucket; growing the
    // front by at least the range's size keeps that amortized, as the vector does at the back.
    const size_t lo = b < first_ ? b - std::min(b, buckets_.size()) : b;
    Cover(lo, b + 1);
  }
  buckets_[b - first_] += n;
  count_ += n;
  sum_ = WrapAdd(sum_, static_cast<int64_t>(static_cast<uint64_t>(nanos) * n));
  min_ = std::min(min_, nanos);
  max_ = std::max(max_, nanos);
  if (nanos >= kLimit) saturated_ += n;
}

void Histogram::Merge(const Histogram& other) {
  if (other.count_ == 0) return;
  Cover(other.first_, other.end_bucket());
  uint64_t* to = buckets_.data() + (other.first_ - first_);
  for (size_t i = 0; i < other.buckets_.size(); ++i) to[i] += other.buckets_[i];
  count_ += other.count_;
  sum_ = WrapAdd(sum_, other.sum_);
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
  saturated_ += other.saturated_;
}

void Histogram::Subtract(const Histogram& earlier) {
  // Buckets of a cumulative histogram never shrink, so `earlier` fits under this; clamping at 0
  // only keeps a misuse from wrapping to huge counts (and buckets of `earlier` outside this
  // one's range have nothing to subtract from).
  const size_t lo = std::max(first_, earlier.first_);
  const size_t hi = std::min(end_bucket(), earlier.end_bucket());
  for (size_t b = lo; b < hi; ++b) {
    uint64_t& mine = buckets_[b - first_];
    mine -= std::min(mine, earlier.buckets_[b - earlier.first_]);
  }
  sum_ = WrapSub(sum_, earlier.sum_);
  saturated_ -= std::min(saturated_, earlier.saturated_);
  // The interval's exact min/max are unknown, but the cumulative min/max still bound every value
  // that remains, so they serve as hints that FinishRaw narrows to the remaining buckets.
  FinishRaw(min_, max_, /*cap_last=*/saturated_ == 0);
}

void Histogram::Clear() {
  buckets_.clear();  // keeps the capacity for the next use
  first_ = 0;
  count_ = 0;
  sum_ = 0;
  min_ = INT64_MAX;
  max_ = 0;
  saturated_ = 0;
}

int64_t Histogram::min() const { return count_ == 0 ? 0 : min_; }

int64_t Histogram::max() const { return count_ == 0 ? 0 : max_; }

double Histogram::mean() const {
  return count_ == 0 ? 0.0 : static_cast<double>(sum_) / static_cast<double>(count_);
}

int64_t Histogram::ValueAtPercentile(double p) const {
  if (count_ == 0) return 0;
  if (!(p > 0)) p = 0;  // also catches NaN
  if (p > 100) p = 100;
  // Nearest rank: the ceil(p/100 * count)-th smallest value (at least the first).
  const double exact_rank = p / 100.0 * static_cast<double>(count_);
  uint64_t rank = static_cast<uint64_t>(std::ceil(exact_rank));
  // p/100 * count carries a few ulps of rounding error; a rank that is a whole number in exact
  // arithmetic (99.9 % of 1000 = 999) must not be pushed up to the next one.
  if (rank > 0 && static_cast<double>(rank - 1) >= exact_rank - 4 * DBL_EPSILON * exact_rank) {
    --rank;
  }
  rank = std::clamp<uint64_t>(rank, 1, count_);
  uint64_t seen = 0;
  for (size_t i = 0; i < buckets_.size(); ++i) {
    seen += buckets_[i];
    if (seen >= rank) return std::clamp(BucketMid(first_ + i), min_, max_);
  }
  return max_;  // unreachable while count_ equals the bucket total
}

void Histogram::SetRaw(const std::vector<uint64_t>& buckets, int64_t sum, int64_t min, int64_t max,
                       size_t first) {
  // A shorter vector (e.g. from a serialized form with trailing zeros dropped) leaves the rest 0.
  const size_t n = first < kNumBuckets ? std::min(buckets.size(), kNumBuckets - first) : 0;
  first_ = first;
  buckets_.assign(buckets.begin(), buckets.begin() + static_cast<ptrdiff_t>(n));
  sum_ = sum;
  saturated_ = 0;
  // Whether the last bucket holds saturated values is unknown here, so max is not capped.
  FinishRaw(min, max, /*cap_last=*/false);
}

void Histogram::FinishRaw(int64_t min_hint, int64_t max_hint, bool cap_last) {
  count_ = 0;
  size_t lo = buckets_.size(), hi = 0;  // indexes into buckets_
  for (size_t i = 0; i < buckets_.size(); ++i) {
    if (buckets_[i] == 0) continue;
    count_ += buckets_[i];
    if (lo == buckets_.size()) lo = i;
    hi = i;
  }
  if (count_ == 0) {
    buckets_.clear();
    first_ = 0;
    min_ = INT64_MAX;
    max_ = 0;
    return;
  }
  // Only the non-empty range stays stored, so what follows (copies, merges, percentiles) costs
  // what the interval holds, not what the cumulative histogram it came from spans.
  buckets_.resize(hi + 1);
  if (lo > 0) buckets_.erase(buckets_.begin(), buckets_.begin() + static_cast<ptrdiff_t>(lo));
  lo += first_;
  hi += first_;
  first_ = lo;
  // Keeping min/max inside the extreme buckets keeps them consistent with the counts, so that
  // clamping percentiles to [min, max] never reports a value outside the recorded buckets.
  min_ = std::clamp(min_hint, BucketLow(lo), BucketHigh(lo) - 1);
  // Saturated values lie beyond the last bucket's nominal end, so it caps max only when told
  // that none remain.
  const int64_t upper = (hi == kNumBuckets - 1 && !cap_last) ? INT64_MAX : BucketHigh(hi) - 1;
  max_ = std::clamp(max_hint, BucketLow(hi), upper);
}

}  // namespace sb::metrics
