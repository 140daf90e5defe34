// The report's SVG charts: escaped text, one path per series, gaps for missing values.
#include "report/html/svg_chart.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

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

}  // namespace
}  // namespace sb::report
