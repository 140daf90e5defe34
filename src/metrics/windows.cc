#include "metrics/windows.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>

#include "base/units.h"

namespace sb::metrics {

Result<std::vector<WindowSpec>> ParseWindows(std::string_view text) {
  std::vector<WindowSpec> out;
  constexpr int64_t kMinute = 60LL * 1000 * 1000 * 1000;
  while (!text.empty()) {
    const size_t comma = text.find(',');
    const std::string_view one = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    const size_t dash = one.find('-');
    const auto bad = [&] {
      return Status::InvalidArgument("window '" + std::string(one) +
                                     "' is not START-END like 23m-28m or 90s-300s");
    };
    if (dash == std::string_view::npos) return bad();
    auto a = ParseDurationNanos(one.substr(0, dash), kMinute);
    auto b = ParseDurationNanos(one.substr(dash + 1), kMinute);
    if (!a.ok() || !b.ok()) return bad();
    if (*a >= *b) {
      return Status::InvalidArgument("window '" + std::string(one) + "' ends before it starts");
    }
    out.push_back({std::string(one), static_cast<double>(*a) / 1e9, static_cast<double>(*b) / 1e9});
  }
  if (out.empty()) return Status::InvalidArgument("empty window list");
  return out;
}

namespace {

// Calls f(count, span) for each point of `type` at least half an interval long whose interval
// ends in (start_sec, end_sec] (`whole`: and began at or after start_sec), with its count and
// the seconds it covers (since the previous point; the first since Start). A shorter point
// (the run's end just after a tick, or the ticks the controller catches up after a pause,
// milliseconds apart) is no second's rate: counted over a whole interval a 1.4 ms last point
// made min_opm@run fail half of all runs.
template <typename F>
void ForEachRatePoint(const TimeSeries& series, int type, double start_sec, double end_sec,
                      bool whole, F f) {
  constexpr double kSlack = 0.05;  // ticks land a few ms after the second
  const double interval = series.interval_sec > 0 ? series.interval_sec : 1;
  double begins = 0;
  for (const auto& p : series.points) {
    const double span = p.t_sec - begins;
    const bool starts_inside = whole ? begins >= start_sec - kSlack : p.t_sec > start_sec + kSlack;
    begins = p.t_sec;
    if (span < interval / 2 || !starts_inside || p.t_sec > end_sec + kSlack ||
        type >= static_cast<int>(p.type_counts.size())) {
      continue;
    }
    f(static_cast<double>(p.type_counts[type]), span);
  }
}

}  // namespace

std::vector<double> PerSecond(const TimeSeries& series, int type, double start_sec,
                              double end_sec) {
  const double interval = series.interval_sec > 0 ? series.interval_sec : 1;
  std::vector<double> v;
  ForEachRatePoint(series, type, start_sec, end_sec, /*whole=*/false,
                   [&](double count, double) { v.push_back(count / interval); });
  return v;
}

std::vector<double> MeasuredPerSecond(const TimeSeries& series, int type, double start_sec,
                                      double end_sec) {
  std::vector<double> v;
  ForEachRatePoint(series, type, start_sec, end_sec, /*whole=*/true,
                   [&](double count, double span) { v.push_back(count / span); });
  return v;
}

Spread SpreadOf(std::vector<double> values) {
  Spread s;
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  s.min = values.front();
  s.max = values.back();
  s.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  const size_t n = values.size();
  s.median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  return s;
}

SteadyStateResult DetectSteadyState(const std::vector<double>& y, double max_slope_pct,
                                    double max_cv_pct, int min_points) {
  SteadyStateResult r;
  r.max_slope_pct = max_slope_pct;
  r.max_cv_pct = max_cv_pct;
  const auto n = static_cast<double>(y.size());
  if (static_cast<int>(y.size()) < min_points) {
    r.detail = "not evaluated: " + std::to_string(y.size()) + " seconds measured, at least " +
               std::to_string(min_points) + " needed";
    return r;
  }
  r.evaluated = true;
  const double mean = std::accumulate(y.begin(), y.end(), 0.0) / n;
  if (mean <= 0) {
    r.detail = "not steady: no throughput";
    return r;
  }
  // Least-squares slope over x = 0..n-1.
  const double xm = (n - 1) / 2;
  double sxy = 0, sxx = 0, ss = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    const double dx = static_cast<double>(i) - xm;
    sxy += dx * (y[i] - mean);
    sxx += dx * dx;
    ss += (y[i] - mean) * (y[i] - mean);
  }
  const double slope = sxx > 0 ? sxy / sxx : 0;
  r.slope_pct = 100.0 * slope * (n - 1) / mean;
  r.cv_pct = 100.0 * std::sqrt(ss / n) / mean;
  r.steady = std::fabs(r.slope_pct) <= max_slope_pct && r.cv_pct <= max_cv_pct;
  char buf[240];
  std::snprintf(buf, sizeof buf,
                "%s: throughput changed %+.1f %% across the window (limit %.1f %%) with a "
                "per-second spread of %.1f %% (limit %.1f %%)",
                r.steady ? "steady" : "not steady", r.slope_pct, max_slope_pct, r.cv_pct,
                max_cv_pct);
  r.detail = buf;
  return r;
}

const char* BaselineKindName(BaselineKind k) {
  switch (k) {
    case BaselineKind::kWindowMean:
      return "window_mean";
    case BaselineKind::kEveryInterval:
      return "every_interval";
    case BaselineKind::kDsCumulative:
      return "ds_cumulative";
  }
  return "window_mean";
}

Result<BaselineKind> ParseBaselineKind(std::string_view name) {
  for (BaselineKind k :
       {BaselineKind::kWindowMean, BaselineKind::kEveryInterval, BaselineKind::kDsCumulative}) {
    if (name == BaselineKindName(k)) return k;
  }
  return Status::InvalidArgument("unknown baseline rule '" + std::string(name) +
                                 "' (window_mean, every_interval, ds_cumulative)");
}

namespace {
constexpr const char* kGenericMetrics[] = {"opm",    "min_opm", "running_opm", "tps",    "units",
                                           "p50_ms", "p90_ms",  "p95_ms",      "p99_ms", "max_ms"};
bool IsLatencyMetric(const std::string& m) { return m.size() > 3 && m.ends_with("_ms"); }
}  // namespace

bool IsBaselineMetric(const std::string& metric, const std::vector<HeadlineSpec>& headlines) {
  return std::find(std::begin(kGenericMetrics), std::end(kGenericMetrics), metric) !=
             std::end(kGenericMetrics) ||
         FindHeadline(headlines, metric) != nullptr;
}

Result<BaselineRule> ParseBaseline(std::string_view text,
                                   const std::vector<HeadlineSpec>& headlines) {
  BaselineRule r;
  r.text = std::string(text);
  const auto bad = [&](const std::string& why) {
    return Status::InvalidArgument("baseline '" + std::string(text) + "' " + why +
                                   " (expected e.g. opm>=2600@23m-28m)");
  };
  const size_t at = text.find('@');
  if (at == std::string_view::npos) return bad("names no window after '@'");
  if (text.substr(at + 1) == kWholeRunWindow) {
    r.window.label = kWholeRunWindow;
  } else {
    auto windows = ParseWindows(text.substr(at + 1));
    if (!windows.ok()) return bad("has a bad window");
    if (windows->size() != 1) return bad("must name one window");
    r.window = windows->front();
  }
  const std::string_view cond = text.substr(0, at);
  size_t op_pos = cond.find_first_of("<>");
  if (op_pos == std::string_view::npos) return bad("has no comparison (>=, <=, >, <)");
  r.metric = std::string(cond.substr(0, op_pos));
  size_t val_pos = op_pos + 1;
  if (val_pos < cond.size() && cond[val_pos] == '=') ++val_pos;
  r.op = std::string(cond.substr(op_pos, val_pos - op_pos));
  auto v = ParseDouble(cond.substr(val_pos), "baseline value");
  if (!v.ok()) return bad("has a bad value");
  r.threshold = *v;
  if (!IsBaselineMetric(r.metric, headlines)) {
    std::string known =
        "opm, min_opm, running_opm, tps, units, p50_ms, p90_ms, p95_ms, p99_ms, max_ms";
    for (const HeadlineSpec& h : headlines) {
      if (known.find(h.name) == std::string::npos) known += ", " + h.name;
    }
    return bad("uses unknown metric '" + r.metric + "' (" + known + ")");
  }
  return r;
}

BaselineResult EvaluateBaseline(const BaselineRule& rule, const WindowResult& w,
                                const std::string& unit) {
  return EvaluateBaseline(rule, w, unit, BaselineContext());
}

namespace {

// The rate spec a rule's metric names: the workload's headline, or units per minute / second.
HeadlineSpec RateSpec(const std::string& metric, const std::vector<HeadlineSpec>* headlines) {
  if (headlines != nullptr) {
    if (const HeadlineSpec* h = FindHeadline(*headlines, metric)) return *h;
  }
  if (metric == "tps") return UnitsPerSecond("tps", "units per second");
  return UnitsPerMinute(metric, "units per minute");
}

// The series points whose interval ends in (start, end], as (end time, count of `h`).
std::vector<std::pair<double, double>> PointsIn(const TimeSeries& series, const HeadlineSpec& h,
                                                double start, double end) {
  std::vector<std::pair<double, double>> out;
  for (const IntervalPoint& p : series.points) {
    if (p.t_sec > start + 1e-6 && p.t_sec <= end + 0.05) out.emplace_back(p.t_sec, h.Count(p));
  }
  return out;
}

// The lowest rate over the whole `step`-second intervals of [start, end] (NaN if none).
double LowestIntervalRate(const TimeSeries& series, const HeadlineSpec& h, double start, double end,
                          double step) {
  double lowest = std::numeric_limits<double>::quiet_NaN();
  const auto points = PointsIn(series, h, start, end);
  double from = start, count = 0;
  for (const auto& [t, n] : points) {
    count += n;
    if (t + 0.05 >= from + step) {
      const double rate = h.Rate(count, t - from);
      lowest = std::isnan(lowest) ? rate : std::min(lowest, rate);
      from = t;
      count = 0;
    }
  }
  return lowest;
}

// DVD Store 3's cumulative figure (since the reset) at every point in the window; the lowest.
double LowestCumulativeRate(const TimeSeries& series, const HeadlineSpec& h, double reset_sec,
                            double start, double end) {
  double lowest = std::numeric_limits<double>::quiet_NaN();
  double since_reset = 0;
  for (const IntervalPoint& p : series.points) {
    if (p.t_sec <= reset_sec + 1e-6) continue;
    since_reset += h.Count(p);
    if (p.t_sec > start + 1e-6 && p.t_sec <= end + 0.05) {
      // DVD Store floors its OPM; the other figures are kept exact.
      double rate = h.Rate(since_reset, p.t_sec - reset_sec);
      if (h.per_second == 60) rate = std::floor(rate);
      lowest = std::isnan(lowest) ? rate : std::min(lowest, rate);
    }
  }
  return lowest;
}

}  // namespace

BaselineResult EvaluateBaseline(const BaselineRule& rule, const WindowResult& w,
                                const std::string& unit, const BaselineContext& context) {
  BaselineResult b;
  b.rule = rule.text;
  b.kind = BaselineKindName(rule.kind);
  const LatencySummary unit_latency = w.latency.empty() ? LatencySummary() : w.latency[0];
  std::string what;
  // Rates are judged by the rule's kind; latencies, counts and DVD Store's own figures are not.
  const bool rate_metric = !IsLatencyMetric(rule.metric) && rule.metric != "min_opm" &&
                           rule.metric != "running_opm" && rule.metric != "units";
  const HeadlineSpec* headline =
      context.headlines != nullptr ? FindHeadline(*context.headlines, rule.metric) : nullptr;
  if (rate_metric && rule.kind != BaselineKind::kWindowMean && context.series != nullptr) {
    const HeadlineSpec h = RateSpec(rule.metric, context.headlines);
    const std::string words = headline != nullptr    ? headline->words
                              : rule.metric == "tps" ? unit + " per second"
                                                     : unit + " per minute";
    if (rule.kind == BaselineKind::kEveryInterval) {
      b.measured = LowestIntervalRate(*context.series, h, w.start_sec, w.end_sec, 10);
      what = "the lowest " + words + " of the window's 10-s intervals";
    } else {
      b.measured =
          LowestCumulativeRate(*context.series, h, context.reset_sec, w.start_sec, w.end_sec);
      what = "the lowest cumulative " + words +
             " since the warm-up reset (DVD Store's figure) "
             "at any second of the window";
    }
    if (std::isnan(b.measured)) b.measured = 0;
  } else if (headline != nullptr && rule.metric != "opm" && rule.metric != "tps") {
    b.measured = 0;
    for (const auto& [name, value] : w.headlines) {
      if (name == rule.metric) b.measured = value;
    }
    what = headline->words + " over the window";
  } else if (rule.metric == "units") {
    b.measured = w.latency.empty() ? 0 : static_cast<double>(w.latency[0].count);
    what = "the number of " + unit + " completed";
  } else if (rule.metric == "opm") {
    b.measured = w.per_minute;
    what = unit + " per minute over the window";
  } else if (rule.metric == "min_opm") {
    b.measured = w.per_sec_min * 60;
    what = "the lowest per-second rate of " + unit + " (per minute)";
  } else if (rule.metric == "running_opm") {
    b.measured = std::min(w.running_start, w.running_end);
    what = "DVD Store's running-average OPM at the window's start and end (the lower)";
  } else if (rule.metric == "tps") {
    b.measured = w.per_minute / 60;
    what = unit + " per second over the window";
  } else {
    const std::string p = rule.metric.substr(0, rule.metric.size() - 3);
    what = p + " latency of " + unit + " in ms";
    b.measured = p == "p50"   ? unit_latency.p50_ms
                 : p == "p90" ? unit_latency.p90_ms
                 : p == "p95" ? unit_latency.p95_ms
                 : p == "p99" ? unit_latency.p99_ms
                              : unit_latency.max_ms;
  }
  const double v = b.measured, t = rule.threshold;
  if (!rate_metric || rule.kind == BaselineKind::kWindowMean) b.kind = "window_mean";
  b.passed = rule.op == ">=" ? v >= t : rule.op == "<=" ? v <= t : rule.op == ">" ? v > t : v < t;
  if (!w.complete) b.passed = false;
  const char* op_words = rule.op == ">="   ? "at least"
                         : rule.op == "<=" ? "at most"
                         : rule.op == ">"  ? "more than"
                                           : "less than";
  char buf[320];
  if (rule.window.label == kWholeRunWindow) {
    std::snprintf(buf, sizeof buf, "%s in the measured window must be %s %g%s", what.c_str(),
                  op_words, t, w.complete ? "" : "; the run was interrupted");
  } else {
    std::snprintf(buf, sizeof buf, "%s in %s (%g s to %g s from start) must be %s %g%s",
                  what.c_str(), rule.window.label.c_str(), rule.window.start_sec,
                  rule.window.end_sec, op_words, t,
                  w.complete ? "" : "; the run did not cover the whole window");
  }
  b.words = buf;
  return b;
}

}  // namespace sb::metrics

namespace sb::metrics {

BaselineResult CombineBaselines(const std::vector<BaselineResult>& per_instance,
                                const std::vector<std::string>& names, const BaselineRule& rule,
                                const std::string& what) {
  BaselineResult b;
  b.rule = rule.text;
  b.kind = per_instance.empty() ? BaselineKindName(rule.kind) : per_instance[0].kind;
  b.passed = !per_instance.empty();
  const bool upper_bound = rule.op[0] == '<';
  int passed = 0;
  for (size_t i = 0; i < per_instance.size(); ++i) {
    const BaselineResult& r = per_instance[i];
    if (r.passed) ++passed;
    b.passed = b.passed && r.passed;
    const bool decides =
        i == 0 || (upper_bound ? r.measured > b.measured : r.measured < b.measured);
    if (decides) {
      b.measured = r.measured;
      b.decided_by = i < names.size() ? names[i] : "";
      b.words = r.words;
    }
  }
  b.words = "every " + what + ": " + b.words + " (" + std::to_string(passed) + " of " +
            std::to_string(per_instance.size()) + " passed; " +
            (upper_bound ? "highest" : "lowest") + ": " + what + " " + b.decided_by + ")";
  return b;
}

}  // namespace sb::metrics
