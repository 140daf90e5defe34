#include "report/html/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "base/strings.h"

namespace sb::report {

namespace {

// A palette that stays apart in print and for the common colour-vision deficiencies: ten
// strong colours, then ten darker or paler ones, so a chart of up to 20 series (DVD Store's
// counters are 13) never repeats one.
constexpr const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                   "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22",
                                   "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173",
                                   "#000000", "#6b6ecf", "#e7ba52", "#ce6dbd", "#0b6e69"};
constexpr size_t kColorCount = sizeof kColors / sizeof kColors[0];
constexpr const char* kDashes[] = {"", "6 3", "2 2", "8 3 2 3"};
constexpr int kWidth = 760, kHeight = 280;
constexpr int kLeft = 70, kRight = 16, kTop = 28, kBottom = 42;

std::string Fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

// A tick label: short, no trailing zeros. A log axis writes its decades out (10000 ms, not
// 10k ms) up to a million.
std::string TickText(double v, bool log = false) {
  char buf[32];
  const double a = std::fabs(v);
  if (log && a >= 1 && a < 1e7) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
  } else if (a >= 1e6) {
    std::snprintf(buf, sizeof buf, "%.3gM", v / 1e6);
  } else if (a >= 1e4) {
    std::snprintf(buf, sizeof buf, "%.4gk", v / 1e3);
  } else if (a > 0 && a < 1e-3) {
    // Written out (0.00002), not as an exponent: log axes of milliseconds reach microseconds.
    const int digits = static_cast<int>(-std::floor(std::log10(a))) + 2;
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    std::string t = buf;
    while (t.back() == '0') t.pop_back();
    return t;
  } else {
    std::snprintf(buf, sizeof buf, "%.4g", v);
  }
  return buf;
}

// Round steps (1, 2, 5 × 10^k) giving about `want` ticks over [lo, hi].
std::vector<double> LinearTicks(double lo, double hi, int want, bool integer) {
  std::vector<double> t;
  if (!(hi > lo)) return {lo};
  const double raw = (hi - lo) / want;
  const double mag = std::pow(10, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * mag;
    if (step >= raw) break;
  }
  if (integer) step = std::max(1.0, std::round(step));
  // Counted, not accumulated: a step below the values' precision cannot loop forever.
  const double first = std::ceil(lo / step);
  for (int i = 0; i <= 4 * want; ++i) {
    const double v = (first + i) * step;
    if (v > hi + step * 1e-9) break;
    t.push_back(std::fabs(v) < step * 1e-9 ? 0 : v);
  }
  return t;
}

// Decades 10^a .. 10^b around [lo, hi]; with few decades also 2 and 5 × 10^k, with many only
// every n-th decade.
std::vector<double> LogTicks(double lo, double hi, int want) {
  const int a = static_cast<int>(std::floor(std::log10(lo) + 1e-9));
  const int b = static_cast<int>(std::ceil(std::log10(hi) - 1e-9));
  const int decades = std::max(1, b - a);
  const int every = std::max(1, (decades + want - 1) / want);
  std::vector<double> t;
  for (int k = a; k <= b; k += every) {
    for (double m : {1.0, 2.0, 5.0}) {
      if (m > 1 && decades * 3 > want * 2) break;
      const double v = m * std::pow(10.0, k);
      if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) t.push_back(v);
    }
  }
  return t;
}

// The axis' range of a log axis: the decades around the positive values.
void LogRange(double* lo, double* hi) {
  if (!(*lo > 0) || !std::isfinite(*lo)) *lo = *hi > 0 && std::isfinite(*hi) ? *hi / 10 : 1;
  if (!(*hi > 0) || !std::isfinite(*hi)) *hi = *lo * 10;
  *lo = std::pow(10.0, std::floor(std::log10(*lo) + 1e-9));
  *hi = std::pow(10.0, std::ceil(std::log10(*hi) - 1e-9));
  if (*hi <= *lo) *hi = *lo * 10;
}

struct Scale {
  double d0 = 0, d1 = 1, r0 = 0, r1 = 1;
  bool log = false;
  double operator()(double v) const {
    if (log) {
      return r0 + (std::log10(v) - std::log10(d0)) / (std::log10(d1) - std::log10(d0)) * (r1 - r0);
    }
    return r0 + (v - d0) / (d1 - d0) * (r1 - r0);
  }
};

const char* ScaleName(bool log) { return log ? "log" : "linear"; }

// A tick label at the plot's right end ends there, so "10000" is not cut at the svg's edge.
const char* XTickAnchor(double x) { return x > kWidth - kRight - 20 ? "end" : "middle"; }

std::string Open(const std::string& id, const char* kind, size_t count, const std::string& title,
                 int height, const std::string& scales) {
  return "<svg class='chart' id='" + HtmlEscape(id) + "' data-kind='" + kind + "' data-count='" +
         std::to_string(count) + "' " + scales + " xmlns='http://www.w3.org/2000/svg' " +
         "viewBox='0 0 " + std::to_string(kWidth) + " " + std::to_string(height) + "' width='" +
         std::to_string(kWidth) + "' height='" + std::to_string(height) +
         "' role='img' aria-label='" + HtmlEscape(title) + "'><title>" + HtmlEscape(title) +
         "</title><text class='ctitle' x='" + std::to_string(kLeft) + "' y='16'>" +
         HtmlEscape(title) + "</text>";
}

// A log axis' range covers the positive values only.
bool UsablePoint(const LineChart& c, double x, double y) {
  return std::isfinite(x) && std::isfinite(y) && (!c.log_x || x > 0) && (!c.log_y || y > 0);
}

// Series `k` of `c` as a path (and its markers), broken where a point cannot be drawn.
std::string LineSeriesSvg(const LineChart& c, size_t k, const Scale& sx, const Scale& sy) {
  const ChartSeries& s = c.series[k];
  std::string svg;
  const SeriesStyle style = StyleOf(k);
  const char* color = style.color.c_str();
  std::string d;
  bool pen_down = false;
  std::string dots;
  for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
    if (!UsablePoint(c, s.x[i], s.y[i])) {
      pen_down = false;
      continue;
    }
    const std::string px = Fmt(sx(s.x[i])), py = Fmt(sy(s.y[i]));
    d += pen_down ? 'L' : 'M';
    d += px;
    d += ' ';
    d += py;
    pen_down = true;
    if (c.markers) {
      dots += "<circle cx='";
      dots += px;
      dots += "' cy='";
      dots += py;
      dots += "' r='3' fill='";
      dots += color;
      dots += "'/>";
    }
  }
  svg += "<path class='series' data-name='" + HtmlEscape(s.name) + "' d='";
  svg += d;
  svg += "' fill='none' stroke='";
  svg += color;
  svg += "' stroke-width='1.5'";
  if (s.dashed || !style.dash.empty()) {
    svg += " stroke-dasharray='" + (style.dash.empty() ? std::string("5 3") : style.dash) + "'";
  }
  svg += "><title>" + HtmlEscape(s.name) + "</title></path>";
  svg += dots;
  return svg;
}

}  // namespace

SeriesStyle StyleOf(size_t k) {
  return {kColors[k % kColorCount],
          kDashes[(k / kColorCount) % (sizeof kDashes / sizeof kDashes[0])]};
}

std::vector<double> AxisTicks(double lo, double hi, int want, bool log, bool integer) {
  if (log && lo > 0 && hi > lo) return LogTicks(lo, hi, want);
  return LinearTicks(lo, hi, want, integer);
}

std::string HtmlEscape(const std::string& text) { return MarkupEscape(text); }

std::string RenderLineChart(const LineChart& c, const std::string& id) {
  double x0 = INFINITY, x1 = -INFINITY, y0 = c.log_y ? INFINITY : 0, y1 = -INFINITY;
  for (const ChartSeries& s : c.series) {
    for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!UsablePoint(c, s.x[i], s.y[i])) continue;
      x0 = std::min(x0, s.x[i]);
      x1 = std::max(x1, s.x[i]);
      y0 = std::min(y0, s.y[i]);
      y1 = std::max(y1, s.y[i]);
    }
  }
  for (const ChartBand& b : c.bands) {
    if (std::isfinite(x0)) {
      x0 = std::min(x0, b.from);
      x1 = std::max(x1, b.to);
    }
  }
  for (const ChartLine& l : c.lines) {
    if (!c.log_y || l.y > 0) y1 = std::max(y1, l.y);
  }
  if (c.log_x) {
    LogRange(&x0, &x1);
  } else {
    if (!std::isfinite(x0)) x0 = 0, x1 = 1;
    x0 = std::min(x0, 0.0);  // time from Start, instance counts: both read from 0
    if (x1 <= x0) x1 = x0 + 1;
  }
  if (c.log_y) {
    LogRange(&y0, &y1);
  } else {
    if (!std::isfinite(y1) || y1 <= y0) y1 = y0 + 1;
    y1 *= 1.05;
  }
  // Legend entries in columns wide enough for the longest name (up to 40 characters).
  size_t longest = 4;
  for (const ChartSeries& s : c.series) {
    longest = std::max(longest, std::min<size_t>(s.name.size(), 40));
  }
  const int column = static_cast<int>(longest) * 7 + 24;
  const int per_row = std::max(1, (kWidth - kLeft - kRight) / column);
  const int legend_rows =
      c.series.size() > 1 ? static_cast<int>((c.series.size() + per_row - 1) / per_row) : 0;
  const int height = kHeight + (legend_rows > 0 ? 10 : 0) + legend_rows * 16;
  const int plot_bottom = kHeight - kBottom;
  const Scale sx{x0, x1, static_cast<double>(kLeft), static_cast<double>(kWidth - kRight), c.log_x};
  const Scale sy{y0, y1, static_cast<double>(plot_bottom), static_cast<double>(kTop), c.log_y};
  std::string svg =
      Open(id, "line", c.series.size(), c.title, height,
           std::string("data-x-scale='") + ScaleName(c.log_x) + "' data-y-scale='" +
               ScaleName(c.log_y) + "' data-x-ticks='" + (c.integer_x ? "integer" : "any") + "'");
  // Bands under everything.
  for (const ChartBand& b : c.bands) {
    const double a = sx(std::max(b.from, x0)), z = sx(std::min(b.to, x1));
    if (z <= a) continue;
    svg += "<rect class='" + std::string(b.warmup ? "band warmup" : "band window") + "' x='" +
           Fmt(a) + "' y='" + std::to_string(kTop) + "' width='" + Fmt(z - a) + "' height='" +
           std::to_string(plot_bottom - kTop) + "'><title>" + HtmlEscape(b.label) +
           "</title></rect><text class='blabel' x='" + Fmt(a + 3) + "' y='" +
           std::to_string(kTop + 11) + "'>" + HtmlEscape(b.label) + "</text>";
  }
  // Axes and grid.
  for (double t : AxisTicks(y0, y1, 5, c.log_y, false)) {
    const double y = sy(t);
    svg += "<line class='grid' x1='" + std::to_string(kLeft) + "' x2='" +
           std::to_string(kWidth - kRight) + "' y1='" + Fmt(y) + "' y2='" + Fmt(y) +
           "'/><text class='tick' x='" + std::to_string(kLeft - 5) + "' y='" + Fmt(y + 4) +
           "' text-anchor='end'>" + TickText(t, c.log_y) + "</text>";
  }
  for (double t : AxisTicks(x0, x1, 8, c.log_x, c.integer_x)) {
    const double x = sx(t);
    svg += "<line class='axis' x1='" + Fmt(x) + "' x2='" + Fmt(x) + "' y1='" +
           std::to_string(plot_bottom) + "' y2='" + std::to_string(plot_bottom + 4) +
           "'/><text class='tick xtick' x='" + Fmt(x) + "' y='" + std::to_string(plot_bottom + 16) +
           "' text-anchor='" + XTickAnchor(x) + "'>" + TickText(t, c.log_x) + "</text>";
  }
  svg += "<line class='axis' x1='" + std::to_string(kLeft) + "' x2='" +
         std::to_string(kWidth - kRight) + "' y1='" + std::to_string(plot_bottom) + "' y2='" +
         std::to_string(plot_bottom) + "'/>";
  svg += "<text class='alabel' x='" + std::to_string((kLeft + kWidth - kRight) / 2) + "' y='" +
         std::to_string(plot_bottom + 32) + "' text-anchor='middle'>" + HtmlEscape(c.x_label) +
         "</text>";
  svg += "<text class='alabel' transform='translate(14," +
         std::to_string((kTop + plot_bottom) / 2) + ") rotate(-90)' text-anchor='middle'>" +
         HtmlEscape(c.y_label) + "</text>";
  // Series.
  for (size_t k = 0; k < c.series.size(); ++k) svg += LineSeriesSvg(c, k, sx, sy);
  for (const ChartLine& l : c.lines) {
    if (c.log_y && !(l.y > 0)) continue;
    const double y = sy(l.y);
    svg += "<line class='ref' x1='" + std::to_string(kLeft) + "' x2='" +
           std::to_string(kWidth - kRight) + "' y1='" + Fmt(y) + "' y2='" + Fmt(y) +
           "'/><text class='rlabel' x='" + std::to_string(kWidth - kRight - 4) + "' y='" +
           Fmt(y - 4) + "' text-anchor='end'>" + HtmlEscape(l.label) + "</text>";
  }
  // Legend below the plot.
  if (c.series.size() > 1) {
    for (size_t k = 0; k < c.series.size(); ++k) {
      const int row = static_cast<int>(k) / per_row, col = static_cast<int>(k) % per_row;
      const int x = kLeft + col * column, y = kHeight + 6 + row * 16;
      const SeriesStyle style = StyleOf(k);
      const bool dashed = c.series[k].dashed || !style.dash.empty();
      svg += "<line class='key' x1='" + std::to_string(x - 2) + "' x2='" + std::to_string(x + 11) +
             "' y1='" + std::to_string(y - 3) + "' y2='" + std::to_string(y - 3) + "' stroke='" +
             style.color + "' stroke-width='3'" +
             (dashed ? " stroke-dasharray='" + (style.dash.empty() ? "5 3" : style.dash) + "'"
                     : std::string()) +
             "/><text class='legend' x='" + std::to_string(x + 14) + "' y='" +
             std::to_string(y + 1) + "'>" + HtmlEscape(c.series[k].name.substr(0, 40)) + "</text>";
    }
  }
  return svg + "</svg>";
}

std::string RenderBarChart(const BarChart& c, const std::string& id) {
  constexpr int kRow = 22, kLabelWidth = 230;
  const int height = kTop + static_cast<int>(c.bars.size()) * kRow + kBottom;
  double hi = c.has_reference ? c.reference : (c.log_scale ? -INFINITY : 0);
  double lo = c.log_scale ? (c.has_reference ? c.reference : INFINITY) : 0;
  for (const Bar& b : c.bars) {
    for (double v : {b.value, b.has_error ? b.high : b.value, b.has_error ? b.low : b.value}) {
      if (std::isfinite(v) && (!c.log_scale || v > 0)) {
        hi = std::max(hi, v);
        lo = std::min(lo, v);
      }
    }
  }
  if (c.log_scale) {
    // Bars start at the axis' left end: put it a decade below the smallest value's decade, so
    // the shortest bar is at least a decade long (a p50 of 0.0100 ms on an axis from 0.01 ms
    // was a 1-px sliver beside a 200 ms bar). A reference (a ratio's 1) keeps its own range.
    if (!c.has_reference && std::isfinite(lo)) lo /= 10;
    LogRange(&lo, &hi);
  } else {
    if (hi <= lo) hi = lo + 1;
    hi *= 1.05;
  }
  const Scale sx{lo, hi, static_cast<double>(kLabelWidth), static_cast<double>(kWidth - kRight),
                 c.log_scale};
  std::string svg = Open(id, "bar", c.bars.size(), c.title, height,
                         std::string("data-x-scale='") + ScaleName(c.log_scale) + "'");
  const int plot_bottom = height - kBottom;
  for (double t : AxisTicks(lo, hi, 6, c.log_scale, false)) {
    const double x = sx(t);
    svg += "<line class='grid' x1='" + Fmt(x) + "' x2='" + Fmt(x) + "' y1='" +
           std::to_string(kTop) + "' y2='" + std::to_string(plot_bottom) +
           "'/><text class='tick xtick' x='" + Fmt(x) + "' y='" + std::to_string(plot_bottom + 14) +
           "' text-anchor='" + XTickAnchor(x) + "'>" + TickText(t, c.log_scale) + "</text>";
  }
  svg += "<text class='alabel' x='" + std::to_string((kLabelWidth + kWidth - kRight) / 2) +
         "' y='" + std::to_string(plot_bottom + 32) + "' text-anchor='middle'>" +
         HtmlEscape(c.value_label) + "</text>";
  for (size_t i = 0; i < c.bars.size(); ++i) {
    const Bar& b = c.bars[i];
    const int y = kTop + static_cast<int>(i) * kRow;
    svg += "<text class='tick' x='" + std::to_string(kLabelWidth - 6) + "' y='" +
           std::to_string(y + 15) + "' text-anchor='end'>" +
           HtmlEscape(b.label.size() > 36 ? b.label.substr(0, 35) + "…" : b.label) + "</text>";
    if (!std::isfinite(b.value) || (c.log_scale && b.value <= 0)) continue;
    // A log axis has no zero: its bars start at the axis' left end.
    const double base = c.log_scale ? lo : 0.0;
    const double a = sx(std::min(base, b.value)), z = sx(std::max(base, b.value));
    const char* fill = b.good ? "#2ca02c" : b.bad ? "#d62728" : "#1f77b4";
    svg += "<rect class='bar' x='" + Fmt(a) + "' y='" + std::to_string(y + 4) + "' width='" +
           Fmt(std::max(z - a, 1.0)) + "' height='14' fill='" + fill + "'><title>" +
           HtmlEscape(b.label) + "</title></rect>";
    if (b.has_error && std::isfinite(b.low) && std::isfinite(b.high) &&
        (!c.log_scale || (b.low > 0 && b.high > 0))) {
      const std::string ym = std::to_string(y + 11);
      svg += "<path class='errorbar' d='M" + Fmt(sx(b.low)) + " " + ym + "H" + Fmt(sx(b.high)) +
             "M" + Fmt(sx(b.low)) + " " + std::to_string(y + 6) + "v10M" + Fmt(sx(b.high)) + " " +
             std::to_string(y + 6) + "v10' stroke='#000' stroke-width='1.5' fill='none'/>";
    }
  }
  if (c.has_reference) {
    const double x = sx(c.reference);
    svg += "<line class='ref' x1='" + Fmt(x) + "' x2='" + Fmt(x) + "' y1='" +
           std::to_string(kTop - 4) + "' y2='" + std::to_string(plot_bottom) + "'/>";
  }
  return svg + "</svg>";
}

}  // namespace sb::report
