// The report's sections for a run: database runs (one instance or many) and timed commands.
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "metrics/windows.h"
#include "report/html/figure_words.h"
#include "report/html/html_parts.h"

namespace sb::report::html {

namespace {

const metrics::HeadlineSpec* SpecNamed(const metrics::RunResult& r, const std::string& name) {
  for (const auto& s : r.headline_specs) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

// The headline `spec` per second over each point of `r`'s series. A point covers the time since
// the one before (since Start for the first): interval_sec, except where the warm-up ends or the
// run ends between two ticks (a late reset moves the end), whose short points divided by the
// whole interval drew a cliff at the end of the chart.
std::vector<double> PerSecond(const metrics::RunResult& r, const metrics::HeadlineSpec& spec) {
  std::vector<double> v;
  for (size_t k = 0; k < r.series.points.size(); ++k) {
    v.push_back(spec.Rate(spec.Count(r.series.points[k]), r.series.PointSeconds(k)));
  }
  return v;
}

// `s` as the chart draws it: a point shorter than half an interval (the run's end a few
// milliseconds after its last tick) is left out of the line, as metrics::PerSecond leaves it out
// of the per-second figures; its handful of units over a few milliseconds drew a spike. The
// table beside the chart keeps its rate.
ChartSeries Drawn(ChartSeries s, const metrics::TimeSeries& series) {
  const double interval = series.interval_sec > 0 ? series.interval_sec : 1;
  double from = 0;
  for (size_t k = 0; k < s.y.size() && k < series.points.size(); ++k) {
    if (series.points[k].t_sec - from < interval / 2) s.y[k] = NAN;
    from = series.points[k].t_sec;
  }
  return s;
}

std::vector<double> Times(const metrics::TimeSeries& s) {
  std::vector<double> t;
  for (const auto& p : s.points) t.push_back(p.t_sec);
  return t;
}

// The warm-up band (Start to the end of the last warm-up point) and the reporting windows.
std::vector<ChartBand> Bands(const metrics::RunResult& r) {
  std::vector<ChartBand> bands;
  double warm_end = -1;
  for (const auto& p : r.series.points) {
    if (p.phase == "warmup") warm_end = p.t_sec;
  }
  // A warm-up that ended on a sample has no point of its own: the configuration says how long
  // it was (seconds).
  const nlohmann::json config = nlohmann::json::parse(r.config_json, nullptr, false);
  if (warm_end <= 0 && config.is_object() && config.contains("warmup_time") &&
      config["warmup_time"].is_number()) {
    warm_end = config["warmup_time"].get<double>();
  }
  if (warm_end > 0) bands.push_back({0, warm_end, "warm-up", true});
  for (const auto& w : r.windows) {
    bands.push_back({w.start_sec, w.end_sec, "window " + w.label, false});
  }
  return bands;
}

// The headline figures with their units and meanings; a run that measured power adds each
// headline per watt (OPM/W) over the measured window, the figure a consolidation report quotes.
// Then every other figure of the result, named as the workload names it, with unit and meaning.
std::string HeadlineTables(const metrics::RunResult& r, const std::string& id) {
  Table h(id + "-headlines", {"metric", "meaning", "unit", "value"});
  for (const auto& [n, v] : r.headlines) {
    const metrics::HeadlineSpec* s = SpecNamed(r, n);
    h.Row({Text(n), Text(s ? s->words : DescribeFigure(n).meaning),
           Text(s ? HeadlineUnit(n, s->per_second) : DescribeFigure(n).unit), Num(v)});
  }
  if (r.headlines.empty()) {
    h.Row({Text(r.headline_name), Text(""), Text(""), Num(r.headline_value)});
  }
  for (const metrics::PowerWindow& w : r.power.windows) {
    if (w.label != "measured") continue;
    for (const auto& [n, v] : w.per_watt) {
      const metrics::HeadlineSpec* s = SpecNamed(r, n);
      h.Row({Text(n + "_per_w"),
             Text((s && !s->words.empty() ? s->words : n) + " per watt of average power (" +
                  Shown(w.avg_w) + " W over the measured window)"),
             Text((s ? HeadlineUnit(n, s->per_second) : n) + " per W"), Num(v)});
    }
  }
  h.Row({Text("measured_sec"), Text("length of the measured window"), Text("s"),
         Num(r.measured_sec)});
  std::string out = "<h3>Headline figures</h3>" + h.Html();
  if (!r.figures.empty()) {
    Table f(id + "-figures", {"figure", "meaning", "unit", "value"});
    for (const auto& [n, v] : r.figures) {
      const FigureWords words = DescribeFigure(n);
      f.Row({Text(n), Text(words.meaning), Text(words.unit), Num(v)});
    }
    out += "<h3>Figures</h3>" + f.Html();
  }
  return out;
}

std::string WindowsTable(const metrics::RunResult& r, const std::string& id) {
  if (r.windows.empty()) return "";
  std::vector<std::string> head = {"window",       "start s",   "end s",
                                   "complete",     "per s min", "per s mean",
                                   "per s median", "per s max", "per minute"};
  std::vector<std::string> names;
  for (const auto& [n, v] : r.windows[0].headlines) {
    names.push_back(n);
    head.push_back(n);
  }
  Table t(id + "-windows", head);
  for (const auto& w : r.windows) {
    std::vector<Cell> row = {Text(w.label),         Num(w.start_sec),
                             Num(w.end_sec),        Text(w.complete ? "yes" : "no"),
                             Num(w.per_sec_min),    Num(w.per_sec_mean),
                             Num(w.per_sec_median), Num(w.per_sec_max),
                             Num(w.per_minute)};
    for (size_t k = 0; k < names.size(); ++k) {
      row.push_back(Num(k < w.headlines.size() ? w.headlines[k].second : NAN));
    }
    t.Row(std::move(row));
  }
  return "<h3>Reporting windows</h3>" + t.Html();
}

std::string LatencyPart(const metrics::RunResult& r, const std::string& id) {
  if (r.type_names.empty()) return "";
  Table t(id + "-latency", {"operation", "count", "mean ms", "min ms", "p50 ms", "p90 ms", "p95 ms",
                            "p99 ms", "p99.9 ms", "max ms"});
  BarChart bars;
  bars.title = "Latency percentiles per operation type (measured window)";
  bars.value_label = "milliseconds (log scale)";
  bars.log_scale = true;  // a 0.02 ms lookup beside a 200 ms purchase
  for (size_t k = 0; k < r.type_names.size() && k < r.latency.size(); ++k) {
    const auto& l = r.latency[k];
    t.Row({Text(r.type_names[k]), Int(static_cast<int64_t>(l.count)), Num(l.mean_ms), Num(l.min_ms),
           Num(l.p50_ms), Num(l.p90_ms), Num(l.p95_ms), Num(l.p99_ms), Num(l.p999_ms),
           Num(l.max_ms)});
    if (l.count == 0) continue;
    for (const auto& [name, v] : {std::pair<const char*, double>{"p50", l.p50_ms},
                                  {"p95", l.p95_ms},
                                  {"p99", l.p99_ms},
                                  {"p99.9", l.p999_ms}}) {
      Bar b;
      b.label = r.type_names[k] + " " + name;
      b.value = v;
      bars.bars.push_back(b);
    }
  }
  std::string out = "<h3>Latency</h3>";
  if (!bars.bars.empty()) {
    out += Figure(RenderBarChart(bars, id + "-latency-chart"), t,
                  "Latency percentiles per operation type over the measured window");
  } else {
    out += t.Html();
  }
  out += InstanceLatencyFigure(r, id);
  out += LatencyDistributionFigure(r, id);
  // p99 per second per type.
  if (!r.series.points.empty()) {
    LineChart c;
    c.title = "99th percentile latency per second";
    c.x_label = "seconds since start";
    c.y_label = "ms (log scale)";
    c.log_y = true;
    c.bands = Bands(r);
    std::vector<std::string> head = {"t s"};
    for (size_t k = 0; k < r.series.type_names.size(); ++k) {
      ChartSeries s;
      s.name = r.series.type_names[k];
      for (const auto& p : r.series.points) {
        s.x.push_back(p.t_sec);
        s.y.push_back(k < p.type_counts.size() && p.type_counts[k] > 0 ? p.type_p99_ms[k] : NAN);
      }
      c.series.push_back(std::move(s));
      head.push_back(r.series.type_names[k] + " p99 ms");
    }
    Table pt(id + "-latency-series", head);
    for (const auto& p : r.series.points) {
      std::vector<Cell> row = {Num(p.t_sec)};
      for (size_t k = 0; k < r.series.type_names.size(); ++k) {
        row.push_back(
            Num(k < p.type_counts.size() && p.type_counts[k] > 0 ? p.type_p99_ms[k] : NAN));
      }
      pt.Row(std::move(row));
    }
    out += Figure(RenderLineChart(c, id + "-latency-series-chart"), pt,
                  "p99 latency of each operation type, second by second");
  }
  return out;
}

std::string CountersPart(const metrics::RunResult& r, const std::string& id) {
  if (r.series.points.empty() || r.series.counter_names.empty()) return "";
  LineChart c;
  c.title = "Errors, retries and other counters per second";
  c.x_label = "seconds since start";
  c.y_label = "per second";
  c.bands = Bands(r);
  std::vector<std::string> head = {"t s"};
  for (size_t j = 0; j < r.series.counter_names.size(); ++j) {
    ChartSeries s;
    s.name = r.series.counter_names[j];
    s.x = Times(r.series);
    for (const auto& p : r.series.points) {
      s.y.push_back(j < p.counters.size() ? static_cast<double>(p.counters[j]) : NAN);
    }
    c.series.push_back(std::move(s));
    head.push_back(r.series.counter_names[j]);
  }
  Table t(id + "-counters", head);
  for (const auto& p : r.series.points) {
    std::vector<Cell> row = {Num(p.t_sec)};
    for (size_t j = 0; j < r.series.counter_names.size(); ++j) {
      row.push_back(j < p.counters.size() ? Int(p.counters[j]) : Text(""));
    }
    t.Row(std::move(row));
  }
  std::string errors;
  for (const auto& [k, v] : r.errors) {
    if (!errors.empty()) errors += ", ";
    errors += k;
    errors += " " + std::to_string(v);
  }
  return "<h3>Errors and retries</h3><p>Errors over the whole run: " +
         HtmlEscape(errors.empty() ? "none" : errors) + "; retries " + std::to_string(r.retries) +
         ".</p>" +
         Figure(RenderLineChart(c, id + "-counters-chart"), t,
                "How much each counter grew in each second");
}

std::string CpuPart(const metrics::RunResult& r, const PowerSummary& power, const std::string& id) {
  std::string out = "<h3>CPU and power</h3>";
  Table d(id + "-driver-cpu", {"driver (storebench) CPU", "value"});
  d.Row({Text("CPU seconds over the measured window"), Num(r.driver_cpu_sec)});
  d.Row({Text("CPU seconds per headline unit"), Num(r.driver_cpu_sec_per_op)});
  d.Row({Text("share of one core"), Num(r.driver_cpu_share)});
  out += d.Html();
  if (!r.sut_cpu.points.empty()) {
    LineChart c;
    c.title = "System under test CPU (" + r.sut_cpu.source + ")";
    c.x_label = "seconds since start";
    c.y_label = "% of all CPUs";
    c.bands = Bands(r);
    Table t(id + "-sut-cpu", {"t s", "utilization %", "user %", "system %", "iowait %", "steal %"});
    ChartSeries u{"utilization", {}, {}}, us{"user", {}, {}}, sy{"system", {}, {}},
        io{"iowait", {}, {}};
    for (const auto& p : r.sut_cpu.points) {
      for (ChartSeries* s : {&u, &us, &sy, &io}) s->x.push_back(p.t_sec);
      u.y.push_back(p.utilization_pct);
      us.y.push_back(p.user_pct);
      sy.y.push_back(p.system_pct);
      io.y.push_back(p.iowait_pct);
      t.Row({Num(p.t_sec), Num(p.utilization_pct), Num(p.user_pct), Num(p.system_pct),
             Num(p.iowait_pct), Num(p.steal_pct)});
    }
    c.series = {u, us, sy, io};
    out +=
        Figure(RenderLineChart(c, id + "-sut-cpu-chart"), t,
               "System under test CPU each second: mean " + Shown(r.sut_cpu.measured_mean_pct) +
                   " %, max " + Shown(r.sut_cpu.measured_max_pct) + " % over the measured window");
  } else {
    out += "<p>System under test CPU: not sampled" +
           (r.sut_cpu.error.empty() ? std::string() : " (" + HtmlEscape(r.sut_cpu.error) + ")") +
           ".</p>";
  }
  if (power.present) {
    Table t(id + "-power", {"t s", "W"});
    for (const auto& [ts, w] : power.points) t.Row({Num(ts), Num(w)});
    std::string caption =
        "Power (" + power.source + "): mean " + Shown(power.mean_w) + " W over the measured window";
    if (!r.headlines.empty() && power.mean_w > 0) {
      caption +=
          "; " + r.headlines[0].first + " per watt " + Shown(r.headlines[0].second / power.mean_w);
    }
    if (!power.points.empty()) {
      LineChart c;
      c.title = "Power";
      c.x_label = "seconds since start";
      c.y_label = "W";
      c.bands = Bands(r);
      ChartSeries s{"power", {}, {}};
      for (const auto& [ts, w] : power.points) {
        s.x.push_back(ts);
        s.y.push_back(w);
      }
      c.series = {s};
      out += Figure(RenderLineChart(c, id + "-power-chart"), t, caption);
    } else {
      out += "<p>" + HtmlEscape(caption) + ".</p>";
    }
    // Each window's average, energy and figures per watt, as the result records them.
    std::vector<std::string> head = {"window",  "start s", "end s",   "seconds",
                                     "missing", "avg W",   "energy J"};
    const auto& windows = r.power.windows;
    if (!windows.empty()) {
      for (const auto& [name, v] : windows[0].per_watt) head.push_back(name + " per W");
      Table pw(id + "-power-windows", head);
      for (const metrics::PowerWindow& w : windows) {
        std::vector<Cell> row = {Text(w.label),  Num(w.start_sec), Num(w.end_sec), Int(w.seconds),
                                 Int(w.missing), Num(w.avg_w),     Num(w.energy_j)};
        for (size_t k = 0; k < windows[0].per_watt.size(); ++k) {
          row.push_back(Num(k < w.per_watt.size() ? w.per_watt[k].second : NAN));
        }
        pw.Row(std::move(row));
      }
      out += pw.Html();
    }
  }
  return out;
}

std::string InstancesPart(const metrics::RunResult& r, const std::string& id) {
  if (r.instances.empty()) return "";
  std::vector<std::string> head = {"instance", "target"};
  for (const auto& [n, v] : r.headlines) head.push_back(n);
  head.emplace_back("baselines");
  Table t(id + "-instances", head);
  for (const auto& i : r.instances) {
    std::vector<Cell> row = {Text(i.name), Text(i.target)};
    for (const auto& [n, v] : r.headlines) {
      double x = NAN;
      for (const auto& [in, iv] : i.headlines) {
        if (in == n) x = iv;
      }
      row.push_back(Num(x));
    }
    const bool all = std::all_of(i.baselines.begin(), i.baselines.end(),
                                 [](const metrics::BaselineResult& b) { return b.passed; });
    row.push_back(i.baselines.empty() ? Text("none") : Pass(all));
    t.Row(std::move(row));
  }
  return "<h3>Instances</h3>" + t.Html();
}

}  // namespace

std::string Warnings(const metrics::RunResult& r) {
  std::string out;
  for (const std::string& w : r.warnings) out += "<p class='warn'>" + HtmlEscape(w) + "</p>";
  return out;
}

std::string Verdicts(const metrics::RunResult& r, const std::string& id) {
  std::string out;
  if (!r.baselines.empty()) {
    Table t(id + "-baselines",
            {"baseline", "in words", "judged", "measured", "verdict", "decided by"});
    for (const auto& b : r.baselines) {
      t.Row({Text(b.rule), Text(b.words), Text(b.kind), Num(b.measured), Pass(b.passed),
             Text(b.decided_by)});
    }
    out += "<h3>Baselines</h3>" + t.Html();
  }
  if (r.steady_state.evaluated) {
    out += "<p>Steady state: " + HtmlEscape(r.steady_state.detail) + "</p>";
  }
  if (!r.verify.empty()) {
    Table t(id + "-verify", {"check", "verdict", "detail"});
    for (const auto& c : r.verify) t.Row({Text(c.name), Pass(c.passed), Text(c.detail)});
    out += "<h3>Verification</h3>" + t.Html();
  }
  return out;
}

bool BaselineThreshold(const metrics::RunResult& r, const std::string& metric, double* threshold,
                       std::string* rule) {
  for (const auto& b : r.baselines) {
    auto parsed = metrics::ParseBaseline(b.rule, r.headline_specs);
    if (parsed.ok() && parsed->metric == metric) {
      *threshold = parsed->threshold;
      *rule = b.rule;
      return true;
    }
  }
  return false;
}

std::string ThroughputFigure(const metrics::RunResult& r, const std::string& id) {
  if (r.series.points.empty()) return "";
  const std::string name = r.headline_name;
  const metrics::HeadlineSpec* spec = SpecNamed(r, name);
  if (spec == nullptr) return "<p>No headline definition in this result: no per-second chart.</p>";
  LineChart c;
  c.title = (spec->words.empty() ? name : spec->words) + " per second of the run";
  c.x_label = "seconds since start";
  c.y_label = name;
  c.bands = Bands(r);
  std::vector<std::string> head = {"t s", "phase", r.instances.empty() ? name : "all " + name};
  ChartSeries all{r.instances.empty() ? name : "aggregate", Times(r.series), PerSecond(r, *spec)};
  std::vector<ChartSeries> per;
  for (const auto& i : r.instances) {
    const metrics::HeadlineSpec* is = SpecNamed(i, name);
    ChartSeries s{"instance " + i.name, Times(i.series), PerSecond(i, is ? *is : *spec)};
    per.push_back(std::move(s));
    head.push_back(i.name);
  }
  // With instances, the aggregate dwarfs them: they get a chart of their own.
  double threshold = 0;
  std::string rule;
  const bool has_baseline = BaselineThreshold(r, name, &threshold, &rule);
  std::string out;
  Table t(id + "-throughput", head);
  for (size_t k = 0; k < r.series.points.size(); ++k) {
    std::vector<Cell> row = {Num(all.x[k]), Text(r.series.points[k].phase), Num(all.y[k])};
    for (const auto& s : per) row.push_back(Num(k < s.y.size() ? s.y[k] : NAN));
    t.Row(std::move(row));
  }
  c.series = {Drawn(all, r.series)};
  if (has_baseline && per.empty()) c.lines.push_back({threshold, "baseline " + rule});
  std::string chart = RenderLineChart(c, id + "-throughput-chart");
  if (!per.empty()) {
    LineChart ci = c;
    ci.title = (spec->words.empty() ? name : spec->words) + " per second, each instance";
    ci.series.clear();
    for (size_t i = 0; i < per.size(); ++i) {
      ci.series.push_back(Drawn(per[i], r.instances[i].series));
    }
    if (has_baseline) ci.lines.push_back({threshold, "baseline " + rule + " (each instance)"});
    chart += RenderLineChart(ci, id + "-instances-chart");
  }
  return Figure(chart, t,
                "Throughput second by second: warm-up shaded grey, reporting windows blue" +
                    std::string(has_baseline ? ", the baseline dashed red" : ""));
}

std::string RunSection(const metrics::RunResult& r, const PowerSummary& power,
                       const std::string& id) {
  std::string out = "<p class='meta'>" + HtmlEscape(r.workload) +
                    (r.label.empty() ? "" : ", label <b>" + HtmlEscape(r.label) + "</b>") + ", " +
                    HtmlEscape(r.started_at) + " – " + HtmlEscape(r.ended_at) + ", " +
                    HtmlEscape(r.loop_model) + (r.interrupted ? ", <b>interrupted</b>" : "") +
                    "</p>";
  out += Warnings(r);
  out += HeadlineTables(r, id);
  out += Verdicts(r, id);
  out += InstancesPart(r, id);
  if (!r.series.points.empty()) out += "<h3>Throughput</h3>" + ThroughputFigure(r, id);
  out += WindowsTable(r, id);
  out += LatencyPart(r, id);
  out += CountersPart(r, id);
  out += CpuPart(r, power, id);
  return out;
}

}  // namespace sb::report::html
