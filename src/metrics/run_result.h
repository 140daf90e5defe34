// Plain result data handed from the driver to the reporters. Every output (console, JSON, CSV)
// is made from a RunResult, and a RunResult can be rebuilt from its JSON document.
#ifndef STOREBENCH_METRICS_RUN_RESULT_H_
#define STOREBENCH_METRICS_RUN_RESULT_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "metrics/histogram.h"

namespace sb::metrics {

// Latency percentiles of one operation type over some window, in milliseconds.
struct LatencySummary {
  uint64_t count = 0;
  double mean_ms = 0, min_ms = 0, p50_ms = 0, p90_ms = 0, p95_ms = 0, p99_ms = 0, p999_ms = 0,
         max_ms = 0;
  static LatencySummary From(const Histogram& h);
};

// One point of the 1-second time series: what happened during (t_sec − interval, t_sec].
struct IntervalPoint {
  double t_sec = 0;     // seconds since Start (the instant all workers began), end of interval
  std::string phase;    // "warmup", "measure" or "winddown"
  std::vector<uint64_t> type_counts;  // per operation type
  std::vector<double> type_mean_ms;   // per operation type; 0 when count is 0
  std::vector<double> type_p99_ms;    // per operation type; 0 when count is 0
  std::vector<int64_t> counters;      // per counter (rollbacks, errors, retries, ...)
};

struct TimeSeries {
  double interval_sec = 1.0;
  std::vector<std::string> type_names;
  std::vector<std::string> counter_names;
  std::vector<IntervalPoint> points;
};

// A status line's figures (DVD Store's console line), emitted every log_freq seconds.
struct StatusFigures {
  double et_sec = 0;
  int64_t n_overall = 0;
  int64_t opm = 0;
  int64_t rt_tot_lastn_max_msec = 0;
  int64_t rt_tot_avg_msec = 0;
  int64_t rt_tot_sampled = 0;
  int64_t n_rollbacks = 0;
  double rollback_pct = 0;
};

struct RunResult {
  std::string workload;        // "dvdstore"
  std::string headline_name;   // "opm"
  double headline_value = 0;
  std::string loop_model;      // "closed loop, think time 0 s (DVD Store order loop)"
  std::string started_at;      // ISO-8601 UTC
  std::string ended_at;
  double measured_sec = 0;     // length of the measured window
  bool interrupted = false;    // stopped by a signal before the planned end

  // Effective configuration (passwords redacted) as a JSON object text, from config/.
  std::string config_json;
  // Environment facts: host, cpu_model, cpu_count, kernel, filesystem, database product/version,
  // settings (pragmas). Flat key → value text; "db." keys for the database.
  std::map<std::string, std::string> environment;
  // Choices a result depends on (restock semantics, bug_compat items, ...), key → description.
  std::map<std::string, std::string> choices;

  // Measured window, per operation type.
  std::vector<std::string> type_names;
  std::vector<LatencySummary> latency;  // parallel to type_names
  std::map<std::string, int64_t> counters;        // measured window totals (rollbacks, ...)
  std::map<std::string, int64_t> errors;          // by category, whole run
  int64_t retries = 0;
  int64_t workers_started = 0;
  int64_t workers_failed = 0;   // workers that ended early on an error

  // Workload-specific figures in their canonical order (DVD Store: every Final-line field).
  std::vector<std::pair<std::string, double>> figures;
  StatusFigures final_status;

  // The driver's own cost.
  double driver_cpu_sec = 0;        // user + system CPU of the storebench process, measured window
  double driver_cpu_sec_per_op = 0; // per headline operation (order)
  double driver_cpu_share = 0;      // fraction of one core

  // Verification after the run (name → passed, detail).
  struct Check {
    std::string name;
    bool passed = false;
    std::string detail;
  };
  std::vector<Check> verify;

  TimeSeries series;
};

}  // namespace sb::metrics

#endif  // STOREBENCH_METRICS_RUN_RESULT_H_
