// A latency histogram as plain, compact data: its non-empty buckets and its exact sum, min, max
// and saturated count. This is the result JSON's per-operation "histogram"
// (docs/output-schema.md#latency-histogram) and the form in which histograms travel between
// processes (several instances, MPI ranks): FromBuckets(ToBuckets(h)) equals h bucket for bucket,
// so histograms merged after a round trip give exactly the percentiles of one merged in memory.
//
// A bucket is named by its lower bound in nanoseconds (Histogram::BucketLow), which reads without
// the bucket scheme; the scheme (Histogram::kSubBits) says where the next bucket begins.
#ifndef STOREBENCH_METRICS_HISTOGRAM_BUCKETS_H_
#define STOREBENCH_METRICS_HISTOGRAM_BUCKETS_H_

#include <cstdint>
#include <vector>

#include "metrics/histogram.h"
#include "storebench/status.h"

namespace sb::metrics {

struct HistogramBucket {
  int64_t low_ns = 0;  // the bucket's lower bound (Histogram::BucketLow)
  uint64_t count = 0;  // > 0
  bool operator==(const HistogramBucket&) const = default;
};

struct HistogramData {
  int sub_bits = Histogram::kSubBits;    // the bucket scheme (docs/output-schema.md)
  std::vector<HistogramBucket> buckets;  // non-empty ones, lowest first
  int64_t sum_ns = 0;                    // exact sum of the recorded values
  int64_t min_ns = 0, max_ns = 0;        // 0 when empty
  uint64_t saturated = 0;                // values beyond Histogram::kLimit
  uint64_t count() const;                // the buckets' counts added up
  bool operator==(const HistogramData&) const = default;
};

HistogramData ToBuckets(const Histogram& h);

// The histogram of `d`. InvalidArgument (one sentence) when `d` was written with another bucket
// scheme, a bound is not a bucket's lower bound, bounds do not rise, a count is 0, or min/max lie
// outside the lowest/highest bucket.
Result<Histogram> FromBuckets(const HistogramData& d);

}  // namespace sb::metrics

#endif  // STOREBENCH_METRICS_HISTOGRAM_BUCKETS_H_
