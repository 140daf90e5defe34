// Database runs from the command line: one instance (`oltp run --db URL`), several with DVD Store
// 3's target list (`--db "URL1;URL2"`, n_threads threads per database), or the instances of a plan
// file (`storebench run --plan`). Each instance is opened and checked before any starts; all run
// together under one controller (driver::Runner::RunMany) and are verified, reported and judged
// after.
#ifndef STOREBENCH_CLI_DB_RUN_H_
#define STOREBENCH_CLI_DB_RUN_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backend/db/registry.h"
#include "config/options.h"
#include "driver/runner.h"
#include "session/db_instances.h"
#include "session/db_prepare.h"
#include "session/rank_share.h"
#include "storebench/db.h"
#include "storebench/workload.h"
#include "workload/registry.h"

namespace sb::cli {

// Options of the command line itself (not of the driver or a workload) for `command` (load, run,
// verify).
void DeclareCliOptions(config::OptionSet* o, const std::string& command,
                       const workload::WorkloadRegistry& workloads);

using session::RoundRobinShare;

using session::DbSetup;
// Opening, locking, restoring and checking each instance's database (session/db_prepare.h).
using session::CheckRunOptions;
using session::ExpandTargets;
using session::LockDatabase;
using session::OpenDatabase;
using session::PrepareDatabase;
using session::PristineWords;
using session::RestoreDatabase;
using session::RestoredWords;
using session::SavePristineCopy;

// Runs every instance together (session::RunDatabases); `common` holds the options of the run as
// a whole (phases, windows, baselines, outputs). Prints the DVD Store lines (and per-instance
// lines), the summary, writes the result. Returns the process exit code; `result`, when given,
// receives the run's result, and `error` the message of a run that did not start.
int RunDatabases(std::vector<DbSetup>& setups, const config::OptionSet& common,
                 metrics::RunResult* result = nullptr, std::string* error = nullptr);

}  // namespace sb::cli

#endif  // STOREBENCH_CLI_DB_RUN_H_
