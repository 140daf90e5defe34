#include "report/console/live.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

namespace sb::report {

std::string ProgressJsonLine(const metrics::TimeSeries& series,
                             const metrics::StatusFigures& running) {
  nlohmann::ordered_json j;
  if (series.points.empty()) return "{}";
  const metrics::IntervalPoint& p = series.points.back();
  // The point's own span: the last point of a run ends when the run does, often a few
  // milliseconds after the one before, and its count divided by a whole interval would show a
  // false collapse of the rate (as the report's charts once did).
  const double span = series.PointSeconds(series.points.size() - 1);
  j["t"] = p.t_sec;
  j["phase"] = p.phase;
  nlohmann::ordered_json types = nlohmann::ordered_json::object();
  for (size_t i = 0; i < series.type_names.size() && i < p.type_counts.size(); ++i) {
    types[series.type_names[i]] = {{"per_sec", static_cast<double>(p.type_counts[i]) / span},
                                   {"mean_ms", p.type_mean_ms[i]},
                                   {"p99_ms", p.type_p99_ms[i]}};
  }
  j["types"] = types;
  nlohmann::ordered_json counters = nlohmann::ordered_json::object();
  for (size_t i = 0; i < series.counter_names.size() && i < p.counters.size(); ++i) {
    counters[series.counter_names[i]] = p.counters[i];
  }
  j["counters"] = counters;
  j["running"] = {{"et", running.et_sec},
                  {"n_overall", running.n_overall},
                  {"opm", running.opm},
                  {"rt_tot_avg_msec", running.rt_tot_avg_msec},
                  {"rollbacks", running.n_rollbacks}};
  return j.dump();
}

namespace {

std::string Escape(const std::string& v) {
  std::string out;
  for (char c : v) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

std::string Num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace

namespace {

// A metric name part from a series name: letters, digits and '_' (Prometheus' name rule).
std::string NamePart(const std::string& s) {
  std::string out;
  for (char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    out += ok ? c : '_';
  }
  return out;
}

// Builds the exposition: families in first-use order, each with its HELP and TYPE once, and
// each series (name and labels) once.
class Exposition {
 public:
  void Family(const std::string& name, const char* type, const std::string& help) {
    if (std::find(families_.begin(), families_.end(), name) != families_.end()) return;
    families_.push_back(name);
    text_[name] = "# HELP " + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
  }
  // `family` must have been declared; `sample` is its name or name + suffix (_sum, _count).
  void Sample(const std::string& family, const std::string& sample, const std::string& labels,
              const std::string& value) {
    const std::string series = sample + "{" + labels + "}";
    if (!seen_.insert(series).second) return;
    text_[family] += series + " " + value + "\n";
  }
  std::string Text() const {
    std::string out;
    for (const std::string& f : families_) out += text_.at(f);
    return out;
  }

 private:
  std::vector<std::string> families_;
  std::map<std::string, std::string> text_;
  std::set<std::string> seen_;
};

}  // namespace

std::string PrometheusText(const std::string& workload, const metrics::TimeSeries& series,
                           const metrics::StatusFigures& running) {
  const std::string wl = "workload=\"" + Escape(workload) + "\"";
  std::vector<uint64_t> count(series.type_names.size(), 0);
  std::vector<double> sum_ms(series.type_names.size(), 0);
  std::vector<int64_t> counter_totals(series.counter_names.size(), 0);
  for (const auto& p : series.points) {
    for (size_t i = 0; i < count.size() && i < p.type_counts.size(); ++i) {
      count[i] += p.type_counts[i];
      if (i < p.type_mean_ms.size()) sum_ms[i] += p.type_mean_ms[i] * p.type_counts[i];
    }
    for (size_t i = 0; i < counter_totals.size() && i < p.counters.size(); ++i) {
      counter_totals[i] += p.counters[i];
    }
  }
  Exposition e;
  // Latency per operation type, in seconds: a summary whose quantile is the last interval's
  // (a sliding window of one interval) and whose _sum and _count run since Start. Its _count is
  // the number of operations (no separate counter repeats it).
  const std::string lat = "storebench_operation_duration_seconds";
  e.Family(lat, "summary",
           "Operation latency by type (type 0 is the unit of work, e.g. order): the 0.99 "
           "quantile of the last interval; _sum and _count since Start.");
  const metrics::IntervalPoint* last = series.points.empty() ? nullptr : &series.points.back();
  for (size_t i = 0; i < count.size(); ++i) {
    const std::string labels = wl + ",type=\"" + Escape(series.type_names[i]) + "\"";
    if (last != nullptr && i < last->type_p99_ms.size()) {
      e.Sample(lat, lat, labels + ",quantile=\"0.99\"", Num(last->type_p99_ms[i] / 1000.0));
    }
    e.Sample(lat, lat + "_sum", labels, Num(sum_ms[i] / 1000.0));
    e.Sample(lat, lat + "_count", labels, std::to_string(count[i]));
  }
  // One counter per kind: errors by category, a dotted name's kind as a label
  // ("statements_sent.select"), bytes and other counts under their own names.
  for (size_t i = 0; i < counter_totals.size(); ++i) {
    const std::string& name = series.counter_names[i];
    const size_t dot = name.find('.');
    std::string family, labels = wl, help;
    if (dot != std::string::npos) {
      const std::string head = name.substr(0, dot), kind = name.substr(dot + 1);
      family = "storebench_" + NamePart(head) + "_total";
      labels += (head == "errors" ? ",category=\"" : ",kind=\"") + Escape(kind) + "\"";
      help = head == "errors" ? "Failed database calls by error category since Start."
                              : "Count of " + head + " by kind since Start.";
    } else if (name == "late") {
      family = "storebench_late_operations_total";
      help = "Operations slower than --latency_limit since Start.";
    } else {
      family = "storebench_" + NamePart(name) + "_total";
      help = "Count of " + name + " since Start.";
    }
    e.Family(family, "counter", help);
    e.Sample(family, family, labels, std::to_string(counter_totals[i]));
  }
  e.Family("storebench_elapsed_seconds", "gauge",
           "Seconds since Start, or since the warm-up reset once it has happened.");
  e.Sample("storebench_elapsed_seconds", "storebench_elapsed_seconds", wl, Num(running.et_sec));
  return e.Text();
}

}  // namespace sb::report
