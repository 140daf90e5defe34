#include "cli/scale_out.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>

#include "base/clock.h"
#include "cli/app.h"
#include "dist/world.h"
#include "version/version.h"

namespace sb::cli {
namespace {

// The commands that scale out: every rank runs its share of one run. Anything else (a load, a
// verification) would run K times over the same data.
bool ScalesOut(const std::vector<std::string>& args) {
  if (args.size() < 2) return false;
  if (args[0] == "io") return args[1] == "run";
  if (args[0] == "run" || args[0] == "consolidate") return true;  // a plan's runs
  return args[0] == "oltp" && (args[1] == "run" || args.back() == "run");
}

double Round3(double v) { return std::round(v * 1000) / 1000; }

}  // namespace

int MainUnderMpirun(int argc, char** argv, int (*command)(int, char**)) {
  if (Status s = dist::StartWorld(&argc, &argv); !s.ok()) {
    // Every rank fails alike before any group exists: rank 0 alone says so.
    return dist::RankFromEnvironment() > 0 ? kExitBadInput : Fail(s);
  }
  dist::Group* g = dist::World();
  if (g == nullptr) {  // mpirun -np 1: a run of one process, exactly as without mpirun
    const int code = command(argc, argv);
    dist::EndWorld();
    return code;
  }
  const std::vector<std::string> args(argv + 1, argv + argc);
  // Every rank must run the same storebench with the same command line (the effective
  // configuration, config files included, is compared again before a run starts).
  std::string same = "storebench " + version::VersionLine();  // the commit too
  for (const std::string& a : args) same += '\0' + a;
  Status check = g->CheckSame(same, "storebench version or command line");
  if (check.ok() && !ScalesOut(args)) {
    check = Status::InvalidArgument(
        "only 'oltp run', 'io run', 'run --plan' and 'consolidate' scale out over mpirun ranks; "
        "run other "
        "commands once, without mpirun (or with -np 1)");
  }
  if (!check.ok()) {
    const int code = g->coordinator() ? Fail(check) : kExitBadInput;
    dist::EndWorld();
    return code;
  }
  // Rank 0 speaks for the run; the others' consoles would repeat it K times over.
  if (!g->coordinator() && std::getenv("STOREBENCH_RANK_OUTPUT") == nullptr) {
    const int null_fd = open("/dev/null", O_WRONLY);
    if (null_fd >= 0) {
      std::fflush(stdout);
      std::fflush(stderr);
      dup2(null_fd, STDOUT_FILENO);
      dup2(null_fd, STDERR_FILENO);
      close(null_fd);
    }
  }
  const int code = command(argc, argv);
  dist::EndWorld();
  return code;
}

void DeclareScaleOutOptions(config::OptionSet* o) {
  o->Add(
      {.name = "rank_split",
       .type = config::OptionType::kEnum,
       .default_value = "threads",
       .help =
           "under mpirun -np K: how the work is divided among the K ranks (threads: each rank runs "
           "about 1/K of the threads of every instance; instances: rank r runs the instances i of "
           "a "
           "target list with i mod K = r; docs/scale-out.md)",
       .group = "scale-out",
       .choices = {"threads", "instances"}});
  o->Add({.name = "rank_timeout",
          .type = config::OptionType::kDuration,
          .default_value = "10s",
          .help = "under mpirun: a rank that does not answer rank 0 for this long is lost and the "
                  "run ends "
                  "on every rank, its result marked incomplete",
          .group = "scale-out",
          .min = kNanosPerSecond});
}

Result<int64_t> RankShare(const config::OptionSet& o, int64_t total, const std::string& what,
                          int instance, int instances) {
  dist::Group* g = dist::World();
  if (g == nullptr) return total;
  return ShareOf(o.GetString("rank_split"), g->rank(), g->size(), total, what, instance, instances);
}

void SplitPlanAmongRanks(PlanBuild* build) {
  dist::Group* g = dist::World();
  if (g == nullptr) return;
  // --rank_split is run-wide (the same for every instance): read at the first instance's check,
  // which comes before any database is touched.
  auto by_instances = std::make_shared<bool>(false);
  build->check = [g, by_instances](int index, int count, const config::OptionSet& o) {
    if (index == 0) *by_instances = o.GetString("rank_split") == "instances";
    auto share = ShareOf(o.GetString("rank_split"), g->rank(), g->size(), o.GetInt("n_threads"),
                         "threads", index, count);
    return share.ok() ? Status::Ok() : share.status();
  };
  build->owns = [g, by_instances](int index) {
    return *by_instances ? index % g->size() == g->rank() : g->coordinator();
  };
}

Result<std::vector<DbSetup>> BuildPlanOnRanks(const config::Plan& plan, PlanBuild build,
                                              const db::BackendRegistry& backends,
                                              const workload::WorkloadRegistry& workloads) {
  dist::Group* const group = dist::World();
  if (group == nullptr) return BuildPlanInstances(plan, build, backends, workloads);
  SplitPlanAmongRanks(&build);
  auto setups = BuildPlanInstances(plan, build, backends, workloads);
  // Every rank built its part (and loaded its databases); then each opens the others'.
  Status built = group->AllOk(setups.ok() ? Status::Ok() : setups.status());
  if (built.ok()) built = group->AllOk(PrepareOthers(build, backends, &*setups));
  if (!built.ok()) return built;
  return setups;
}

bool FinishScaleOut(dist::Group& g, const config::OptionSet& o, int64_t threads,
                    double measured_sec, const std::vector<std::string>& instance_names,
                    metrics::RunResult* r) {
  const std::vector<dist::RankReport> reports = g.Finish(threads);
  if (!g.coordinator()) return !g.any_lost();
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
    nlohmann::json j;
    j["rank"] = rep.rank;
    j["host"] = rep.host;
    j["threads"] = rep.threads;
    // The instances this rank ran (whole, or its share of their threads).
    nlohmann::json ran = nlohmann::json::array();
    for (size_t i = 0; i < instance_names.size(); ++i) {
      if (o.GetString("rank_split") != "instances" ||
          static_cast<int>(i % static_cast<size_t>(g.size())) == rep.rank) {
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
    after_end_units += late_units;
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
    max_skew = std::max(max_skew, std::abs(rep.start_skew_ms));
    j["lost"] = rep.lost;
    if (rep.lost) j["lost_reason"] = rep.lost_reason;
    per.push_back(std::move(j));
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
    r->choices["op_log"] = "each rank wrote the operations it ran to its own file, " +
                           RankOpLogPath(o.GetString("op_log"), 0) + " for rank 0 and so on";
  }
  if (g.any_lost()) {
    r->warnings.push_back("incomplete: " + g.LostSummary() +
                          "; the figures hold what every rank reported until then");
  }
  return !g.any_lost();
}

}  // namespace sb::cli
