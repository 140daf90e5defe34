#include "report/files/search_comparison.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>

#include "report/files/consolidation_table.h"

namespace sb::report {
namespace {

using Json = nlohmann::ordered_json;

std::string Fixed(double v, const char* format = "%.1f") {
  if (!std::isfinite(v)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

// A figure as the tables print it: whole from 100 up, else one or two decimals.
std::string Figure(double v) {
  const double a = std::fabs(v);
  return Fixed(v, a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : "%.2f");
}

Json JsonFigure(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

// The median run's aggregate in the deciding window, else over the measured window (a search
// file written before the deciding window was kept).
double AggregateOf(const SearchCount& c) {
  const SearchRun& m = c.runs[static_cast<size_t>(c.median_run)];
  return std::isfinite(m.window.aggregate) ? m.window.aggregate : m.aggregate;
}

SearchSide Side(const Search& s, const std::string& label, const std::string& file) {
  SearchSide side;
  side.label = label;
  side.file = file;
  side.headline = s.headline;
  side.peak = s.peak;
  side.finished = s.finished;
  for (const SearchCount* c : DecidedCounts(s)) {
    if (c->count != s.peak) continue;
    const SearchWindow& w = c->runs[static_cast<size_t>(c->median_run)].window;
    side.peak_aggregate = AggregateOf(*c);
    side.peak_per_watt = w.per_watt;
    side.peak_power_w = w.power_w;
  }
  return side;
}

// "22.2 % more" / "10.0 % fewer" / "the same number of".
std::string Change(double change, const char* more, const char* less) {
  if (std::fabs(change) < 5e-4) return "the same";
  return Fixed(std::fabs(change) * 100) + " % " + (change > 0 ? more : less);
}

}  // namespace

SearchComparison CompareSearches(const Search& a, const std::string& label_a,
                                 const std::string& file_a, const Search& b,
                                 const std::string& label_b, const std::string& file_b) {
  SearchComparison c;
  c.a = Side(a, label_a, file_a);
  c.b = Side(b, label_b, file_b);
  if (c.a.peak > 0) c.peak_change = static_cast<double>(c.b.peak) / c.a.peak - 1;
  if (std::isfinite(c.a.peak_per_watt) && std::isfinite(c.b.peak_per_watt) &&
      c.a.peak_per_watt > 0) {
    c.per_watt_change = c.b.peak_per_watt / c.a.peak_per_watt - 1;
  }
  std::map<int, SearchCountPair> rows;
  for (const SearchCount* x : DecidedCounts(a)) {
    rows[x->count].a = AggregateOf(*x);
    rows[x->count].verdict_a = x->passed ? "PASS" : "FAIL";
  }
  for (const SearchCount* x : DecidedCounts(b)) {
    rows[x->count].b = AggregateOf(*x);
    rows[x->count].verdict_b = x->passed ? "PASS" : "FAIL";
  }
  for (auto& [count, row] : rows) {
    row.count = count;
    c.counts.push_back(row);
  }
  for (const SearchSide* s : {&c.a, &c.b}) {
    if (!s->finished) {
      c.warnings.push_back(s->label + " (" + s->file +
                           ") did not finish: its peak is the largest count passed so far");
    }
  }
  if (a.headline != b.headline) {
    c.warnings.push_back("the searches measure different figures: " + a.headline + " and " +
                         b.headline);
  }
  return c;
}

std::string PeakSentence(const SearchComparison& c) {
  const std::string counts =
      " (" + std::to_string(c.b.peak) + " against " + std::to_string(c.a.peak) + ")";
  if (c.a.peak == 0) {
    return c.a.label + " passed no count; " + c.b.label + " supported " + std::to_string(c.b.peak) +
           " instance(s)";
  }
  const std::string change = Change(c.peak_change, "more", "fewer");
  if (change == "the same") {
    return c.b.label + " supported the same number of instances as " + c.a.label + counts;
  }
  return c.b.label + " supported " + change + " instances than " + c.a.label + counts;
}

std::string PerWattSentence(const SearchComparison& c) {
  const std::string unit = PerWattHeading(c.a.headline);
  if (!std::isfinite(c.per_watt_change)) {
    return unit + " at the peaks: " + Figure(c.a.peak_per_watt) + " (" + c.a.label + "), " +
           Figure(c.b.peak_per_watt) + " (" + c.b.label + "); no ratio (power not measured at " +
           "both peaks)";
  }
  const std::string figures =
      " (" + Figure(c.b.peak_per_watt) + " against " + Figure(c.a.peak_per_watt) + ")";
  const std::string change = Change(c.per_watt_change, "higher", "lower");
  if (change == "the same") {
    return c.b.label + "'s " + unit + " at its peak is the same as " + c.a.label + "'s" + figures;
  }
  return c.b.label + "'s " + unit + " at its peak is " + change + " than " + c.a.label + "'s" +
         figures;
}

std::string FormatSearchComparison(const SearchComparison& c) {
  const std::string metric = MetricHeading(c.a.headline);
  std::string out =
      "comparison of two consolidation searches (" + metric +
      " of each count's median run, in its deciding window; ratio: the second over the first)\n";
  for (const SearchSide* s : {&c.a, &c.b}) {
    out += "  " + s->label + ": " + s->file + "\n";
  }
  for (const std::string& w : c.warnings) out += "  warning: " + w + "\n";
  char line[256];
  std::snprintf(line, sizeof line, "\n  %-28s %14s %14s %10s\n", "", c.a.label.c_str(),
                c.b.label.c_str(), "ratio");
  out += line;
  std::snprintf(line, sizeof line, "  %-28s %14d %14d %10s\n", "peak (instances)", c.a.peak,
                c.b.peak, Fixed(c.a.peak > 0 ? 1 + c.peak_change : NAN, "%.3f").c_str());
  out += line;
  const std::string per_watt = PerWattHeading(c.a.headline) + " at the peak";
  std::snprintf(line, sizeof line, "  %-28s %14s %14s %10s\n", per_watt.c_str(),
                Figure(c.a.peak_per_watt).c_str(), Figure(c.b.peak_per_watt).c_str(),
                Fixed(1 + c.per_watt_change, "%.3f").c_str());
  out += line;
  std::snprintf(line, sizeof line, "  %-28s %14s %14s\n", "avg power at the peak (W)",
                Figure(c.a.peak_power_w).c_str(), Figure(c.b.peak_power_w).c_str());
  out += line;
  out += "\n" + PeakSentence(c) + "\n" + PerWattSentence(c) + "\n\n";
  std::snprintf(line, sizeof line, "  %9s  %19s  %19s  %8s\n", "instances",
                (c.a.label + " " + metric).c_str(), (c.b.label + " " + metric).c_str(), "ratio");
  out += line;
  for (const SearchCountPair& p : c.counts) {
    const std::string a = p.verdict_a.empty() ? "-" : Figure(p.a) + " " + p.verdict_a;
    const std::string b = p.verdict_b.empty() ? "-" : Figure(p.b) + " " + p.verdict_b;
    const double ratio = std::isfinite(p.a) && std::isfinite(p.b) && p.a > 0 ? p.b / p.a : NAN;
    std::snprintf(line, sizeof line, "  %9d  %19s  %19s  %8s\n", p.count, a.c_str(), b.c_str(),
                  Fixed(ratio, "%.3f").c_str());
    out += line;
  }
  return out;
}

std::string SearchComparisonToJson(const SearchComparison& c) {
  Json j;
  j["kind"] = kSearchComparisonKind;
  auto side = [](const SearchSide& s) {
    return Json{{"label", s.label},
                {"file", s.file},
                {"headline", s.headline},
                {"finished", s.finished},
                {"peak", s.peak},
                {"peak_aggregate", JsonFigure(s.peak_aggregate)},
                {"peak_avg_power_w", JsonFigure(s.peak_power_w)},
                {"peak_per_watt", JsonFigure(s.peak_per_watt)}};
  };
  j["a"] = side(c.a);
  j["b"] = side(c.b);
  j["peak_ratio"] = JsonFigure(c.a.peak > 0 ? 1 + c.peak_change : NAN);
  j["peak_change_pct"] = JsonFigure(c.peak_change * 100);
  j["per_watt_ratio"] = JsonFigure(1 + c.per_watt_change);
  j["per_watt_change_pct"] = JsonFigure(c.per_watt_change * 100);
  j["summary"] = {PeakSentence(c), PerWattSentence(c)};
  Json counts = Json::array();
  for (const SearchCountPair& p : c.counts) {
    counts.push_back({{"count", p.count},
                      {"a_aggregate", JsonFigure(p.a)},
                      {"a_verdict", p.verdict_a.empty() ? Json(nullptr) : Json(p.verdict_a)},
                      {"b_aggregate", JsonFigure(p.b)},
                      {"b_verdict", p.verdict_b.empty() ? Json(nullptr) : Json(p.verdict_b)}});
  }
  j["counts"] = std::move(counts);
  j["warnings"] = c.warnings;
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string SearchComparisonCsv(const SearchComparison& c) {
  const std::string metric = c.a.headline.empty() ? "figure" : c.a.headline;
  std::string out = "instances," + CsvCell(c.a.label + "_" + metric) + "," +
                    CsvCell(c.a.label + "_verdict") + "," + CsvCell(c.b.label + "_" + metric) +
                    "," + CsvCell(c.b.label + "_verdict") + "\n";
  for (const SearchCountPair& p : c.counts) {
    out += std::to_string(p.count) + "," + CsvNumber(p.a) + "," + p.verdict_a + "," +
           CsvNumber(p.b) + "," + p.verdict_b + "\n";
  }
  return out;
}

}  // namespace sb::report
