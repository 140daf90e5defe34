// The command line's side of a scaled-out run (`mpirun -np K storebench-mpi oltp run|io run ...`,
// docs/scale-out.md): joining the group, the checks every rank must pass before it runs, each
// rank's share of the work, and the result's "scale_out" section.
#ifndef STOREBENCH_CLI_SCALE_OUT_H_
#define STOREBENCH_CLI_SCALE_OUT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "cli/plan_instances.h"
#include "config/options.h"
#include "dist/group.h"
#include "metrics/run_result.h"
#include "session/rank_share.h"
#include "session/scale_out_result.h"
#include "storebench/status.h"

namespace sb::cli {

using session::RankOpLogPath;
using session::ShareOf;

// Main() for a process mpirun started: joins the group, refuses commands that do not scale
// out and ranks started differently (exit 2 on every rank, the message printed by rank 0
// only), silences the console of ranks other than 0 (unless STOREBENCH_RANK_OUTPUT=1), runs
// `command` and leaves MPI.
int MainUnderMpirun(int argc, char** argv, int (*command)(int, char**));

// Declares --rank_split and --rank_timeout (for oltp run and io run).
void DeclareScaleOutOptions(config::OptionSet* o);

// This rank's share of instance `instance`'s `total` threads (of `instances` instances). With
// --rank_split=threads rank r of K gets ⌊total/K⌋ plus one when r is below total mod K; with
// --rank_split=instances rank r runs every instance i with i mod K = r whole, and 0 threads of
// the others. InvalidArgument (one sentence) when there are more ranks than threads or
// instances to divide. `what` names the threads ("threads", "workers").
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
                                              const workload::WorkloadRegistry& workloads);

using session::FinishScaleOut;  // the result's "scale_out" section (session/)

}  // namespace sb::cli

#endif  // STOREBENCH_CLI_SCALE_OUT_H_
