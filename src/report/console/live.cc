#include "report/console/live.h"

#include <nlohmann/json.hpp>

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

}  // namespace sb::report
