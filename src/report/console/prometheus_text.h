// The Prometheus text exposition format (version 0.0.4) of a run's live totals, served by
// --metrics_addr. Named as Prometheus' conventions ask (https://prometheus.io/docs/practices/
// naming/): base units (seconds, bytes), counters since Start named *_total, no pre-computed
// rates, and every family one partition of what it counts, so that sum() over any of its labels
// counts each unit once: the unit of work and the workload's steps are separate families,
// reads/writes/other one family with an `op` label, each storage specification and each
// instance its own series. Latency is a histogram with fixed bucket bounds (kLatencyBoundsNanos)
// that Prometheus can aggregate over instances and time. docs/measurement.md lists the families.
#ifndef STOREBENCH_REPORT_CONSOLE_PROMETHEUS_TEXT_H_
#define STOREBENCH_REPORT_CONSOLE_PROMETHEUS_TEXT_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "metrics/histogram.h"
#include "metrics/live_totals.h"

namespace sb::report {

// The histograms' upper bounds (the `le` labels), in nanoseconds: 1, 1.5, 2, 3, 5 and 7 times
// each power of ten of milliseconds from 0.05 ms to 50 s, then 60 s; +Inf holds the rest.
// Six bounds a decade keep histogram_quantile's interpolation within a bucket's width (at most
// 1.67 times its lower bound) at ~40 lines a histogram.
inline constexpr std::array<int64_t, 38> kLatencyBoundsNanos = {
    50'000,         70'000,        100'000,        150'000,        200'000,        300'000,
    500'000,        700'000,       1'000'000,      1'500'000,      2'000'000,      3'000'000,
    5'000'000,      7'000'000,     10'000'000,     15'000'000,     20'000'000,     30'000'000,
    50'000'000,     70'000'000,    100'000'000,    150'000'000,    200'000'000,    300'000'000,
    500'000'000,    700'000'000,   1'000'000'000,  1'500'000'000,  2'000'000'000,  3'000'000'000,
    5'000'000'000,  7'000'000'000, 10'000'000'000, 15'000'000'000, 20'000'000'000, 30'000'000'000,
    50'000'000'000, 60'000'000'000};

// For each bound of `bounds_nanos` (ascending), the number of values of `h` at or below it. A
// value counts by its bucket's reported value (the midpoint clamped to the histogram's min and
// max, as percentiles are reported), so a bound inside a bucket misplaces at most that bucket,
// whose width is 0.4 % of its values (metrics/histogram.h).
std::vector<uint64_t> CountsAtOrBelow(const metrics::Histogram& h,
                                      const std::vector<int64_t>& bounds_nanos);

// The exposition of `all` (one entry per instance, or per storage specification). Every series
// has the label `workload`; `instance` (the instance's name) when `label_instances` (runs of
// several instances, and plans), `spec` when an entry has one.
std::string PrometheusText(const std::vector<metrics::LiveTotals>& all, bool label_instances);

}  // namespace sb::report

#endif  // STOREBENCH_REPORT_CONSOLE_PROMETHEUS_TEXT_H_
