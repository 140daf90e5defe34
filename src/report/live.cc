#include "report/live.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <vector>

namespace sb::report {

std::string ProgressJsonLine(const metrics::TimeSeries& series,
                             const metrics::StatusFigures& running) {
  nlohmann::ordered_json j;
  if (series.points.empty()) return "{}";
  const metrics::IntervalPoint& p = series.points.back();
  j["t"] = p.t_sec;
  j["phase"] = p.phase;
  nlohmann::ordered_json types = nlohmann::ordered_json::object();
  for (size_t i = 0; i < series.type_names.size() && i < p.type_counts.size(); ++i) {
    types[series.type_names[i]] = {
        {"per_sec", static_cast<double>(p.type_counts[i]) / series.interval_sec},
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

void Metric(std::string* out, const char* name, const char* type, const char* help) {
  *out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
}

std::string Num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace

std::string PrometheusText(const std::string& workload, const metrics::TimeSeries& series,
                           const metrics::StatusFigures& running) {
  const std::string wl = "workload=\"" + Escape(workload) + "\"";
  std::vector<uint64_t> type_totals(series.type_names.size(), 0);
  std::vector<int64_t> counter_totals(series.counter_names.size(), 0);
  for (const auto& p : series.points) {
    for (size_t i = 0; i < type_totals.size() && i < p.type_counts.size(); ++i) {
      type_totals[i] += p.type_counts[i];
    }
    for (size_t i = 0; i < counter_totals.size() && i < p.counters.size(); ++i) {
      counter_totals[i] += p.counters[i];
    }
  }
  std::string out;
  Metric(&out, "storebench_operations_total", "counter",
         "Completed operations by type since Start (type 0 is the unit of work, e.g. order).");
  for (size_t i = 0; i < type_totals.size(); ++i) {
    out += "storebench_operations_total{" + wl + ",type=\"" + Escape(series.type_names[i]) +
           "\"} " + std::to_string(type_totals[i]) + "\n";
  }
  Metric(&out, "storebench_events_total", "counter",
         "Counted events since Start: rollbacks, errors by category, retries, late operations.");
  for (size_t i = 0; i < counter_totals.size(); ++i) {
    out += "storebench_events_total{" + wl + ",event=\"" + Escape(series.counter_names[i]) +
           "\"} " + std::to_string(counter_totals[i]) + "\n";
  }
  if (!series.points.empty()) {
    const metrics::IntervalPoint& p = series.points.back();
    Metric(&out, "storebench_rate_per_second", "gauge", "Operations per second in the last interval.");
    for (size_t i = 0; i < p.type_counts.size() && i < series.type_names.size(); ++i) {
      out += "storebench_rate_per_second{" + wl + ",type=\"" + Escape(series.type_names[i]) +
             "\"} " + Num(static_cast<double>(p.type_counts[i]) / series.interval_sec) + "\n";
    }
    Metric(&out, "storebench_latency_ms", "gauge",
           "Latency in the last interval by type: mean and 0.99 quantile, in milliseconds.");
    for (size_t i = 0; i < p.type_counts.size() && i < series.type_names.size(); ++i) {
      const std::string labels = wl + ",type=\"" + Escape(series.type_names[i]) + "\"";
      out += "storebench_latency_ms{" + labels + ",stat=\"mean\"} " + Num(p.type_mean_ms[i]) + "\n";
      out += "storebench_latency_ms{" + labels + ",stat=\"p99\"} " + Num(p.type_p99_ms[i]) + "\n";
    }
  }
  Metric(&out, "storebench_running_per_minute", "gauge",
         "Units per minute since the warm-up reset (DVD Store's running-average OPM).");
  out += "storebench_running_per_minute{" + wl + "} " + std::to_string(running.opm) + "\n";
  Metric(&out, "storebench_elapsed_seconds", "gauge", "Seconds since Start or the warm-up reset.");
  out += "storebench_elapsed_seconds{" + wl + "} " + Num(running.et_sec) + "\n";
  return out;
}

}  // namespace sb::report
