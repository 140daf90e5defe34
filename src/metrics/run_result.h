// Plain result data handed from the driver to the reporters. Every output (console, JSON, CSV)
// is made from a RunResult, and a RunResult can be rebuilt from its JSON document.
#ifndef STOREBENCH_METRICS_RUN_RESULT_H_
#define STOREBENCH_METRICS_RUN_RESULT_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "metrics/headline_spec.h"
#include "metrics/histogram.h"
#include "metrics/power_result.h"
#include "metrics/storage_result.h"
#include "metrics/window_result.h"

namespace sb::metrics {

// One point of the 1-second time series: what happened during (t_sec − interval, t_sec].
struct IntervalPoint {
  double t_sec = 0;   // seconds since Start (the instant all workers began), end of interval
  std::string phase;  // "warmup", "measure" or "winddown"
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
  // The seconds points[k] covers: since the point before it (the first: since Start), which is
  // less than an interval where the warm-up or the run ends between two ticks; a whole interval
  // if that is not positive. A point's count over it is its rate.
  double PointSeconds(size_t k) const {
    const double from = k > 0 ? points[k - 1].t_sec : 0;
    if (points[k].t_sec > from) return points[k].t_sec - from;
    return interval_sec > 0 ? interval_sec : 1;
  }
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

// Was throughput steady over the measured window? (fio's steadystate idea: a small slope of a
// linear fit and a small spread around the mean.)
struct SteadyStateResult {
  bool evaluated = false;  // false when the window had too few seconds
  bool steady = false;
  double slope_pct = 0;      // change of the fitted line across the window, % of the mean
  double cv_pct = 0;         // standard deviation of per-second throughput, % of the mean
  double max_slope_pct = 0;  // the thresholds used
  double max_cv_pct = 0;
  std::string detail;  // one sentence
};

// The cross-check against the database's own view of the measured window: the server's counters
// and the workload's probe of its tables (DVD Store: the ORDERS rows) read at the window's start
// and end, beside the client's counts over the same span (docs/measurement.md).
struct ServerCheckResult {
  bool present = false;  // false: no reading was possible (nothing to compare)
  // The span the readings bracket, in words. It begins at the end of warm-up and ends after every
  // worker finished its last unit, so it includes the units of the wind-down.
  std::string span;
  // The start reading saw no unit in flight (taken before the workers began, or while they
  // paused between units); otherwise units straddling it make exact comparisons inexact.
  bool start_exact = true;
  double hold_ms = 0;  // how long the workers paused for the start reading
  // Lagging counters (PostgreSQL) stopped changing before the end reading was kept.
  bool counters_settled = true;
  std::string error;          // why a reading failed; "" when both were taken
  uint64_t client_units = 0;  // units the client completed in the span

  struct Reading {
    std::string name;
    std::string meaning;  // server counters: the server-neutral meaning, or ""
    int64_t before = 0, after = 0;
    std::string source{};  // server counters: where the value was read, or ""
    int64_t delta() const { return after - before; }
  };
  std::vector<Reading> server_counters;  // the server's own counters
  std::vector<Reading> probe;            // the workload's own count of its rows

  struct Comparison {
    std::string name;      // "committed_orders_vs_new_orders_rows"
    int64_t client = 0;    // what the client counted
    int64_t server = 0;    // what the database says
    // "==" (must be equal), ">=" (server at least client), or "not compared" (the server's
    // figure counts other sessions' work too: they were active during the span)
    std::string relation;
    bool passed = false;
    std::string detail;  // what the two numbers are, in one sentence
  };
  std::vector<Comparison> comparisons;
};

// One interval of the system under test's CPU (the host the databases run on), from two
// /proc/stat readings: percent of all its CPUs over (previous reading, t_sec].
struct CpuPoint {
  double t_sec = 0;  // seconds since Start
  double utilization_pct = 0, user_pct = 0, system_pct = 0, iowait_pct = 0, steal_pct = 0;
};

struct SutCpu {
  std::string source;  // "local /proc/stat" or "command: ssh db1 cat /proc/stat"
  std::string error;   // why readings are missing, or ""
  std::vector<CpuPoint> points;
  // Mean and max utilization over the measured window (0 when no point falls in it).
  double measured_mean_pct = 0, measured_max_pct = 0;
};

// One worker's share of the measured window (sysbench's "Threads fairness").
struct ThreadShare {
  uint64_t units = 0;   // units completed
  double busy_sec = 0;  // the sum of their response times
};

struct RunResult {
  std::string workload;  // "dvdstore"
  // The label given at run time (--label), by which `storebench compare` groups results; "" for
  // none.
  std::string label;
  std::string headline_name;  // "opm"
  double headline_value = 0;
  // Every headline metric the workload declares, over the measured window, the first being
  // headline_name.
  std::vector<std::pair<std::string, double>> headlines;
  // Their definitions: which series types and counters each counts (indexes into
  // series.type_names / series.counter_names), so reports can derive them per second.
  std::vector<HeadlineSpec> headline_specs;
  // In a run of several instances, each instance's own result: `name` and `target` set,
  // `instances` empty. The enclosing result is their aggregate, merged exactly.
  std::string name;    // the instance ("1", "ds3_2"); "" for a run of one instance
  std::string target;  // the instance's database URL or storage targets (no secrets)
  std::vector<RunResult> instances;
  std::string loop_model;  // "closed loop, think time 0 s (DVD Store order loop)"
  std::string started_at;  // ISO-8601 UTC
  std::string ended_at;
  // When the first unit completed (ISO-8601 UTC, and seconds after the common Start): each
  // instance's own, so start skew between instances shows; the aggregate's is the earliest.
  // "" and -1: no unit completed.
  std::string first_unit_at;
  double first_unit_sec = -1;
  double measured_sec = 0;   // length of the measured window
  bool interrupted = false;  // stopped by a signal before the planned end
  // The database was brought back to its pristine copy before the run (--restore): how, and
  // how many seconds it took (not part of the run; for several instances, the sum of theirs,
  // which ran one after another). seconds < 0: not restored.
  std::string restore_method;
  double restore_seconds = -1;

  // Effective configuration (passwords redacted) as a JSON object text, from config/.
  std::string config_json;
  // Environment facts: host, cpu_model, cpu_count, kernel, filesystem, database product/version,
  // settings (pragmas). Flat key → value text; "db." keys for the database.
  std::map<std::string, std::string> environment;
  // Choices a result depends on (restock semantics, bug_compat items, ...), key → description.
  std::map<std::string, std::string> choices;

  // Measured window, per operation type.
  std::vector<std::string> type_names;
  std::vector<LatencySummary> latency;      // parallel to type_names
  std::map<std::string, int64_t> counters;  // measured window totals (rollbacks, ...)
  std::map<std::string, int64_t> errors;    // by category, whole run
  int64_t retries = 0;
  int64_t workers_started = 0;
  int64_t workers_failed = 0;  // workers that ended early on an error
  // Workers with a unit the server left unanswered past the stall timeout (its connection was
  // interrupted; docs/measurement.md#stalled-workers).
  int64_t workers_stalled = 0;
  // Seconds from the launch until every worker was connected (the connect phase, ramp
  // included; Swingbench's TotalLogonTime); < 0: not measured (storage runs, older results).
  double connect_sec = -1;
  // Per worker over the measured window (database runs; with several instances, every
  // instance's workers in instance order). Empty when not measured.
  std::vector<ThreadShare> threads;

  // Workload-specific figures in their canonical order (DVD Store: every Final-line field).
  std::vector<std::pair<std::string, double>> figures;
  StatusFigures final_status;

  // The driver's own cost.
  double driver_cpu_sec = 0;         // user + system CPU of the storebench process, measured window
  double driver_cpu_sec_per_op = 0;  // per headline operation (order)
  double driver_cpu_share = 0;       // fraction of one core

  std::vector<WindowResult> windows;
  std::vector<BaselineResult> baselines;
  SteadyStateResult steady_state;
  // Things the reader must know (e.g. the driver itself was near CPU saturation).
  std::vector<std::string> warnings;

  // Verification after the run (name → passed, detail).
  struct Check {
    std::string name;
    bool passed = false;
    std::string detail;
  };
  std::vector<Check> verify;

  ServerCheckResult server_check;

  // The system under test's CPU beside the series (empty source: not sampled).
  SutCpu sut_cpu;

  // Power beside the run (--power; docs/power.md); no sources: not measured.
  PowerResult power;

  TimeSeries series;

  // A scaled-out run's "scale_out" section (ranks, their hosts, clock offsets and own figures;
  // docs/scale-out.md) as JSON object text; empty for a run of one process.
  std::string scale_out_json;

  // Storage runs (storebench io run): one test per access specification; empty otherwise.
  std::vector<StorageTest> storage;
};

}  // namespace sb::metrics

#endif  // STOREBENCH_METRICS_RUN_RESULT_H_
