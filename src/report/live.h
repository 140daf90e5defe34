// Live outputs during a run: one JSON object per interval (--progress=json) and the Prometheus
// text exposition format (--metrics_addr). Both are made from the time series alone.
#ifndef STOREBENCH_REPORT_LIVE_H_
#define STOREBENCH_REPORT_LIVE_H_

#include <string>

#include "metrics/run_result.h"

namespace sb::report {

// The series' last point as one JSON line (no newline): t, phase, per-type counts per second,
// mean and p99 latency, counters (errors, retries, late), and the running figures.
std::string ProgressJsonLine(const metrics::TimeSeries& series,
                             const metrics::StatusFigures& running);

// Prometheus text format (version 0.0.4) for the whole series so far: counters are totals since
// Start (units, steps, errors, retries), gauges describe the last interval (rate, mean and p99
// latency per type) and the running figures (OPM since the warm-up reset).
std::string PrometheusText(const std::string& workload, const metrics::TimeSeries& series,
                           const metrics::StatusFigures& running);

}  // namespace sb::report

#endif  // STOREBENCH_REPORT_LIVE_H_
