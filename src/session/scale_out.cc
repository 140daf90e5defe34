#include "session/scale_out.h"

#include <memory>

#include "dist/world.h"
#include "session/rank_share.h"

namespace sb::session {

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
                                              const workload::WorkloadRegistry& workloads,
                                              const PlanHost& host) {
  dist::Group* const group = dist::World();
  if (group == nullptr) return BuildPlanInstances(plan, build, backends, workloads, host);
  SplitPlanAmongRanks(&build);
  auto setups = BuildPlanInstances(plan, build, backends, workloads, host);
  // Every rank built its part (and loaded its databases); then each opens the others'.
  Status built = group->AllOk(setups.ok() ? Status::Ok() : setups.status());
  if (built.ok()) built = group->AllOk(PrepareOthers(build, backends, &*setups));
  if (!built.ok()) return built;
  return setups;
}

}  // namespace sb::session
