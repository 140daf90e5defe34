#include "metrics/histogram_buckets.h"

#include <string>

namespace sb::metrics {

uint64_t HistogramData::count() const {
  uint64_t n = 0;
  for (const HistogramBucket& b : buckets) n += b.count;
  return n;
}

HistogramData ToBuckets(const Histogram& h) {
  HistogramData d;
  for (size_t b = h.first_bucket(); b < h.end_bucket(); ++b) {
    if (h.bucket_count(b) > 0) d.buckets.push_back({Histogram::BucketLow(b), h.bucket_count(b)});
  }
  d.sum_ns = h.sum();
  d.min_ns = h.min();
  d.max_ns = h.max();
  d.saturated = h.saturated();
  return d;
}

Result<Histogram> FromBuckets(const HistogramData& d) {
  if (d.sub_bits != Histogram::kSubBits) {
    return Status::InvalidArgument("the histogram has sub_bits " + std::to_string(d.sub_bits) +
                                   ", but this storebench reads only sub_bits " +
                                   std::to_string(Histogram::kSubBits));
  }
  std::vector<size_t> index(d.buckets.size());  // each listed bucket's index
  size_t first = 0, last = 0;
  for (size_t i = 0; i < d.buckets.size(); ++i) {
    const HistogramBucket& b = d.buckets[i];
    const size_t bucket = Histogram::BucketOf(b.low_ns);
    if (b.low_ns < 0 || Histogram::BucketLow(bucket) != b.low_ns) {
      return Status::InvalidArgument("histogram bucket " + std::to_string(i) + ": " +
                                     std::to_string(b.low_ns) +
                                     " ns is not the lower bound of a bucket");
    }
    if (i > 0 && b.low_ns <= d.buckets[i - 1].low_ns) {
      return Status::InvalidArgument("histogram bucket " + std::to_string(i) +
                                     ": bounds must rise (" + std::to_string(b.low_ns) +
                                     " ns after " + std::to_string(d.buckets[i - 1].low_ns) +
                                     " ns)");
    }
    if (b.count == 0) {
      return Status::InvalidArgument("histogram bucket " + std::to_string(i) +
                                     " has count 0 (only non-empty buckets are listed)");
    }
    index[i] = bucket;
    if (i == 0) first = bucket;
    last = bucket;
  }
  Histogram h;
  if (d.buckets.empty()) return h;
  const bool last_is_open = last == Histogram::kNumBuckets - 1;  // holds saturated values too
  if (d.min_ns < Histogram::BucketLow(first) || d.min_ns > d.max_ns ||
      (!last_is_open && d.max_ns >= Histogram::BucketHigh(last))) {
    return Status::InvalidArgument("histogram min_ns " + std::to_string(d.min_ns) + " / max_ns " +
                                   std::to_string(d.max_ns) +
                                   " lie outside its lowest and highest buckets");
  }
  // Only the range from the lowest to the highest listed bucket is built.
  std::vector<uint64_t> raw(last - first + 1, 0);
  for (size_t i = 0; i < d.buckets.size(); ++i) raw[index[i] - first] = d.buckets[i].count;
  h.SetRaw(raw, d.sum_ns, d.min_ns, d.max_ns, first);
  h.set_saturated(d.saturated);
  return h;
}

}  // namespace sb::metrics
