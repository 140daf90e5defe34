#include "metrics/run_result.h"

namespace sb::metrics {

namespace {

// Histogram values are integer nanoseconds; summaries are fractional milliseconds.
double ToMs(double nanos) { return nanos / 1e6; }

}  // namespace

LatencySummary LatencySummary::From(const Histogram& h) {
  LatencySummary s;
  s.count = h.count();
  s.histogram = ToBuckets(h);
  if (s.count == 0) return s;  // all zeros, as an empty histogram reports
  s.mean_ms = ToMs(h.mean());
  s.min_ms = ToMs(static_cast<double>(h.min()));
  s.p50_ms = ToMs(static_cast<double>(h.ValueAtPercentile(50)));
  s.p90_ms = ToMs(static_cast<double>(h.ValueAtPercentile(90)));
  s.p95_ms = ToMs(static_cast<double>(h.ValueAtPercentile(95)));
  s.p99_ms = ToMs(static_cast<double>(h.ValueAtPercentile(99)));
  s.p999_ms = ToMs(static_cast<double>(h.ValueAtPercentile(99.9)));
  s.max_ms = ToMs(static_cast<double>(h.max()));
  return s;
}

}  // namespace sb::metrics
