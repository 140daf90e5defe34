// Results over a window of a run, shared by database and storage results: latency summaries,
// reporting windows and baseline verdicts (plain data).
#ifndef STOREBENCH_METRICS_WINDOW_RESULT_H_
#define STOREBENCH_METRICS_WINDOW_RESULT_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "metrics/histogram.h"
#include "metrics/histogram_buckets.h"

namespace sb::metrics {

// Latency percentiles of one operation type over some window, in milliseconds.
struct LatencySummary {
  uint64_t count = 0;
  double mean_ms = 0, min_ms = 0, p50_ms = 0, p90_ms = 0, p95_ms = 0, p99_ms = 0, p999_ms = 0,
         max_ms = 0;
  // The histogram the figures come from (the result JSON writes it for the run's measured
  // window only: docs/output-schema.md#latency-histogram). Empty buckets: not kept (older
  // result files).
  HistogramData histogram{};
  static LatencySummary From(const Histogram& h);
};

// One reporting window (--window 23m-28m), measured from Start like the time series.
struct WindowResult {
  std::string label;  // as the user wrote it, e.g. "23m-28m"
  double start_sec = 0;
  double end_sec = 0;
  bool complete = false;  // the run covered the whole window
  // Per-second throughput of units inside the window (units per second).
  double per_sec_min = 0, per_sec_mean = 0, per_sec_median = 0, per_sec_max = 0;
  double per_minute = 0;  // units per minute over the whole window (OPM for DVD Store)
  // DVD Store's running-average OPM (since the warm-up reset) at the window's start and end.
  double running_start = 0, running_end = 0;
  std::vector<LatencySummary> latency;  // parallel to RunResult::type_names
  // The workload's headline metrics over the window, in its declared order ("opm", ...).
  std::vector<std::pair<std::string, double>> headlines;
};

// A pass/fail rule (--baseline opm>=2600@23m-28m) and its outcome.
struct BaselineResult {
  std::string rule;   // as given
  std::string words;  // the rule in words, e.g. "orders per minute over 23m-28m >= 2600"
  double measured = 0;
  bool passed = false;
  // How a rate was judged over the window (metrics/windows.h): "window_mean", "every_interval"
  // or "ds_cumulative"; latency rules are always judged on the window's histogram.
  std::string kind = "window_mean";
  // In a run of several instances: the instance that decided `measured` (the lowest, or for an
  // upper bound the highest); "" otherwise.
  std::string decided_by;
};

}  // namespace sb::metrics

#endif  // STOREBENCH_METRICS_WINDOW_RESULT_H_
