#include "driver/run_options.h"

#include <cstdint>
#include <cstdio>
#include <random>

#include "base/clock.h"
#include "base/limits.h"
#include "base/strings.h"
#include "base/units.h"
#include "metrics/headline.h"

namespace sb::driver {

namespace {

using config::OptionSpec;
using config::OptionType;

// A throughput metric named after one workload's figure (DVD Store's orders per minute, the
// transaction workloads' per second) is refused for a workload without that figure: it would be
// judged silently on that workload's own units (an oltp transaction is no order). `headlines`
// empty: the caller does not know the workload, nothing is refused.
Status CheckBaselineMetric(const metrics::BaselineRule& rule,
                           const std::vector<metrics::HeadlineSpec>& headlines) {
  if (headlines.empty()) return Status::Ok();
  const bool opm_family =
      rule.metric == "opm" || rule.metric == "min_opm" || rule.metric == "running_opm";
  const std::string figure = opm_family ? "opm" : rule.metric == "tps" ? "tps" : "";
  if (figure.empty() || metrics::FindHeadline(headlines, figure) != nullptr) return Status::Ok();
  std::string own;
  for (const metrics::HeadlineSpec& h : headlines) own += (own.empty() ? "" : ", ") + h.name;
  return Status::InvalidArgument(
      "--baseline '" + rule.text + "': " + rule.metric + " is " +
      (opm_family ? "DVD Store's orders per minute" : "transactions per second") +
      ", which this workload does not count; name one of its own metrics (" + own +
      ") or units, p50_ms ... max_ms");
}

// Every option here has a name, type, default and help; the few extras are set after.
OptionSpec DriverSpec(const char* name, OptionType type, const char* default_value,
                      const char* help) {
  return OptionSpec{
      .name = name, .type = type, .default_value = default_value, .help = help, .group = "driver"};
}

// Threads, pacing and the run's length.
void DeclareLoadOptions(config::OptionSet* o, const workload::Shape& shape) {
  {
    OptionSpec s =
        DriverSpec("n_threads", OptionType::kInt, "1",
                   "worker threads, each with its own connection (with terminals: the connection "
                   "pool serving them)");
    s.aliases = {"threads", "connections"};
    s.min = 1;
    s.max = limits::kMaxDbThreads;
    o->Add(s);
  }
  {
    OptionSpec s = DriverSpec("ramp_rate", OptionType::kInt, "10",
                              "connections opened per second at start-up");
    s.min = 1;
    s.max = 1000000;
    o->Add(s);
  }
  {
    OptionSpec s =
        DriverSpec("run_time", OptionType::kDuration, shape.default_run_time.c_str(),
                   "measured time after warm-up, exactly this long: a bare number is "
                   "minutes as --run_time (DVD Store) and seconds as --duration or --time "
                   "(sysbench); or 90s, 2m; 0 = until stopped");
    s.aliases = {"duration", "time"};
    s.bare_unit_nanos = 60 * kNanosPerSecond;   // DVD Store counts whole minutes
    s.alias_bare_unit_nanos = kNanosPerSecond;  // --duration, sysbench's --time: seconds
    s.max = limits::kMaxDurationNanos;
    o->Add(s);
  }
  {
    OptionSpec s = DriverSpec(
        "warmup_time", OptionType::kDuration, shape.default_warmup_time.c_str(),
        shape.sysbench_style
            ? "warm-up before the stats reset: a bare number is seconds, as sysbench's "
              "--warmup-time counts it; or 30s, 2m"
            : "warm-up before the stats reset: a bare number is minutes as --warmup_time (DVD "
              "Store) and seconds as --warmup; or 30s, 2m");
    s.aliases = {"warmup"};
    // DVD Store counts whole minutes; sysbench (--warmup-time) and --warmup seconds.
    s.bare_unit_nanos = shape.sysbench_style ? kNanosPerSecond : 60 * kNanosPerSecond;
    s.alias_bare_unit_nanos = kNanosPerSecond;
    s.max = limits::kMaxDurationNanos;
    o->Add(s);
  }
  {
    OptionSpec s = DriverSpec("think_time", OptionType::kDouble, "0",
                              "mean think time per order in seconds (drawn uniformly in [0, 2T))");
    s.max_double = limits::kMaxThinkTimeSec;
    o->Add(s);
  }
  {
    OptionSpec s = DriverSpec("log_freq", OptionType::kInt, shape.default_log_freq.c_str(),
                              shape.sysbench_style
                                  ? "seconds between sysbench interval lines (0 = none, sysbench's "
                                    "default)"
                                  : "seconds between status lines (0 = none)");
    s.aliases = {"report_interval"};
    s.min = 1;
    s.zero_is_off = true;
    s.max = limits::kMaxDurationNanos / kNanosPerSecond;
    o->Add(s);
  }
  {
    OptionSpec s =
        DriverSpec("rate", OptionType::kDouble, "0",
                   "open loop: start units (orders) at this aggregate rate per second, measuring "
                   "latency from the intended start; 0 = closed loop with think time");
    s.min_double = limits::kMinRatePerSec;
    s.max_double = limits::kMaxRatePerSec;
    s.zero_is_off = true;
    o->Add(s);
  }
  {
    OptionSpec s = DriverSpec("arrival", OptionType::kEnum, "constant",
                              "open loop: evenly spaced or Poisson arrivals");
    s.choices = {"constant", "poisson"};
    o->Add(s);
  }
  {
    OptionSpec s = DriverSpec("max_lag", OptionType::kDuration, "10s",
                              "open loop: stop the run when the schedule falls this far behind");
    s.max = limits::kMaxDurationNanos;
    o->Add(s);
  }
  {
    OptionSpec s =
        DriverSpec("stall_timeout", OptionType::kDuration, "0",
                   "a unit waiting this long on the server is stalled: its connection is "
                   "closed and the run reports it (0 = on a back end with a server, 100 "
                   "times the longest recent response time, at least 10 s; "
                   "docs/measurement.md#stalled-workers)");
    s.max = limits::kMaxDurationNanos;
    o->Add(s);
  }
  {
    OptionSpec s = DriverSpec("latency_limit", OptionType::kDuration, "0",
                        "count units slower than this as late (0 = off)");
    s.max = limits::kMaxDurationNanos;
    o->Add(s);
  }
}

// Windows, baselines and what a run's figures are judged by.
void DeclareJudgingOptions(config::OptionSet* o) {
  o->Add(
      DriverSpec("window", OptionType::kString, "",
                 "report windows measured from Start, e.g. 23m-28m or 5m-10m,23m-28m: per-second "
                 "min/mean/median/max throughput, latency percentiles, running OPM at both ends"));
  o->Add(DriverSpec(
      "baseline", OptionType::kString, "",
      "pass/fail rules separated by ';', e.g. opm>=2600@23m-28m or p99_ms<=500@5m-10m "
      "(metrics: opm, min_opm, running_opm, tps, p50_ms, p90_ms, p95_ms, p99_ms, max_ms, "
      "and the workload's headline metrics such as qps); with several instances each "
      "instance is judged and all must pass"));
  {
    OptionSpec s =
        DriverSpec("baseline_rule", OptionType::kEnum, "window_mean",
                   "how a rate baseline is judged over its window: window_mean (units in the "
                   "window / its length), every_interval (every 10-s interval of the "
                   "window), ds_cumulative (DVD Store 3's cumulative figure since the "
                   "warm-up reset at every second of it)");
    s.choices = {"window_mean", "every_interval", "ds_cumulative"};
    o->Add(s);
  }
  // Percentages of the mean: a change or spread can exceed 100 %, not 1e6 %.
  {
    OptionSpec s =
        DriverSpec("steady_slope", OptionType::kDouble, "10",
                   "steady state: largest change of the fitted throughput line across the "
                   "measured window, in % of the mean");
    s.max_double = 1e6;
    o->Add(s);
  }
  {
    OptionSpec s = DriverSpec(
        "steady_cv", OptionType::kDouble, "25",
        "steady state: largest per-second throughput spread (coefficient of variation), %");
    s.max_double = 1e6;
    o->Add(s);
  }
}

// What is recorded beside the figures (operation log, server check, SUT CPU) and the run's limits.
void DeclareProbeOptions(config::OptionSet* o) {
  o->Add(DriverSpec("op_log", OptionType::kString, "",
                    "write one line per sampled operation: worker type intended_start_us start_us "
                    "latency_us outcome (times from Start)"));
  {
    OptionSpec s = DriverSpec("op_log_sampling", OptionType::kDouble, "1",
                              "fraction of operations written to the op_log (0.01 = 1 %)");
    s.max_double = 1;
    o->Add(s);
  }
  o->Add(
      DriverSpec("server_check", OptionType::kBool, "Y",
                 "cross-check against the database: read its own counters and the workload's row "
                 "counts at the start and end of the measured window (the workers pause between "
                 "units for the start reading at the end of warm-up)"));
  o->Add(DriverSpec("sut_cpu", OptionType::kBool, "Y",
                    "sample the system under test's CPU each second beside the run (the local "
                    "/proc/stat, or --sut_cpu_cmd's output)"));
  o->Add(DriverSpec("sut_cpu_cmd", OptionType::kString, "",
                    "a command that prints the database host's /proc/stat, e.g. \"ssh db1 cat "
                    "/proc/stat\" (run once a second, 5 s timeout); default: this host"));
  {
    OptionSpec s =
        DriverSpec("seed", OptionType::kInt, "0",
                   "run seed: the same seed and data give the same sequence of operations; "
                   "0 (the default): a fresh seed drawn for each run, recorded in the "
                   "result (choices.seed), so that repeated runs are separate samples");
    s.aliases = {"rand_seed"};
    o->Add(s);
  }
  {
    OptionSpec s = DriverSpec("units_per_thread", OptionType::kInt, "0",
                              "stop each thread after this many units (orders); the run ends when "
                              "every thread has stopped, or at run_time; 0 = no limit");
    s.aliases = {"orders_per_thread"};
    s.min = 0;
    o->Add(s);
  }
  {
    OptionSpec s =
        DriverSpec("units_total", OptionType::kInt, "0",
                   "stop after this many units (transactions, orders) in all, over every "
                   "thread of an instance (sysbench's --events); 0 = no limit");
    s.aliases = {"events"};
    o->Add(s);
  }
}

}  // namespace

void DeclareRunOptions(config::OptionSet* o, const workload::Shape& shape) {
  DeclareLoadOptions(o, shape);
  DeclareJudgingOptions(o);
  DeclareProbeOptions(o);
}

uint64_t DrawSeed() {
  std::random_device device;
  uint64_t seed = 0;
  while (seed == 0 || seed > static_cast<uint64_t>(INT64_MAX)) {
    // Options hold whole non-negative 63-bit numbers.
    seed = ((static_cast<uint64_t>(device()) << 32) | device()) >> 1;
  }
  return seed;
}

void UseDrawnSeedUnlessGiven(config::OptionSet* o, uint64_t drawn) {
  if (!o->Has("seed") || o->GetInt("seed") != 0) return;
  o->Set("seed", std::to_string(drawn), "a seed drawn for this run").IgnoreError();
}

Result<RunOptions> RunOptionsFrom(const config::OptionSet& o, int max_failures,
                                  const std::vector<metrics::HeadlineSpec>& headlines) {
  RunOptions r;
  r.threads = static_cast<int>(o.GetInt("n_threads"));
  r.ramp_rate = static_cast<double>(o.GetInt("ramp_rate"));
  r.run_nanos = o.GetDurationNanos("run_time");
  r.warmup_nanos = o.GetDurationNanos("warmup_time");
  r.think_time_sec = o.GetDouble("think_time");
  r.log_freq_sec = o.GetInt("log_freq");
  r.seed = static_cast<uint64_t>(o.GetInt("seed"));
  r.units_per_thread = o.GetInt("units_per_thread");
  r.units_total = o.GetInt("units_total");
  r.max_failures = max_failures;
  r.rate_per_sec = o.GetDouble("rate");
  r.poisson = o.GetString("arrival") == "poisson";
  r.max_lag_nanos = o.GetDurationNanos("max_lag");
  r.latency_limit_nanos = o.GetDurationNanos("latency_limit");
  r.stall_nanos = o.GetDurationNanos("stall_timeout");
  r.server_check = o.GetBool("server_check");
  r.sut_cpu = o.GetBool("sut_cpu");
  r.sut_cpu_cmd = o.GetString("sut_cpu_cmd");
  r.op_log_path = o.GetString("op_log");
  r.op_log_sampling = o.GetDouble("op_log_sampling");
  if (r.op_log_sampling < 0 || r.op_log_sampling > 1) {
    return Status::InvalidArgument("option op_log_sampling must be between 0 and 1");
  }
  r.steady_max_slope_pct = o.GetDouble("steady_slope");
  r.steady_max_cv_pct = o.GetDouble("steady_cv");
  SB_RETURN_IF_ERROR(WindowsAndBaselinesFrom(o, headlines, &r.windows, &r.baselines));
  SB_RETURN_IF_ERROR(CheckWindowsWithinRun(r.windows, r.baselines, r.warmup_nanos, r.run_nanos,
                                           "warmup_time", "Start"));
  return r;
}

Status CheckWindowsWithinRun(const std::vector<metrics::WindowSpec>& windows,
                             const std::vector<metrics::BaselineRule>& baselines,
                             int64_t warmup_nanos, int64_t run_nanos,
                             const std::string& warmup_name, const std::string& start_name) {
  if (run_nanos <= 0) return Status::Ok();
  const double run_end_sec = static_cast<double>(warmup_nanos + run_nanos) / 1e9;
  // A window that ends with the run is fine; only rounding separates the two seconds figures.
  constexpr double kEndSlackSec = 1e-6;
  const auto refuse = [&](const std::string& what, const metrics::WindowSpec& w) {
    char end[32], run_end[32];
    std::snprintf(end, sizeof end, "%g", w.end_sec);
    std::snprintf(run_end, sizeof run_end, "%g", run_end_sec);
    return Status::InvalidArgument(
        what + " ends " + end + " s from " + start_name + ", after the run, which ends " + run_end +
        " s from " + start_name + " (" + warmup_name + " " + FormatDuration(warmup_nanos) +
        " + run_time " + FormatDuration(run_nanos) +
        "): make run_time longer or end the window by then");
  };
  for (const metrics::WindowSpec& w : windows) {
    if (w.end_sec > run_end_sec + kEndSlackSec) return refuse("--window " + w.label, w);
  }
  for (const metrics::BaselineRule& b : baselines) {
    // "@run" is the measured window itself, whatever its length.
    if (b.window.label == metrics::kWholeRunWindow) continue;
    if (b.window.end_sec > run_end_sec + kEndSlackSec) {
      return refuse("--baseline '" + b.text + "': its window", b.window);
    }
  }
  return Status::Ok();
}

Status WindowsAndBaselinesFrom(const config::OptionSet& o,
                               const std::vector<metrics::HeadlineSpec>& headlines,
                               std::vector<metrics::WindowSpec>* windows,
                               std::vector<metrics::BaselineRule>* baselines) {
  if (const std::string& w = o.GetString("window"); !w.empty()) {
    auto parsed = metrics::ParseWindows(w);
    if (!parsed.ok()) return parsed.status();
    *windows = std::move(parsed).value();
  }
  const metrics::BaselineKind kind =
      metrics::ParseBaselineKind(o.GetString("baseline_rule")).value();
  for (const std::string& text : SplitTrimmed(o.GetString("baseline"), ';')) {
    if (text.empty()) continue;
    auto rule = metrics::ParseBaseline(text, headlines);
    if (!rule.ok()) return rule.status();
    SB_RETURN_IF_ERROR(CheckBaselineMetric(*rule, headlines));
    rule->kind = kind;
    baselines->push_back(std::move(rule).value());
  }
  return Status::Ok();
}

}  // namespace sb::driver
