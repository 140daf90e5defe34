#include "report/files/consolidation_table.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace sb::report {
namespace {

// A figure as the table prints it: whole numbers from 100 up, one decimal from 10, two below;
// "-" for one the run lacks.
std::string Cell(double v) {
  if (!std::isfinite(v)) return "-";
  char buf[48];
  const double a = std::fabs(v);
  std::snprintf(buf, sizeof buf, a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : "%.2f", v);
  return buf;
}

// The deciding window's label of the search (the rule is the same for every run).
std::string WindowOf(const std::vector<const SearchCount*>& counts) {
  for (const SearchCount* c : counts) {
    const std::string& l = c->runs[c->median_run].window.label;
    if (!l.empty()) return l;
  }
  return "";
}

}  // namespace

std::string CsvNumber(double v) {
  if (!std::isfinite(v)) return "";
  char buf[64];
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  for (int p = 1; p <= 17; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

std::string CsvCell(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"') out += '"';
    out += ch;
  }
  return out + "\"";
}

std::string MetricHeading(const std::string& headline) {
  std::string out = headline.empty() ? "figure" : headline;
  for (char& ch : out) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return out;
}

std::string PerWattHeading(const std::string& headline) { return MetricHeading(headline) + "/W"; }

std::vector<const SearchCount*> DecidedCounts(const Search& s) {
  std::vector<const SearchCount*> out;
  for (const SearchCount& c : s.counts) {
    if (c.median_run >= 0 && c.median_run < static_cast<int>(c.runs.size())) out.push_back(&c);
  }
  std::sort(out.begin(), out.end(),
            [](const SearchCount* a, const SearchCount* b) { return a->count < b->count; });
  return out;
}

namespace {

// "  3 instance(s), run 2: fault: instance ds3_2: 4 reconnects (set aside, run again)".
std::string FailedRunLine(int count, const SearchRun& r, bool set_aside) {
  return "  " + std::to_string(count) + " instance(s), run " + std::to_string(r.run_no) + ": " +
         (r.run_class.empty() ? "failed" : r.run_class) +
         (r.class_reason.empty() ? "" : ": " + r.class_reason) +
         (!set_aside                  ? ""
          : r.run_class == "no_start" ? " (not counted)"
                                      : " (set aside, run again)") +
         "\n";
}

// Each failed or set-aside run's class and reason, for under the table.
std::string FailedRuns(const Search& s) {
  std::vector<const SearchCount*> counts;
  for (const SearchCount& c : s.counts) counts.push_back(&c);
  std::sort(counts.begin(), counts.end(),
            [](const SearchCount* a, const SearchCount* b) { return a->count < b->count; });
  std::string out;
  for (const SearchCount* c : counts) {
    for (const SearchRun& r : c->set_aside) out += FailedRunLine(c->count, r, true);
    for (size_t k = 0; k < c->runs.size(); ++k) {
      SearchRun r = c->runs[k];
      r.run_no = static_cast<int>(k) + 1;
      if (!r.passed) out += FailedRunLine(c->count, r, false);
    }
  }
  return out.empty() ? out : "failed runs:\n" + out;
}

}  // namespace

std::string FormatSearchTable(const Search& s) {
  const std::vector<const SearchCount*> counts = DecidedCounts(s);
  const std::string metric = MetricHeading(s.headline);
  const std::string window = WindowOf(counts);
  std::string out = "consolidation search (" + s.step + ", " + std::to_string(s.runs) +
                    " run(s) per count, each count decided on its median run)\n" +
                    "per count: the median run's figures in the deciding window " +
                    (window == "run"  ? std::string("(the measured window)")
                     : window.empty() ? std::string("(not recorded in this search file)")
                                      : window) +
                    "\n";
  char line[256];
  std::snprintf(line, sizeof line, "  %9s  %11s  %12s  %10s  %11s  %9s  %15s  %s\n", "instances",
                "runs passed", ("aggr. " + metric).c_str(), "host CPU %", "avg power W",
                PerWattHeading(s.headline).c_str(), "verdict",
                ("each instance's " + metric).c_str());
  out += line;
  for (const SearchCount* c : counts) {
    const SearchWindow& w = c->runs[c->median_run].window;
    std::string each;
    for (double v : w.instances) each += (each.empty() ? "" : " ") + Cell(v);
    const std::string passed =
        std::to_string(c->runs_passed()) + " of " + std::to_string(c->runs.size());
    // A failed count says why its median run failed: out of capacity, or a fault.
    const std::string& cls = c->runs[c->median_run].run_class;
    const std::string verdict = c->passed ? "PASS" : "FAIL" + (cls.empty() ? "" : " (" + cls + ")");
    std::snprintf(line, sizeof line, "  %9d  %11s  %12s  %10s  %11s  %9s  %15s  %s\n", c->count,
                  passed.c_str(), Cell(w.aggregate).c_str(), Cell(w.host_cpu_pct).c_str(),
                  Cell(w.power_w).c_str(), Cell(w.per_watt).c_str(), verdict.c_str(), each.c_str());
    out += line;
  }
  out += FailedRuns(s);
  const SearchCount* at_peak = nullptr;
  const SearchCount* above = nullptr;
  for (const SearchCount& c : s.counts) {
    if (c.count == s.peak) at_peak = &c;
    if (c.count == s.peak + 1) above = &c;
  }
  if (s.peak == 0) {
    out += "peak: none (the first count, " + std::to_string(s.from) + ", failed its baseline)\n";
    return out;
  }
  out += "peak: " + std::to_string(s.peak) + " instance(s)";
  if (at_peak != nullptr) {
    out += "; " + std::to_string(at_peak->runs_passed()) + " of " +
           std::to_string(at_peak->runs.size()) + " runs passed at the peak";
  }
  if (above != nullptr) {
    out += ", " + std::to_string(above->runs_passed()) + " of " +
           std::to_string(above->runs.size()) + " at " + std::to_string(s.peak + 1);
  } else if (s.peak >= s.to) {
    out += " (the top of the range: the peak may be higher)";
  }
  return out + "\n";
}

std::string SearchTableCsv(const Search& s) {
  const std::vector<const SearchCount*> counts = DecidedCounts(s);
  const std::string metric = s.headline.empty() ? "figure" : s.headline;
  size_t widest = 0;
  for (const SearchCount* c : counts) {
    widest = std::max(widest, c->runs[c->median_run].window.instances.size());
  }
  std::string out = "instances,runs,runs_passed,verdict,window," + CsvCell(metric) +
                    ",host_cpu_pct,avg_power_w," + CsvCell(metric + "_per_watt");
  for (size_t i = 1; i <= widest; ++i) {
    out += "," + CsvCell("instance_" + std::to_string(i) + "_" + metric);
  }
  out += "\n";
  for (const SearchCount* c : counts) {
    const SearchWindow& w = c->runs[c->median_run].window;
    out += std::to_string(c->count) + "," + std::to_string(c->runs.size()) + "," +
           std::to_string(c->runs_passed()) + "," + (c->passed ? "PASS" : "FAIL") + "," +
           CsvCell(w.label) + "," + CsvNumber(w.aggregate) + "," + CsvNumber(w.host_cpu_pct) + "," +
           CsvNumber(w.power_w) + "," + CsvNumber(w.per_watt);
    for (size_t i = 0; i < widest; ++i) {
      out += "," + (i < w.instances.size() ? CsvNumber(w.instances[i]) : std::string());
    }
    out += "\n";
  }
  return out;
}

}  // namespace sb::report
