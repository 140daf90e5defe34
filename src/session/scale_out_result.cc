#include "session/scale_out_result.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "session/op_log_paths.h"
#include "session/rank_share.h"

namespace sb::session {
namespace {

double Round3(double v) { return std::round(v * 1000) / 1000; }

// One rank's part of the "scale_out" section: where it ran, what it did, its clock.
nlohmann::json RankSection(const dist::RankReport& rep, int ranks, const std::string& rank_split,
                           double measured_sec, const std::vector<std::string>& instance_names) {
  nlohmann::json j;
  j["rank"] = rep.rank;
  j["host"] = rep.host;
  j["threads"] = rep.threads;
  // The instances this rank ran (whole, or its share of their threads).
  nlohmann::json ran = nlohmann::json::array();
  for (size_t i = 0; i < instance_names.size(); ++i) {
    if (rank_split != "instances" || static_cast<int>(i % static_cast<size_t>(ranks)) == rep.rank) {
      ran.push_back(instance_names[i]);
    }
  }
  j["instances"] = std::move(ran);
  const uint64_t units = rep.measured.types.empty() ? 0 : rep.measured.types[0].count();
  uint64_t ops = 0;
  for (const auto& h : rep.measured.types) ops += h.count();
  j["units"] = units;
  j["operations"] = ops;
  const uint64_t late_units = rep.after_end.types.empty() ? 0 : rep.after_end.types[0].count();
  uint64_t late_ops = 0;
  for (const auto& h : rep.after_end.types) late_ops += h.count();
  j["after_end_units"] = late_units;
  j["after_end_operations"] = late_ops;
  j["units_per_sec"] = measured_sec > 0 ? Round3(static_cast<double>(units) / measured_sec) : 0;
  j["driver_cpu_sec"] = Round3(rep.driver_cpu_sec);
  j["driver_cpu_share"] = measured_sec > 0 ? Round3(rep.driver_cpu_sec / measured_sec) : 0;
  j["clock_offset_ms"] = {{"start", Round3(rep.offset_start_ms)},
                          {"start_uncertainty", Round3(rep.uncertainty_start_ms)}};
  if (rep.offset_end_measured) {
    j["clock_offset_ms"]["end"] = Round3(rep.offset_end_ms);
    j["clock_offset_ms"]["end_uncertainty"] = Round3(rep.uncertainty_end_ms);
  }
  j["start_skew_ms"] = Round3(rep.start_skew_ms);
  j["lost"] = rep.lost;
  if (rep.lost) j["lost_reason"] = rep.lost_reason;
  return j;
}

}  // namespace

bool FinishScaleOut(dist::Group& g, const config::OptionSet& o, int64_t threads,
                    double measured_sec, const std::vector<std::string>& instance_names,
                    metrics::RunResult* r, const std::string& note,
                    std::vector<std::string>* notes) {
  const std::vector<dist::RankReport> reports = g.Finish(threads, note);
  if (!g.coordinator()) return !g.any_lost();
  if (notes != nullptr) {
    for (const dist::RankReport& rep : reports) notes->push_back(rep.note);
  }
  if (!r->scale_out_json.empty()) {  // a second test of an io run: the first one's section stays
    if (g.any_lost()) r->warnings.push_back("incomplete: " + g.LostSummary());
    return !g.any_lost();
  }
  nlohmann::json so;
  so["ranks"] = g.size();
  so["rank_split"] = o.GetString("rank_split");
  so["rank_timeout_sec"] = static_cast<double>(o.GetDurationNanos("rank_timeout")) / 1e9;
  so["complete"] = !g.any_lost();
  so["incomplete_reason"] = g.LostSummary();
  so["merge"] =
      "every second each rank sends its cumulative histograms (every bucket) and counters to "
      "rank 0, which adds them bucket by bucket: the figures above are the whole run's; the end "
      "of the run is agreed, so the measured window ends at the same instant on every rank";
  double max_skew = 0;
  uint64_t after_end_units = 0;
  nlohmann::json per = nlohmann::json::array();
  for (const dist::RankReport& rep : reports) {
    per.push_back(
        RankSection(rep, g.size(), o.GetString("rank_split"), measured_sec, instance_names));
    max_skew = std::max(max_skew, std::abs(rep.start_skew_ms));
    after_end_units += rep.after_end.types.empty() ? 0 : rep.after_end.types[0].count();
  }
  so["start_skew_ms_max"] = Round3(max_skew);
  so["after_end_units"] = after_end_units;
  so["stonewall"] =
      "the measured window ended at one instant agreed by every rank; units a rank finished "
      "after it (work in flight, a slow rank's last ones) are in after_end_units, not in the "
      "measured figures";
  so["per_rank"] = std::move(per);
  r->scale_out_json = so.dump();
  r->choices["scale_out"] =
      "run by " + std::to_string(g.size()) + " mpirun ranks, " +
      (o.GetString("rank_split") == "instances"
           ? std::string("rank r running whole instances i with i mod ranks = r")
           : std::string("each running its share of every instance's threads")) +
      ", with its own random streams (seed + 7919 x rank); rank 0 merged every rank's "
      "histograms and counters exactly";
  if (o.Has("op_log") && !o.GetString("op_log").empty()) {
    if (instance_names.size() > 1) {
      // Each instance its own file (op_log_paths.h), and each rank its own of that.
      r->choices["op_log"] =
          "each rank wrote the operations it ran of each instance to a file of its own, " +
          RankOpLogPath(InstanceOpLogPath(o.GetString("op_log"), instance_names[0], 1, true), 0) +
          " for instance " + instance_names[0] + " on rank 0 and so on";
    } else {
      r->choices["op_log"] = "each rank wrote the operations it ran to its own file, " +
                             RankOpLogPath(o.GetString("op_log"), 0) + " for rank 0 and so on";
    }
  }
  if (g.any_lost()) {
    r->warnings.push_back("incomplete: " + g.LostSummary() +
                          "; the figures hold what every rank reported until then");
  }
  return !g.any_lost();
}

}  // namespace sb::session
