// The report's SVG charts: escaped text, one path per series, gaps for missing values.
#include "report/html/svg_chart.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace sb::report {
namespace {

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(SvgChartTest, EscapesEveryText) {
  EXPECT_EQ(HtmlEscape("<a href=\"x\">&'"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
  LineChart c;
  c.title = "<script>t</script>";
  c.series = {{"<b>s</b>", {1, 2}, {3, 4}}, {"two", {1, 2}, {1, 1}}};
  c.lines = {{2, "base<line>"}};
  const std::string svg = RenderLineChart(c, "id\"x");
  EXPECT_EQ(svg.find("<script>"), std::string::npos);
  EXPECT_EQ(svg.find("<b>"), std::string::npos);
  EXPECT_EQ(svg.find("base<line>"), std::string::npos);
  EXPECT_NE(svg.find("&lt;script&gt;t&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(svg.find("id='id&quot;x'"), std::string::npos);
}

TEST(SvgChartTest, OnePathPerSeriesAndMissingValuesBreakTheLine) {
  LineChart c;
  c.series = {{"a", {1, 2, 3, 4}, {1, NAN, 2, 3}}, {"b", {1, 2}, {5, 6}}};
  const std::string svg = RenderLineChart(c, "c");
  EXPECT_EQ(Count(svg, "<path class='series'"), 2u);
  // Series a: a single point, then a gap, then a line of two points.
  const size_t a = svg.find("data-name='a' d='");
  ASSERT_NE(a, std::string::npos);
  const std::string d = svg.substr(a, svg.find("' fill", a) - a);
  EXPECT_EQ(Count(d, "M"), 2u);
  EXPECT_EQ(Count(d, "L"), 1u);
}

TEST(SvgChartTest, BarsWithErrorBarsAndTinyRangesEnd) {
  BarChart b;
  b.bars = {{"x", 120, true, 110, 130}, {"y", NAN}};
  b.has_reference = true;
  b.reference = 100;
  const std::string svg = RenderBarChart(b, "b");
  EXPECT_EQ(Count(svg, "<rect class='bar'"), 1u);  // NaN draws no bar
  EXPECT_EQ(Count(svg, "class='errorbar'"), 1u);
  // Values far from zero and close together: the axis still ends (ticks are counted).
  LineChart c;
  c.series = {{"big", {1e12, 1e12 + 1e-3}, {1e15, 1e15}}};
  EXPECT_NE(RenderLineChart(c, "t").find("</svg>"), std::string::npos);
}

TEST(SvgChartTest, LogAxesTickInRoundValuesAcrossDecades) {
  // Latencies from 20 µs to 3 s: a log axis in ms ticks at decades, written out in full.
  const std::vector<double> t = AxisTicks(0.01, 10000, 8, true, false);
  EXPECT_EQ(t, (std::vector<double>{0.01, 0.1, 1, 10, 100, 1000, 10000}));
  const std::vector<double> few = AxisTicks(1, 100, 8, true, false);
  EXPECT_EQ(few, (std::vector<double>{1, 2, 5, 10, 20, 50, 100}));
  LineChart c;
  c.log_x = true;
  c.series = {{"a", {0.00002, 0.5, 3000}, {1, 2, 3}}, {"zero", {0, 1}, {1, 1}}};
  const std::string svg = RenderLineChart(c, "l");
  EXPECT_NE(svg.find("data-x-scale='log'"), std::string::npos);
  EXPECT_NE(svg.find(">0.00001<"), std::string::npos);  // not 1e-05
  EXPECT_NE(svg.find(">1000<"), std::string::npos);
  EXPECT_EQ(svg.find("nan"), std::string::npos);  // x = 0 is left out, never drawn at -inf
  EXPECT_EQ(svg.find("inf"), std::string::npos);
}

TEST(SvgChartTest, LogBarsShowSubMillisecondAndSecondValuesSideBySide) {
  BarChart b;
  b.log_scale = true;
  b.bars = {{"fast p99", 0.02}, {"slow p99", 2000}};
  const std::string svg = RenderBarChart(b, "b");
  EXPECT_NE(svg.find("data-x-scale='log'"), std::string::npos);
  // The fast bar is wide enough to see (on a linear axis to 2000 it was 0.005 px): the axis
  // runs from 0.01 to 10000 ms, and 0.02 is a tenth of a decade above its left end.
  const size_t first = svg.find("<rect class='bar'");
  ASSERT_NE(first, std::string::npos);
  const size_t w = svg.find("width='", first) + 7;
  EXPECT_GT(std::stod(svg.substr(w)), 20.0);
}

// The widths of a bar chart's bars, in order.
std::vector<double> BarWidths(const std::string& svg) {
  std::vector<double> widths;
  for (size_t at = svg.find("<rect class='bar'"); at != std::string::npos;
       at = svg.find("<rect class='bar'", at + 1)) {
    widths.push_back(std::stod(svg.substr(svg.find("width='", at) + 7)));
  }
  return widths;
}

TEST(SvgChartTest, ALogBarJustAboveAPowerOfTenIsNoSliver) {
  // A DVD Store run's fastest p50 (browse, 0.0100 ms) beside its slowest p99.9 (193 ms): the
  // axis started at 0.01 ms, and the fast bar was 1 px wide.
  BarChart b;
  b.log_scale = true;
  b.bars = {{"browse p50", 0.010016}, {"order p99.9", 193.46}};
  const std::vector<double> widths = BarWidths(RenderBarChart(b, "b"));
  ASSERT_EQ(widths.size(), 2u);
  EXPECT_GT(widths[0], widths[1] / 10);
}

TEST(SvgChartTest, IntegerTicksForCounts) {
  for (double t : AxisTicks(0, 3, 8, false, true)) EXPECT_EQ(t, std::floor(t)) << t;
  EXPECT_EQ(AxisTicks(0, 3, 8, false, true), (std::vector<double>{0, 1, 2, 3}));
}

TEST(SvgChartTest, EverySeriesOfAChartHasItsOwnLook) {
  // DVD Store's counters chart has 13 series: rollbacks (first) and retries (eleventh) were
  // both blue.
  std::set<std::pair<std::string, std::string>> styles;
  std::set<std::string> colors;
  for (size_t k = 0; k < 40; ++k) {
    styles.insert({StyleOf(k).color, StyleOf(k).dash});
    if (k < 20) colors.insert(StyleOf(k).color);
  }
  EXPECT_EQ(styles.size(), 40u);
  EXPECT_EQ(colors.size(), 20u);
  LineChart c;
  for (int k = 0; k < 13; ++k) c.series.push_back({"s" + std::to_string(k), {0, 1}, {1, 2}});
  const std::string svg = RenderLineChart(c, "c");
  std::set<std::string> strokes;
  for (size_t at = svg.find("<path class='series'"); at != std::string::npos;
       at = svg.find("<path class='series'", at + 1)) {
    const size_t s = svg.find("stroke='", at) + 8;
    strokes.insert(svg.substr(s, 7));
  }
  EXPECT_EQ(strokes.size(), 13u);
}

}  // namespace
}  // namespace sb::report
