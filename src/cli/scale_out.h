// The command line's side of a scaled-out run (`mpirun -np K storebench-mpi oltp run|io run ...`,
// docs/scale-out.md): joining the group, the checks every rank must pass before it runs, and the
// options of the division; each rank's share of the work is the session's (session/scale_out.h).
#ifndef STOREBENCH_CLI_SCALE_OUT_H_
#define STOREBENCH_CLI_SCALE_OUT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "config/options.h"
#include "dist/group.h"
#include "metrics/run_result.h"
#include "session/rank_share.h"
#include "session/scale_out.h"
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

// Each rank's share, and a plan divided among the ranks (session/scale_out.h).
using session::BuildPlanOnRanks;
using session::RankShare;
using session::SplitPlanAmongRanks;
// The result's "scale_out" section (session/scale_out_result.h).
using session::FinishScaleOut;

}  // namespace sb::cli

#endif  // STOREBENCH_CLI_SCALE_OUT_H_
