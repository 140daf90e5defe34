// The report's sections for a consolidation search and a comparison.
#include <algorithm>
#include <cmath>

#include "report/html/html_parts.h"

namespace sb::report::html {

namespace {

// compare's latency metrics: "p99_ms.purchase", "<spec>.avg_response_ms", "<spec>.p99_ms".
bool IsLatencyMetric(const std::string& name) {
  return name.find("_ms.") != std::string::npos ||
         (name.size() >= 3 && name.compare(name.size() - 3, 3, "_ms") == 0);
}

}  // namespace

std::string SearchSection(const ReportItem& item, const std::string& id) {
  const Search& s = item.file.search;
  std::string out = "<p class='meta'>plan " + HtmlEscape(s.plan) + ", " + HtmlEscape(s.step) +
                    " step over " + std::to_string(s.from) + ".." + std::to_string(s.to) +
                    " instances, " + std::to_string(s.runs) +
                    " run(s) per count, each count decided on its median run" +
                    (s.finished ? "" : "; <b>the search did not finish</b>") + "</p>";
  out += "<p><b>Peak: " +
         (s.peak > 0 ? std::to_string(s.peak) + " instance(s)"
                     : std::string("none (the first count failed)")) +
         "</b></p>";
  std::vector<SearchCount> counts = s.counts;
  std::sort(counts.begin(), counts.end(),
            [](const SearchCount& a, const SearchCount& b) { return a.count < b.count; });
  Table t(id + "-verdicts", {"instances", "runs passed", "instance min", "instance median",
                             "aggregate", "verdict", "median run"});
  LineChart per, agg;
  per.title = "Per instance " + s.headline + " of the median run, by instance count";
  per.x_label = "instances";
  per.y_label = s.headline;
  per.markers = true;
  per.integer_x = true;  // instance counts
  agg = per;
  agg.title = "Aggregate " + s.headline + " of the median run, by instance count";
  ChartSeries mn{"instance min", {}, {}}, md{"instance median", {}, {}}, ag{"aggregate", {}, {}};
  for (const SearchCount& c : counts) {
    if (c.median_run < 0) {
      t.Row({Int(c.count),
             Text(std::to_string(c.runs_passed()) + " of " + std::to_string(c.runs.size()) +
                  " (unfinished)"),
             Text(""), Text(""), Text(""), Text("—"), Text("")});
      continue;
    }
    const SearchRun& m = c.runs[static_cast<size_t>(c.median_run)];
    t.Row({Int(c.count),
           Text(std::to_string(c.runs_passed()) + " of " + std::to_string(c.runs.size())),
           Num(m.instance_min), Num(m.instance_median), Num(m.aggregate), Pass(c.passed),
           Text(m.result_file)});
    for (ChartSeries* x : {&mn, &md, &ag}) x->x.push_back(c.count);
    mn.y.push_back(m.instance_min);
    md.y.push_back(m.instance_median);
    ag.y.push_back(m.aggregate);
  }
  per.series = {mn, md};
  agg.series = {ag};
  // The baseline from a median run's result (the rule is the same for every run of a search).
  for (const auto& [count, run] : item.median_runs) {
    double threshold = 0;
    std::string rule;
    if (BaselineThreshold(run, s.headline, &threshold, &rule)) {
      per.lines.push_back({threshold, "baseline " + rule});
      break;
    }
  }
  out +=
      "<h3>Verdicts</h3>" +
      Figure(RenderLineChart(per, id + "-search-chart") +
                 RenderLineChart(agg, id + "-search-aggregate-chart"),
             t,
             "Instance count against the median run's lowest, median and aggregate " + s.headline);
  out += SearchWindowTable(s, id);
  // Per-instance series of the median run at the peak (or the highest count run).
  const metrics::RunResult* shown = nullptr;
  int shown_count = 0;
  for (const auto& [count, run] : item.median_runs) {
    if (count == s.peak || (shown == nullptr && count > shown_count)) {
      shown = &run;
      shown_count = count;
      if (count == s.peak) break;
    }
  }
  if (shown != nullptr) {
    const std::string run_id = id + "-n" + std::to_string(shown_count);
    out += "<h3>Median run at " + std::to_string(shown_count) + " instance(s)</h3>" +
           ThroughputFigure(*shown, run_id) + InstanceLatencyFigure(*shown, run_id);
  }
  return out;
}

std::string ComparisonSection(const Comparison& c, const std::string& id) {
  std::string out = "<p class='meta'>" + HtmlEscape(c.workload) + ": ";
  for (size_t g = 0; g < c.labels.size(); ++g) {
    out += (g ? ", " : "") + std::string("<b>") + HtmlEscape(c.labels[g]) + "</b> (" +
           std::to_string(c.files[g].size()) + " run(s))";
  }
  out += ". Each group is compared with <b>" + HtmlEscape(c.labels.empty() ? "" : c.labels[0]) +
         "</b>: the ratio of the means with a " + Shown(c.options.confidence * 100) +
         " % interval from a hierarchical bootstrap (runs, then instances within runs; " +
         std::to_string(c.options.resamples) + " resamples, seed " +
         std::to_string(c.options.seed) +
         "). A verdict is given only when the interval excludes "
         "1.0.</p>";
  for (const std::string& m : c.mismatches) {
    out += "<p class='warn'>Compared with --force although " + HtmlEscape(m) + "</p>";
  }
  // The headline figures (throughput, per watt, time) on a linear axis around 100 %, the
  // latencies on a log axis of their own: a p99 of microseconds against milliseconds is a ratio
  // of thousands of percent, which on a shared axis flattened the headline bars to nothing.
  const std::string first = c.labels.empty() ? std::string() : c.labels[0];
  BarChart bars;
  bars.title = "Headline figures of each group as % of " + first + " with the " +
               Shown(c.options.confidence * 100) + " % interval";
  bars.value_label = "% of " + first;
  bars.has_reference = true;
  bars.reference = 100;
  BarChart latency = bars;
  latency.title = "Latencies of each group as % of " + first + " (lower is better)";
  latency.value_label = "% of " + first + " (log scale)";
  latency.log_scale = true;
  Table pairs(id + "-ratios", {"metric", "group", "ratio to first", "% of first", "CI low %",
                               "CI high %", "verdict"});
  for (const MetricComparison& m : c.metrics) {
    for (const PairFigures& p : m.pairs) {
      Bar b;
      b.label = m.name + " · " + p.b;
      b.value = 100 * p.ratio;
      b.has_error = p.has_interval;
      b.low = 100 * p.low;
      b.high = 100 * p.high;
      b.good = p.verdict != "no difference shown" && p.better;
      b.bad = p.verdict != "no difference shown" && !p.better;
      (IsLatencyMetric(m.name) ? latency : bars).bars.push_back(b);
      std::string verdict = p.has_interval ? p.b + " " + p.verdict : p.no_interval;
      if (p.has_interval && p.verdict != "no difference shown") {
        verdict += p.better ? " (better)" : " (worse)";
      }
      pairs.Row({Text(m.name), Text(p.b), Num(p.ratio), Num(100 * p.ratio),
                 p.has_interval ? Num(100 * p.low) : Text("—"),
                 p.has_interval ? Num(100 * p.high) : Text("—"), Text(verdict)});
    }
  }
  std::string charts;
  if (!bars.bars.empty()) charts += RenderBarChart(bars, id + "-ratio-chart");
  if (!latency.bars.empty()) charts += RenderBarChart(latency, id + "-latency-ratio-chart");
  out += "<h3>Ratios</h3>" +
         Figure(charts, pairs,
                "Green: better with the interval excluding 100 %; red: worse; blue: no "
                "difference shown");
  Table norm(id + "-normalized", {"metric", "group", "runs", "median", "min", "max", "mean",
                                  "std. dev.", "% of reference", "reference"});
  for (const MetricComparison& m : c.metrics) {
    for (const GroupFigures& g : m.groups) {
      norm.Row({Text(m.name + (m.lower_is_better ? " (lower is better)" : "")), Text(g.label),
                Int(g.runs), Num(g.median), Num(g.min), Num(g.max), Num(g.mean), Num(g.stddev),
                Num(g.normalized_pct), Text(m.reference)});
    }
  }
  out += "<h3>Normalized table</h3>" + norm.Html();
  return out;
}

}  // namespace sb::report::html
