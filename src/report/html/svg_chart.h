// Charts drawn as inline SVG for the HTML report (docs/report.md says why SVG drawn here rather
// than a JavaScript chart library): line charts over time or counts, with shaded bands (warm-up,
// windows) and horizontal reference lines (baselines), and bar charts with error bars. Every text
// that comes from input is escaped. The markup is deterministic: the same data give the same
// bytes.
#ifndef STOREBENCH_REPORT_HTML_SVG_CHART_H_
#define STOREBENCH_REPORT_HTML_SVG_CHART_H_

#include <string>
#include <vector>

namespace sb::report {

// Text escaped for HTML and SVG (& < > " ').
std::string HtmlEscape(const std::string& text);

struct ChartSeries {
  std::string name;
  std::vector<double> x, y;  // parallel; a non-finite y breaks the line
  bool dashed = false;
};

struct ChartBand {  // a shaded stretch of the x axis
  double from = 0, to = 0;
  std::string label;
  bool warmup = false;  // grey (warm-up, ramp) rather than the window colour
};

struct ChartLine {  // a horizontal reference line
  double y = 0;
  std::string label;
};

struct LineChart {
  std::string title, x_label, y_label;
  std::vector<ChartSeries> series;
  std::vector<ChartBand> bands;
  std::vector<ChartLine> lines;
  bool markers = false;  // draw a dot at every point (short series such as counts)
  // Logarithmic axes (latencies spanning decades): ticks at 1, 2, 5 × 10^k; values <= 0 are not
  // drawn. The svg says so in data-x-scale / data-y-scale ("log" or "linear").
  bool log_x = false, log_y = false;
  bool integer_x = false;  // x ticks only at whole numbers (instance counts)
};

struct Bar {
  std::string label;
  double value = 0;
  bool has_error = false;
  double low = 0, high = 0;        // the error bar
  bool good = false, bad = false;  // colour: a verdict for the better / the worse
};

struct BarChart {
  std::string title, value_label;
  std::vector<Bar> bars;  // drawn horizontally, one per row
  bool has_reference = false;
  double reference = 0;  // a vertical line (100 %)
  // A logarithmic value axis (percentiles from microseconds to seconds, ratios far apart):
  // bars start at the axis' lowest tick; values <= 0 are not drawn. data-x-scale says so.
  bool log_scale = false;
};

// The stroke of series `k` of a chart: a colour from a 20-colour palette, and a dash pattern
// ("" for solid) once the colours are used up, so no two series of a chart look alike.
struct SeriesStyle {
  std::string color, dash;
};
SeriesStyle StyleOf(size_t k);

// The ticks of an axis over [lo, hi] (for a log axis lo > 0): round steps giving about `want`
// ticks; a log axis ticks 1, 2, 5 × 10^k (every decade only when they are many); `integer`
// keeps only whole numbers (a step of at least 1).
std::vector<double> AxisTicks(double lo, double hi, int want, bool log, bool integer);

// `id` becomes the svg's id; the svg has class "chart" and data-series / data-bars counts, and
// every drawn series a <path class="series"> (bars: <rect class="bar">), so a test can check that
// something was drawn.
std::string RenderLineChart(const LineChart& c, const std::string& id);
std::string RenderBarChart(const BarChart& c, const std::string& id);

}  // namespace sb::report

#endif  // STOREBENCH_REPORT_HTML_SVG_CHART_H_
