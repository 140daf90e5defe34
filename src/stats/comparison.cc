#include "stats/comparison.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

namespace sb::report {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Extracted {
  std::string name, words;
  RunFigure figure;
};

// Every figure compare reads from one run, in a stable order: the headline metrics, the
// storage tests' figures, latency percentiles per operation type, power and per-watt figures.
std::vector<Extracted> RunMetrics(const CompareInput& in) {
  const metrics::RunResult& r = in.run;
  std::vector<Extracted> out;
  auto instance_values = [&](auto get) {
    std::vector<double> v;
    for (const metrics::RunResult& i : r.instances) v.push_back(get(i));
    return v;
  };
  auto headline_of = [](const metrics::RunResult& x, const std::string& name) {
    for (const auto& [n, v] : x.headlines) {
      if (n == name) return v;
    }
    return x.headline_name == name ? x.headline_value : kNaN;
  };
  std::vector<std::pair<std::string, double>> headlines = r.headlines;
  if (headlines.empty()) headlines.emplace_back(r.headline_name, r.headline_value);
  for (const auto& [name, value] : headlines) {
    std::string words = name;
    for (const metrics::HeadlineSpec& s : r.headline_specs) {
      if (s.name == name) words = s.words;
    }
    out.push_back({name, words, {value, instance_values([&, n = name](const metrics::RunResult& i) {
                                   return headline_of(i, n);
                                 })}});
  }
  for (const metrics::StorageTest& t : r.storage) {
    out.push_back({t.name + ".iops", "I/Os per second of " + t.name, {t.Iops(), {}}});
    out.push_back({t.name + ".mib_per_sec", "MiB per second of " + t.name, {t.MibPerSec(), {}}});
    out.push_back({t.name + ".avg_response_ms",
                   "average response time of " + t.name,
                   {t.AvgResponseMs(), {}}});
    out.push_back({t.name + ".p99_ms", "99th percentile latency of " + t.name, {t.all_p99_ms, {}}});
  }
  for (size_t k = 0; k < r.type_names.size() && k < r.latency.size(); ++k) {
    const std::string& type = r.type_names[k];
    if (r.latency[k].count == 0) continue;
    auto lat = [&](const char* pct, double metrics::LatencySummary::*field) {
      out.push_back({std::string(pct) + "_ms." + type,
                     std::string(pct) + " latency of " + type + " (ms)",
                     {r.latency[k].*field, instance_values([&](const metrics::RunResult& i) {
                        for (size_t j = 0; j < i.type_names.size() && j < i.latency.size(); ++j) {
                          if (i.type_names[j] == type) return i.latency[j].*field;
                        }
                        return kNaN;
                      })}});
    };
    lat("p50", &metrics::LatencySummary::p50_ms);
    lat("p95", &metrics::LatencySummary::p95_ms);
    lat("p99", &metrics::LatencySummary::p99_ms);
  }
  if (in.has_power && std::isfinite(in.power_mean_w) && in.power_mean_w > 0) {
    out.push_back(
        {"power_mean_w", "mean power over the measured window (W)", {in.power_mean_w, {}}});
    for (const auto& [name, value] : headlines) {
      // Rates per watt (ratio of sums over the window, as SPECpower does), not times per watt.
      if (LowerIsBetter(name)) continue;
      out.push_back({name + "_per_watt", name + " per watt", {value / in.power_mean_w, {}}});
    }
  }
  // Instance values that are missing make the instance level meaningless: resample the run whole.
  for (Extracted& e : out) {
    if (std::any_of(e.figure.instances.begin(), e.figure.instances.end(),
                    [](double v) { return !std::isfinite(v); })) {
      e.figure.instances.clear();
    }
  }
  return out;
}

// The fields two results must share to be compared, name → value as text.
std::vector<std::pair<std::string, std::string>> ComparableFields(const metrics::RunResult& r) {
  std::vector<std::pair<std::string, std::string>> f;
  f.emplace_back("workload", r.workload);
  const nlohmann::json config = nlohmann::json::parse(r.config_json, nullptr, false);
  auto config_field = [&](const char* key) {
    std::string v;
    if (config.is_object() && config.contains(key)) {
      v = config[key].is_string() ? config[key].get<std::string>() : config[key].dump();
    }
    f.emplace_back(std::string("config.") + key, v);
  };
  // The database's size as the run used it. DVD Store, the TPC-C-like workload and Order Entry
  // take the loaded size when --db_size, --warehouses or --soe_scale is left out, and record it
  // in choices; config then holds the option's default (a run on a 20MB database recorded
  // config.db_size "S"). Files without that choice fall back to config.
  auto size_field = [&](const char* key) {
    const auto it = r.choices.find(key);
    if (it == r.choices.end()) {
      config_field(key);
      f.back().first = std::string("database size (") + key + ")";
      return;
    }
    f.emplace_back(std::string("database size (") + key + ")", it->second);
  };
  size_field("db_size");
  size_field("warehouses");
  size_field("soe_scale");
  // oltp's tables and rows (a run uses what it is given), the storage test range, the phases.
  config_field("tables");
  config_field("table_size");
  config_field("max_size");
  config_field("run_time");
  config_field("warmup_time");
  std::string windows;
  for (const metrics::WindowResult& w : r.windows) {
    windows += (windows.empty() ? "" : ",") + w.label;
  }
  f.emplace_back("windows", windows);
  std::string specs;
  for (const metrics::StorageTest& t : r.storage) specs += (specs.empty() ? "" : ",") + t.name;
  f.emplace_back("storage specifications", specs);
  return f;
}

std::string Quote(const std::string& v) { return v.empty() ? "(none)" : "'" + v + "'"; }

}  // namespace

bool LowerIsBetter(const std::string& name) {
  auto ends = [&](const std::string& s) {
    return name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0;
  };
  const std::string base = name.substr(0, name.find('.'));
  auto base_ends = [&](const std::string& s) {
    return base.size() >= s.size() && base.compare(base.size() - s.size(), s.size(), s) == 0;
  };
  return ends("_ms") || ends("_sec") || ends("_w") || base_ends("_ms") || base_ends("_sec");
}

Result<Comparison> Compare(const std::vector<CompareGroup>& groups, const CompareOptions& options) {
  if (groups.size() < 2) {
    return Status::InvalidArgument(
        "compare needs at least two groups (labels, or NAME=glob arguments); got " +
        std::to_string(groups.size()));
  }
  Comparison c;
  c.options = options;
  const CompareInput* first = nullptr;
  std::vector<std::pair<std::string, std::string>> first_fields;
  for (const CompareGroup& g : groups) {
    if (g.runs.empty()) return Status::InvalidArgument("group '" + g.label + "' has no results");
    c.labels.push_back(g.label);
    c.files.emplace_back();
    for (const CompareInput& in : g.runs) {
      c.files.back().push_back(in.file);
      const auto fields = ComparableFields(in.run);
      if (first == nullptr) {
        first = &in;
        first_fields = fields;
        c.workload = in.run.workload;
        continue;
      }
      for (size_t i = 0; i < fields.size(); ++i) {
        if (fields[i].second == first_fields[i].second) continue;
        const std::string what = fields[i].first + " differs: " + Quote(first_fields[i].second) +
                                 " in " + first->file + ", " + Quote(fields[i].second) + " in " +
                                 in.file;
        if (!options.force) {
          return Status::InvalidArgument("cannot compare: " + what +
                                         " (--force compares them anyway)");
        }
        if (std::find(c.mismatches.begin(), c.mismatches.end(), what) == c.mismatches.end()) {
          c.mismatches.push_back(what);
        }
      }
    }
  }

  // Metric order: as the first run lists them, then any others as they appear.
  std::vector<std::string> order;
  std::map<std::string, std::string> words;
  // per metric, per group: the runs' figures (NaN value where a run lacks the metric).
  std::map<std::string, std::vector<std::vector<RunFigure>>> figures;
  for (size_t g = 0; g < groups.size(); ++g) {
    for (size_t k = 0; k < groups[g].runs.size(); ++k) {
      for (Extracted& e : RunMetrics(groups[g].runs[k])) {
        auto it = figures.find(e.name);
        if (it == figures.end()) {
          order.push_back(e.name);
          words[e.name] = e.words;
          it = figures.emplace(e.name, std::vector<std::vector<RunFigure>>(groups.size())).first;
          for (size_t gg = 0; gg < groups.size(); ++gg) {
            it->second[gg].assign(groups[gg].runs.size(), RunFigure{kNaN, {}});
          }
        }
        it->second[g][k] = std::move(e.figure);
      }
    }
  }

  for (const std::string& name : order) {
    MetricComparison m;
    m.name = name;
    m.words = words[name];
    m.lower_is_better = LowerIsBetter(name);
    std::vector<std::vector<RunFigure>> present(groups.size());
    for (size_t g = 0; g < groups.size(); ++g) {
      GroupFigures gf;
      gf.label = groups[g].label;
      std::vector<double> finite;
      for (const RunFigure& f : figures[name][g]) {
        gf.values.push_back(f.value);
        if (std::isfinite(f.value)) {
          finite.push_back(f.value);
          present[g].push_back(f);
        }
      }
      gf.runs = static_cast<int>(finite.size());
      gf.median = Median(finite);
      gf.min = finite.empty() ? kNaN : *std::min_element(finite.begin(), finite.end());
      gf.max = finite.empty() ? kNaN : *std::max_element(finite.begin(), finite.end());
      gf.mean = GroupMean(present[g]);
      gf.stddev = StdDev(finite);
      m.groups.push_back(std::move(gf));
    }
    // The normalization's reference group.
    size_t ref = 0;
    if (options.normalize == "weakest") {
      for (size_t g = 1; g < m.groups.size(); ++g) {
        const double v = m.groups[g].mean, best_ref = m.groups[ref].mean;
        if (!std::isfinite(v)) continue;
        if (!std::isfinite(best_ref) || (m.lower_is_better ? v > best_ref : v < best_ref)) ref = g;
      }
    }
    m.reference = m.groups[ref].label;
    for (GroupFigures& gf : m.groups) {
      const double base = m.groups[ref].mean;
      gf.normalized_pct = base != 0 && std::isfinite(base) ? 100.0 * gf.mean / base : kNaN;
    }
    for (size_t g = 1; g < groups.size(); ++g) {
      PairFigures p;
      p.a = groups[0].label;
      p.b = groups[g].label;
      const std::vector<RunFigure>& a = present[0];
      const std::vector<RunFigure>& b = present[g];
      p.ratio = !a.empty() && !b.empty() && GroupMean(a) != 0 ? GroupMean(b) / GroupMean(a) : kNaN;
      if (a.size() < 2 || b.size() < 2) {
        const std::string& who = a.size() < 2 ? p.a : p.b;
        const size_t n = a.size() < 2 ? a.size() : b.size();
        p.no_interval = "no interval: group '" + who + "' has " + std::to_string(n) +
                        " run(s) with this figure; an interval needs at least 2 per group";
      } else if (!std::isfinite(p.ratio)) {
        p.no_interval = "no interval: the mean of group '" + p.a + "' is 0";
      } else {
        const RatioInterval ci =
            BootstrapRatio(a, b, options.resamples, options.seed, options.confidence);
        if (std::isfinite(ci.low) && std::isfinite(ci.high)) {
          p.has_interval = true;
          p.low = ci.low;
          p.high = ci.high;
        } else {
          p.no_interval = "no interval: every resample of group '" + p.a + "' had a mean of 0";
        }
      }
      if (p.has_interval && p.low > 1.0) {
        p.verdict = "higher";
      } else if (p.has_interval && p.high < 1.0) {
        p.verdict = "lower";
      } else {
        p.verdict = "no difference shown";
      }
      p.better = (p.verdict == "higher" && !m.lower_is_better) ||
                 (p.verdict == "lower" && m.lower_is_better);
      m.pairs.push_back(std::move(p));
    }
    c.metrics.push_back(std::move(m));
  }
  return c;
}

namespace {

std::string Num(double v, const char* fmt = "%.6g") {
  if (!std::isfinite(v)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
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

std::string CsvNum(double v) {
  if (!std::isfinite(v)) return "";
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    char whole[32];
    std::snprintf(whole, sizeof whole, "%.0f", v);
    return whole;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  // The shortest text that reads back to the same value.
  for (int p = 1; p <= 17; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

}  // namespace

bool InSummary(const Comparison& c, const MetricComparison& m) {
  const std::string& n = m.name;
  auto ends_with = [&](const std::string& tail) {
    return n.size() >= tail.size() && n.compare(n.size() - tail.size(), tail.size(), tail) == 0;
  };
  if (n.rfind("p99_ms.", 0) == 0) {
    // The first operation type's (the unit's): the first p99 among the metrics.
    for (const MetricComparison& x : c.metrics) {
      if (x.name.rfind("p99_ms.", 0) == 0) return &x == &m;
    }
  }
  if (n.find('.') == std::string::npos) return true;
  return ends_with(".iops") || ends_with(".mib_per_sec");
}

namespace {

// A pair's ratio, interval and verdict in one phrase ("B/A = 1.2727 [1.1, 1.4]: B higher").
std::string PairLine(const PairFigures& p) {
  std::string out = p.b + "/" + p.a + " = " + Num(p.ratio, "%.4f");
  if (p.has_interval) {
    out += " [" + Num(p.low, "%.4f") + ", " + Num(p.high, "%.4f") + "]: " + p.b + " " + p.verdict;
    if (p.verdict != "no difference shown") out += p.better ? " (better)" : " (worse)";
  } else {
    out += " (" + p.no_interval + ")";
  }
  return out;
}

std::string Heading(const Comparison& c) {
  std::string out = "comparison of " + std::to_string(c.labels.size()) + " groups (" + c.workload +
                    "): ratio of means, " + Num(c.options.confidence * 100, "%.0f") +
                    " % interval from a hierarchical bootstrap (runs, then instances), " +
                    std::to_string(c.options.resamples) + " resamples, seed " +
                    std::to_string(c.options.seed) + "\n";
  for (size_t g = 0; g < c.labels.size(); ++g) {
    out += "  " + c.labels[g] + ": " + std::to_string(c.files[g].size()) + " run(s)\n";
  }
  for (const std::string& m : c.mismatches) out += "  warning (--force): " + m + "\n";
  return out;
}

std::string Summary(const Comparison& c) {
  std::string out = Heading(c) + "\n";
  char line[512];
  std::string heads;
  for (const std::string& l : c.labels) {
    std::snprintf(line, sizeof line, " %12.12s", l.c_str());
    heads += line;
  }
  std::snprintf(line, sizeof line, "  %-24s%s  (medians)\n", "metric", heads.c_str());
  out += line;
  int more = 0;
  for (const MetricComparison& m : c.metrics) {
    if (!InSummary(c, m)) {
      ++more;
      continue;
    }
    std::string medians;
    for (const GroupFigures& g : m.groups) medians += " " + Num(g.median, "%12.6g");
    std::snprintf(line, sizeof line, "  %-24.24s%s", m.name.c_str(), medians.c_str());
    out += line;
    for (size_t k = 0; k < m.pairs.size(); ++k) {
      out += (k == 0 ? "  " : "\n  " + std::string(24 + 13 * m.groups.size(), ' ') + "  ") +
             PairLine(m.pairs[k]);
    }
    out += "\n";
  }
  if (more > 0) {
    out += "(" + std::to_string(more) +
           " more metrics, each with its spread and % of the reference: --verbose)\n";
  }
  return out;
}

}  // namespace

std::string FormatComparison(const Comparison& c, bool verbose) {
  if (!verbose) return Summary(c);
  std::string out = Heading(c);
  char line[512];
  for (const MetricComparison& m : c.metrics) {
    out += "\n" + m.name + " (" + m.words + (m.lower_is_better ? "; lower is better" : "") +
           "), % of " + m.reference + "\n";
    std::snprintf(line, sizeof line, "  %-16s %4s %14s %14s %14s %9s\n", "group", "runs", "median",
                  "min", "max", "% of ref");
    out += line;
    for (const GroupFigures& g : m.groups) {
      std::snprintf(line, sizeof line, "  %-16.16s %4d %14s %14s %14s %8s%%\n", g.label.c_str(),
                    g.runs, Num(g.median).c_str(), Num(g.min).c_str(), Num(g.max).c_str(),
                    Num(g.normalized_pct, "%.1f").c_str());
      out += line;
    }
    for (const PairFigures& p : m.pairs) out += "  " + PairLine(p) + "\n";
  }
  return out;
}

std::string ComparisonCsv(const Comparison& c) {
  std::string out =
      "metric,group,runs,median,min,max,mean,stddev,normalized_pct,reference,ratio_to_first,"
      "ci_low,ci_high,verdict\n";
  for (const MetricComparison& m : c.metrics) {
    for (size_t g = 0; g < m.groups.size(); ++g) {
      const GroupFigures& gf = m.groups[g];
      const PairFigures* p = g == 0 ? nullptr : &m.pairs[g - 1];
      out += CsvCell(m.name) + "," + CsvCell(gf.label) + "," + std::to_string(gf.runs) + "," +
             CsvNum(gf.median) + "," + CsvNum(gf.min) + "," + CsvNum(gf.max) + "," +
             CsvNum(gf.mean) + "," + CsvNum(gf.stddev) + "," + CsvNum(gf.normalized_pct) + "," +
             CsvCell(m.reference) + "," + (p == nullptr ? "1" : CsvNum(p->ratio)) + "," +
             (p != nullptr && p->has_interval ? CsvNum(p->low) : "") + "," +
             (p != nullptr && p->has_interval ? CsvNum(p->high) : "") + "," +
             CsvCell(p == nullptr ? "reference" : p->verdict) + "\n";
    }
  }
  return out;
}

}  // namespace sb::report
