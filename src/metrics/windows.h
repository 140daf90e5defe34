// Reporting windows, baselines and steady-state detection: pure functions on measured data, so
// they can be tested on synthetic series with known answers.
#ifndef STOREBENCH_METRICS_WINDOWS_H_
#define STOREBENCH_METRICS_WINDOWS_H_

#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "metrics/run_result.h"

namespace sb::metrics {

struct WindowSpec {
  std::string label;  // "23m-28m"
  double start_sec = 0;
  double end_sec = 0;
};

// Parses "23m-28m" or a comma-separated list ("5m-10m,23m-28m"); each bound is a duration
// ("90s", "23m", a bare number = minutes as DVD Store counts). Start < end is required.
Result<std::vector<WindowSpec>> ParseWindows(std::string_view text);

// The per-second values of `type` (units per second) in the time-series points whose interval
// ends in (start_sec, end_sec]. Points are 1-second intervals.
std::vector<double> PerSecond(const TimeSeries& series, int type, double start_sec,
                              double end_sec);

struct Spread {
  double min = 0, mean = 0, median = 0, max = 0;
};
// min/mean/median/max of `values` (median of an even count: the mean of the middle two).
Spread SpreadOf(std::vector<double> values);

// Steady if the fitted line's change across the series is within max_slope_pct of the mean and
// the coefficient of variation is within max_cv_pct. Needs at least `min_points` values.
SteadyStateResult DetectSteadyState(const std::vector<double>& per_second, double max_slope_pct,
                                    double max_cv_pct, int min_points = 10);

// A baseline rule: "<metric><op><value>@<window>", e.g. "opm>=2600@23m-28m".
// Metrics: opm (units per minute over the window), min_opm (lowest per-second rate × 60),
// running_opm (DVD Store's running average, lowest at the window's start and end),
// tps (units per second over the window), p50_ms/p90_ms/p95_ms/p99_ms/max_ms (unit latency).
struct BaselineRule {
  std::string text;
  std::string metric;
  std::string op;  // ">=", "<=", ">", "<"
  double threshold = 0;
  WindowSpec window;
};
Result<BaselineRule> ParseBaseline(std::string_view text);
// Evaluates a rule on a window's result; `unit` names the unit ("orders").
BaselineResult EvaluateBaseline(const BaselineRule& rule, const WindowResult& w,
                                const std::string& unit);

}  // namespace sb::metrics

#endif  // STOREBENCH_METRICS_WINDOWS_H_
