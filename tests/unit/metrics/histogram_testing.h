// Shared checks for the metrics tests.
#ifndef STOREBENCH_TESTS_UNIT_METRICS_HISTOGRAM_TESTING_H_
#define STOREBENCH_TESTS_UNIT_METRICS_HISTOGRAM_TESTING_H_

#include <gtest/gtest.h>

#include <cstddef>

#include "metrics/histogram.h"

namespace sb::metrics::testing {

// The documented error bound of a reported value: half a bucket over its lower bound.
inline constexpr double kMaxRelativeError = 1.0 / (1 << Histogram::kSubBits);

// Every observable field and every bucket equal.
inline void ExpectSameHistogram(const Histogram& actual, const Histogram& expected) {
  EXPECT_EQ(actual.count(), expected.count());
  EXPECT_EQ(actual.sum(), expected.sum());
  EXPECT_EQ(actual.min(), expected.min());
  EXPECT_EQ(actual.max(), expected.max());
  EXPECT_EQ(actual.saturated(), expected.saturated());
  size_t differing = 0;
  for (size_t b = 0; b < Histogram::kNumBuckets; ++b) {
    if (actual.bucket_count(b) != expected.bucket_count(b)) {
      if (++differing <= 5) {
        ADD_FAILURE() << "bucket " << b << ": " << actual.bucket_count(b)
                      << " != " << expected.bucket_count(b);
      }
    }
  }
  EXPECT_EQ(differing, 0u);
  for (double p : {0.0, 1.0, 50.0, 90.0, 99.0, 99.9, 100.0}) {
    EXPECT_EQ(actual.ValueAtPercentile(p), expected.ValueAtPercentile(p)) << "p" << p;
  }
}

}  // namespace sb::metrics::testing

#endif  // STOREBENCH_TESTS_UNIT_METRICS_HISTOGRAM_TESTING_H_
