#include "cli/consolidate_checks.h"

#include "cli/command_inputs.h"
#include "cli/plan_host.h"
#include "cli/scale_out.h"
#include "experiment/deciding_window.h"
#include "metrics/windows.h"
#include "session/output_paths.h"

namespace sb::cli {
namespace {

using session::DbSetup;
using session::PathUse;

// The window that decides a run (its first baseline's) added to the run's --window list when
// it is not there, so every run's result has every instance's figures, the power and the
// figures per watt over it (report/files/consolidation_table.h). `windows` and `baselines`
// are the options as the plan and the command line set them; "" when nothing is to be added.
std::string WindowArgument(const std::string& windows, const std::string& baselines) {
  const std::string first = baselines.substr(0, baselines.find(';'));
  const std::string label = experiment::RuleWindow(first);
  if (label.empty() || label == metrics::kWholeRunWindow) return "";
  for (size_t at = 0; at <= windows.size();) {
    size_t comma = windows.find(',', at);
    if (comma == std::string::npos) comma = windows.size();
    std::string w = windows.substr(at, comma - at);
    w.erase(0, w.find_first_not_of(' '));
    w.erase(w.find_last_not_of(' ') + 1);
    if (w == label) return "";
    at = comma + 1;
  }
  return "--window=" + (windows.empty() ? label : windows + "," + label);
}

// After the plan's checks: the databases of the top count, which are every count's (the scale
// group's first n of them, the other groups' all), each reached and checked once, by rank 0,
// and none changed (PlanBuild::probe_only).
Status ProbeDatabases(const config::Plan& plan, int top, const std::vector<std::string>& extra,
                      const db::BackendRegistry& backends,
                      const workload::WorkloadRegistry& workloads, dist::Group* group) {
  PlanBuild probe;
  probe.scale_count = top;
  probe.command = "consolidate";
  probe.extra_args = extra;
  probe.probe_only = true;
  Status st = Status::Ok();
  if (group == nullptr || group->coordinator()) {
    auto probed = BuildPlanInstances(plan, probe, backends, workloads, CliPlanHost(workloads));
    if (!probed.ok()) st = probed.status();
  }
  if (group != nullptr) st = group->AllOk(st);
  if (st.ok()) return st;
  return Status(st.code(), "--instances " + std::to_string(top) + ": " + st.message());
}

}  // namespace

Result<std::string> CheckSearch(const SearchInputs& in, const db::BackendRegistry& backends,
                                const workload::WorkloadRegistry& workloads, dist::Group* group) {
  // Every count of the range is checked before any database is touched (the plan is only
  // built). What depends on the count (a group's threads spread over its instances, a database
  // per instance, the ranks' shares) is hardest at the top of the range and every other check
  // is the same for all counts, so the two ends stand for every count between.
  // The search file must replace none of what the search reads: the plan, a database of any
  // count (the top count names them all), a power log.
  std::vector<PathUse> search_inputs = {{"the plan file", in.plan_path}};
  std::string window_arg;
  for (const int n : {in.range.first, in.range.second}) {
    PlanBuild dry;
    dry.scale_count = n;
    dry.command = "consolidate";
    dry.extra_args = in.extra;
    dry.op_log_tag = "n" + std::to_string(n) + "-run1";
    if (group != nullptr) SplitPlanAmongRanks(&dry);
    dry.owns = [](int) { return false; };
    auto built = BuildPlanInstances(*in.plan, dry, backends, workloads, CliPlanHost(workloads));
    Status st = built.ok() ? Status::Ok() : built.status();
    if (st.ok() && !built->empty() && (*built)[0].options->GetString("baseline").empty()) {
      st = Status::InvalidArgument(
          "a consolidation search needs a baseline: add --baseline (e.g. "
          "\"opm>=2600@23m-28m\") here or in the plan's [run]");
    }
    if (group != nullptr) st = group->AllOk(st);
    if (!st.ok())
      return Status(st.code(), "--instances " + std::to_string(n) + ": " + st.message());
    if (!built->empty()) {
      window_arg = WindowArgument((*built)[0].options->GetString("window"),
                                  (*built)[0].options->GetString("baseline"));
    }
    for (const DbSetup& setup : *built) {
      for (PathUse& f : SqliteInputs(setup.url)) search_inputs.push_back(std::move(f));
      if (setup.options->Has("power")) {
        for (PathUse& f : PowerInputs(setup.options->GetString("power"))) {
          search_inputs.push_back(std::move(f));
        }
      }
    }
  }
  SB_RETURN_IF_ERROR(session::CheckOutputPaths(
      search_inputs, {{"--search", in.search_path, /*creates_parents=*/true, /*replaces=*/true},
                      {"--csv", in.csv, /*creates_parents=*/true, /*replaces=*/true}}));
  SB_RETURN_IF_ERROR(
      ProbeDatabases(*in.plan, in.range.second, in.extra, backends, workloads, group));
  return window_arg;
}

}  // namespace sb::cli
