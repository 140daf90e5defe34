// The HTML report of consolidation searches from constructed search files: each search's
// per-count table in the deciding window, and two searches drawn on one chart.
#include <gtest/gtest.h>

#include <string>

#include "report/html/html_report.h"

namespace sb::report {
namespace {

// A finished search over 1..top with the peak `peak`; count n's median run made n * each OPM
// in the window 23m-28m at `watts`.
ReportItem SearchItem(const std::string& path, int top, int peak, double each, double watts) {
  ReportItem item;
  item.file.path = path;
  item.file.kind = FileKind::kSearch;
  Search& s = item.file.search;
  s.headline = "opm";
  s.to = top;
  s.finished = true;
  s.peak = peak;
  for (int n = 1; n <= top; ++n) {
    SearchRun r;
    r.passed = n <= peak;
    r.window.label = "23m-28m";
    for (int i = 1; i <= n; ++i) {
      r.window.instance_names.push_back(std::to_string(i));
      r.window.instances.push_back(each + i);
    }
    r.window.aggregate = n * each;
    r.window.power_w = watts;
    r.window.per_watt = n * each / watts;
    r.window.host_cpu_pct = 10.0 * n;
    SearchCount c;
    c.count = n;
    c.runs = {r};
    c.median_run = 0;
    c.passed = r.passed;
    s.counts.push_back(c);
  }
  return item;
}

TEST(HtmlSearchesTest, EachSearchHasItsDecidingWindowTable) {
  const std::string page =
      RenderHtmlReport({SearchItem("a.json", 3, 2, 2700, 400)}, "2026-01-01T00:00:00Z");
  EXPECT_NE(page.find("data-table='f1-window-table'"), std::string::npos);
  EXPECT_NE(page.find("in the deciding window 23m-28m"), std::string::npos);
  EXPECT_NE(page.find("<th>OPM/W</th>"), std::string::npos);
  // Count 3: the aggregate, host CPU, watts, per watt and the third instance's figure.
  for (const char* v :
       {"data-value='8100'", "data-value='30'", "data-value='20.25'", "data-value='2703'"}) {
    EXPECT_NE(page.find(v), std::string::npos) << v;
  }
  // One search: nothing to draw beside it.
  EXPECT_EQ(page.find("searches-compared"), std::string::npos);
}

TEST(HtmlSearchesTest, TwoSearchesShareOneChart) {
  const std::string page = RenderHtmlReport(
      {SearchItem("a.json", 3, 2, 2700, 400), SearchItem("b.json", 4, 3, 2600, 500)},
      "2026-01-01T00:00:00Z");
  EXPECT_NE(page.find("data-table='searches-compared'"), std::string::npos);
  EXPECT_NE(page.find("id='searches-chart'"), std::string::npos);
  // B's count 4 aggregate (4 × 2600) is in the shared table.
  const size_t table = page.find("data-table='searches-compared'");
  EXPECT_NE(page.find("data-value='10400'", table), std::string::npos);
}

}  // namespace
}  // namespace sb::report
