// The session's side of a scaled-out run (`mpirun -np K storebench-mpi ...`, docs/scale-out.md):
// each rank's share of the work, and a plan's instances divided among the ranks. Under a run of
// one process (no group) each is what a run without mpirun does.
#ifndef STOREBENCH_SESSION_SCALE_OUT_H_
#define STOREBENCH_SESSION_SCALE_OUT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "config/options.h"
#include "session/plan_instances.h"
#include "storebench/status.h"

namespace sb::session {

// This rank's share of instance `instance`'s `total` threads (of `instances` instances), as
// --rank_split says (ShareOf); `total` in a run of one process. `what` names the threads
// ("threads", "workers").
Result<int64_t> RankShare(const config::OptionSet& o, int64_t total, const std::string& what,
                          int instance, int instances);

// Under mpirun, `run --plan` and each run of `consolidate`: the plan is divided as
// --rank_split says (checked before any database is touched), and each rank locks, restores,
// loads and prepares the instances it runs whole (--rank_split=instances), or rank 0 all of
// them (--rank_split=threads), as a run of one process would.
void SplitPlanAmongRanks(PlanBuild* build);

// BuildPlanInstances for a run of a plan, in a run of one process or divided among the ranks
// (SplitPlanAmongRanks): every rank builds its part, then, when every rank has, opens the
// others' instances (PrepareOthers). A failure on any rank is returned on every rank, named.
Result<std::vector<DbSetup>> BuildPlanOnRanks(const config::Plan& plan, PlanBuild build,
                                              const db::BackendRegistry& backends,
                                              const workload::WorkloadRegistry& workloads,
                                              const PlanHost& host);

}  // namespace sb::session

#endif  // STOREBENCH_SESSION_SCALE_OUT_H_
