// A consolidation search's per-count table in the deciding window (the figures a report states:
// every instance, the aggregate, host CPU, power, the figure per watt, runs passed), and the
// searches of a report drawn on one chart (server A against server B).
#include <algorithm>
#include <cmath>

#include "report/files/consolidation_table.h"
#include "report/html/html_parts.h"

namespace sb::report::html {
namespace {

// The figure a search's count is drawn at: the median run's aggregate in the deciding window,
// else (a search file written before that window was kept) over the measured window.
double AggregateOf(const SearchCount& c) {
  const SearchRun& m = c.runs[static_cast<size_t>(c.median_run)];
  return std::isfinite(m.window.aggregate) ? m.window.aggregate : m.aggregate;
}

}  // namespace

std::string SearchWindowTable(const Search& s, const std::string& id) {
  const std::vector<const SearchCount*> counts = DecidedCounts(s);
  size_t widest = 0;
  std::string label;
  for (const SearchCount* c : counts) {
    const SearchWindow& w = c->runs[static_cast<size_t>(c->median_run)].window;
    widest = std::max(widest, w.instances.size());
    if (label.empty()) label = w.label;
  }
  if (label.empty()) return "";  // a search file without the deciding window's figures
  const std::string metric = MetricHeading(s.headline);
  std::vector<std::string> heads = {"instances",  "runs passed",   "aggregate " + metric,
                                    "host CPU %", "avg power (W)", PerWattHeading(s.headline),
                                    "verdict"};
  for (size_t i = 1; i <= widest; ++i) heads.push_back("instance " + std::to_string(i));
  Table t(id + "-window-table", heads);
  for (const SearchCount* c : counts) {
    const SearchWindow& w = c->runs[static_cast<size_t>(c->median_run)].window;
    std::vector<Cell> row = {
        Int(c->count),
        Text(std::to_string(c->runs_passed()) + " of " + std::to_string(c->runs.size())),
        Num(w.aggregate),
        Num(w.host_cpu_pct),
        Num(w.power_w),
        Num(w.per_watt),
        Pass(c->passed)};
    for (size_t i = 0; i < widest; ++i) {
      row.push_back(i < w.instances.size() ? Num(w.instances[i]) : Text(""));
    }
    t.Row(std::move(row));
  }
  return "<h3>Per count, in the deciding window " +
         HtmlEscape(label == "run" ? std::string("(the measured window)") : label) +
         "</h3><p>The median run's figures: every instance's " + HtmlEscape(metric) +
         ", the aggregate, the host's CPU, the average power and the aggregate per watt.</p>" +
         t.Html();
}

std::string SearchesChart(const std::vector<ReportItem>& items) {
  std::vector<const ReportItem*> searches;
  for (const ReportItem& item : items) {
    if (item.file.kind == FileKind::kSearch) searches.push_back(&item);
  }
  if (searches.size() < 2) return "";
  LineChart chart;
  chart.title = "Aggregate of the median run by instance count, every search";
  chart.x_label = "instances";
  chart.y_label = searches[0]->file.search.headline;
  chart.markers = true;
  Table t("searches-compared", {"search", "peak", "instances", "aggregate", "verdict"});
  for (const ReportItem* item : searches) {
    const Search& s = item->file.search;
    ChartSeries series{item->file.path, {}, {}};
    for (const SearchCount* c : DecidedCounts(s)) {
      series.x.push_back(c->count);
      series.y.push_back(AggregateOf(*c));
      t.Row({Text(item->file.path), Int(s.peak), Int(c->count), Num(AggregateOf(*c)),
             Pass(c->passed)});
    }
    chart.series.push_back(std::move(series));
  }
  return "<section class='result' id='searches'><h2>Searches compared</h2>" +
         Figure(RenderLineChart(chart, "searches-chart"), t,
                "Each search's median-run aggregate in its deciding window, by instance count") +
         "</section>\n";
}

}  // namespace sb::report::html
