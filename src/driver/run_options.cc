#include "driver/run_options.h"

namespace sb::driver {

void DeclareRunOptions(config::OptionSet* o) {
  using config::OptionSpec;
  using config::OptionType;
  auto add = [&](OptionSpec s) {
    s.group = "driver";
    o->Add(std::move(s));
  };
  {
    OptionSpec s;
    s.name = "n_threads";
    s.aliases = {"threads"};
    s.type = OptionType::kInt;
    s.default_value = "1";
    s.min = 1;
    s.max = 4096;
    s.help = "worker threads, each with its own connection";
    add(s);
  }
  {
    OptionSpec s;
    s.name = "ramp_rate";
    s.type = OptionType::kInt;
    s.default_value = "10";
    s.min = 1;
    s.help = "connections opened per second at start-up";
    add(s);
  }
  {
    OptionSpec s;
    s.name = "run_time";
    s.aliases = {"duration"};
    s.type = OptionType::kDuration;
    s.bare_unit_nanos = 60LL * 1000 * 1000 * 1000;
    s.default_value = "0";
    s.help = "measured time after warm-up: whole minutes (DVD Store) or 90s, 2m; 0 = until stopped";
    add(s);
  }
  {
    OptionSpec s;
    s.name = "warmup_time";
    s.aliases = {"warmup"};
    s.type = OptionType::kDuration;
    s.bare_unit_nanos = 60LL * 1000 * 1000 * 1000;
    s.default_value = "1";
    s.help = "warm-up before the stats reset: whole minutes or 30s";
    add(s);
  }
  {
    OptionSpec s;
    s.name = "think_time";
    s.type = OptionType::kDouble;
    s.default_value = "0";
    s.help = "mean think time per order in seconds (drawn uniformly in [0, 2T))";
    add(s);
  }
  {
    OptionSpec s;
    s.name = "log_freq";
    s.type = OptionType::kInt;
    s.default_value = "10";
    s.min = 1;
    s.help = "seconds between status lines";
    add(s);
  }
  {
    OptionSpec s;
    s.name = "rate";
    s.type = OptionType::kDouble;
    s.default_value = "0";
    s.help = "open loop: start units (orders) at this aggregate rate per second, measuring latency "
             "from the intended start; 0 = closed loop with think time";
    add(s);
  }
  {
    OptionSpec s;
    s.name = "arrival";
    s.type = OptionType::kEnum;
    s.choices = {"constant", "poisson"};
    s.default_value = "constant";
    s.help = "open loop: evenly spaced or Poisson arrivals";
    add(s);
  }
  {
    OptionSpec s;
    s.name = "max_lag";
    s.type = OptionType::kDuration;
    s.default_value = "10s";
    s.help = "open loop: stop the run when the schedule falls this far behind";
    add(s);
  }
  {
    OptionSpec s;
    s.name = "latency_limit";
    s.type = OptionType::kDuration;
    s.default_value = "0";
    s.help = "count units slower than this as late (0 = off)";
    add(s);
  }
  {
    OptionSpec s;
    s.name = "window";
    s.default_value = "";
    s.help = "report windows measured from Start, e.g. 23m-28m or 5m-10m,23m-28m: per-second "
             "min/mean/median/max throughput, latency percentiles, running OPM at both ends";
    add(s);
  }
  {
    OptionSpec s;
    s.name = "baseline";
    s.default_value = "";
    s.help = "pass/fail rules separated by ';', e.g. opm>=2600@23m-28m or p99_ms<=500@5m-10m "
             "(metrics: opm, min_opm, running_opm, tps, p50_ms, p90_ms, p95_ms, p99_ms, max_ms)";
    add(s);
  }
  {
    OptionSpec s;
    s.name = "steady_slope";
    s.type = OptionType::kDouble;
    s.default_value = "10";
    s.help = "steady state: largest change of the fitted throughput line across the measured "
             "window, in % of the mean";
    add(s);
  }
  {
    OptionSpec s;
    s.name = "steady_cv";
    s.type = OptionType::kDouble;
    s.default_value = "25";
    s.help = "steady state: largest per-second throughput spread (coefficient of variation), %";
    add(s);
  }
  {
    OptionSpec s;
    s.name = "op_log";
    s.default_value = "";
    s.help = "write one line per sampled operation: worker type intended_start_us start_us "
             "latency_us outcome (times from Start)";
    add(s);
  }
  {
    OptionSpec s;
    s.name = "op_log_sampling";
    s.type = OptionType::kDouble;
    s.default_value = "1";
    s.help = "fraction of operations written to the op_log (0.01 = 1 %)";
    add(s);
  }
  {
    OptionSpec s;
    s.name = "seed";
    s.type = OptionType::kInt;
    s.default_value = "1";
    s.help = "run seed: the same seed and data give the same sequence of operations";
    add(s);
  }
}

Result<RunOptions> RunOptionsFrom(const config::OptionSet& o, int max_failures) {
  RunOptions r;
  r.threads = static_cast<int>(o.GetInt("n_threads"));
  r.ramp_rate = static_cast<double>(o.GetInt("ramp_rate"));
  r.run_nanos = o.GetDurationNanos("run_time");
  r.warmup_nanos = o.GetDurationNanos("warmup_time");
  r.think_time_sec = o.GetDouble("think_time");
  r.log_freq_sec = o.GetInt("log_freq");
  r.seed = static_cast<uint64_t>(o.GetInt("seed"));
  r.max_failures = max_failures;
  r.rate_per_sec = o.GetDouble("rate");
  r.poisson = o.GetString("arrival") == "poisson";
  r.max_lag_nanos = o.GetDurationNanos("max_lag");
  r.latency_limit_nanos = o.GetDurationNanos("latency_limit");
  r.op_log_path = o.GetString("op_log");
  r.op_log_sampling = o.GetDouble("op_log_sampling");
  if (r.op_log_sampling < 0 || r.op_log_sampling > 1) {
    return Status::InvalidArgument("option op_log_sampling must be between 0 and 1");
  }
  r.steady_max_slope_pct = o.GetDouble("steady_slope");
  r.steady_max_cv_pct = o.GetDouble("steady_cv");
  if (const std::string& w = o.GetString("window"); !w.empty()) {
    auto windows = metrics::ParseWindows(w);
    if (!windows.ok()) return windows.status();
    r.windows = std::move(windows).value();
  }
  std::string_view rules = o.GetString("baseline");
  while (!rules.empty()) {
    const size_t semi = rules.find(';');
    auto rule = metrics::ParseBaseline(rules.substr(0, semi));
    if (!rule.ok()) return rule.status();
    r.baselines.push_back(std::move(rule).value());
    rules = semi == std::string_view::npos ? std::string_view() : rules.substr(semi + 1);
  }
  return r;
}

}  // namespace sb::driver
