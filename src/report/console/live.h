// The live JSON output during a run: one JSON object per interval (--progress=json), made from
// the time series alone. The Prometheus endpoint's text is prometheus_text.h.
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

}  // namespace sb::report

#endif  // STOREBENCH_REPORT_CONSOLE_LIVE_H_
