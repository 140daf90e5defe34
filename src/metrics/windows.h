// Reporting windows, baselines and steady-state detection: pure functions on measured data, so
// they can be tested on synthetic series with known answers.
#ifndef STOREBENCH_METRICS_WINDOWS_H_
#define STOREBENCH_METRICS_WINDOWS_H_

#include <string>
#include <string_view>
#include <vector>

#include "metrics/headline.h"
#include "metrics/run_result.h"
#include "storebench/status.h"

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
// ends in (start_sec, end_sec], each point's count over interval_sec. A point covers the time
// since the previous one; one shorter than half of interval_sec (the run's end just after a
// tick) is left out.
std::vector<double> PerSecond(const TimeSeries& series, int type, double start_sec, double end_sec);

// The rates of `type` (units per second, each point's count over its own span) of the points
// lying wholly in the measured window (start_sec, end_sec]: a point that began before the window
// (the one covering a pause for the server's reading before the reset) and a point shorter than
// half an interval (the ticks the controller catches up after that pause, milliseconds apart)
// are left out, as their counts say nothing of a rate per second.
std::vector<double> MeasuredPerSecond(const TimeSeries& series, int type, double start_sec,
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

// A baseline rule: "<metric><op><value>@<window>", e.g. "opm>=2600@23m-28m"; the window "run"
// is the measured window, whatever its length ("units>=1000@run").
// Metrics: opm (units per minute over the window), min_opm (lowest per-second rate × 60),
// running_opm (DVD Store's running average, lowest at the window's start and end),
// tps (units per second over the window), units (units completed in the window),
// p50_ms/p90_ms/p95_ms/p99_ms/max_ms (unit latency), and the workload's headline metrics.
inline constexpr const char* kWholeRunWindow = "run";
// How a rate rule is judged over its window (the methods differ, and so do the peaks they find):
//   window_mean     units in the window / the window's length (e.g. orders in minutes 23-28 / 5);
//   every_interval  every whole 10-s interval of the window at or above (the lowest decides);
//   ds_cumulative   DVD Store 3's cumulative figure (units since the warm-up reset / time since
//                   it) at every second of the window (the lowest decides).
enum class BaselineKind { kWindowMean, kEveryInterval, kDsCumulative };
const char* BaselineKindName(BaselineKind k);
Result<BaselineKind> ParseBaselineKind(std::string_view name);

struct BaselineRule {
  std::string text;
  BaselineKind kind = BaselineKind::kWindowMean;
  std::string metric;
  std::string op;  // ">=", "<=", ">", "<"
  double threshold = 0;
  WindowSpec window;
};
// `headlines`: the workload's, whose names a rule may use besides the generic metrics.
Result<BaselineRule> ParseBaseline(std::string_view text,
                                   const std::vector<HeadlineSpec>& headlines = {});
// Evaluates a rule on a window's result; `unit` names the unit ("orders"). Judges rates by their
// window mean.
BaselineResult EvaluateBaseline(const BaselineRule& rule, const WindowResult& w,
                                const std::string& unit);

// What a rule may also need: the run's time series (1-s points from Start), the warm-up reset's
// time from Start, and the workload's headline metrics (a rule may name any of them: qps, iops).
struct BaselineContext {
  const TimeSeries* series = nullptr;
  double reset_sec = 0;
  const std::vector<HeadlineSpec>* headlines = nullptr;
};
BaselineResult EvaluateBaseline(const BaselineRule& rule, const WindowResult& w,
                                const std::string& unit, const BaselineContext& context);
// The metrics a rule may name besides the workload's headlines.
bool IsBaselineMetric(const std::string& metric, const std::vector<HeadlineSpec>& headlines);

// For a run of several instances: the rule's verdict over all of them (passed when every
// instance passed; the measured figure is the lowest, or for an upper bound the highest, and
// `names[i]` the instance that has it).
// `what` names the parts ("instance"; storage runs: "specification").
BaselineResult CombineBaselines(const std::vector<BaselineResult>& per_instance,
                                const std::vector<std::string>& names, const BaselineRule& rule,
                                const std::string& what = "instance");

}  // namespace sb::metrics

#endif  // STOREBENCH_METRICS_WINDOWS_H_
