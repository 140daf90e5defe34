// Live outputs during a run: one JSON object per interval (--progress=json) and the Prometheus
// text exposition format (--metrics_addr). Both are made from the time series alone.
#ifndef STOREBENCH_REPORT_CONSOLE_LIVE_H_
#define STOREBENCH_REPORT_CONSOLE_LIVE_H_

#include <string>

#include "metrics/run_result.h"

namespace sb::report {

// The series' last point as one JSON line (no newline): t, phase, per-type counts per second
// (over the point's own span: a run's last point is often shorter than an interval),
// mean and p99 latency, counters (errors, retries, late), and the running figures.
std::string ProgressJsonLine(const metrics::TimeSeries& series,
                             const metrics::StatusFigures& running);

// Prometheus text format (version 0.0.4) for the whole series so far, named as Prometheus'
// conventions ask: base units (seconds, bytes), latency as a summary per operation type
// (storebench_operation_duration_seconds: the last interval's 0.99 quantile, _sum and _count
// since Start), one counter per kind with labels (storebench_errors_total{category},
// storebench_retries_total, storebench_read_bytes_total, ...), no pre-computed rates (a query
// derives them with rate()), every series once. docs/measurement.md lists them.
std::string PrometheusText(const std::string& workload, const metrics::TimeSeries& series,
                           const metrics::StatusFigures& running);

}  // namespace sb::report

#endif  // STOREBENCH_REPORT_CONSOLE_LIVE_H_
