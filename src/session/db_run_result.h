// A database run's result document beyond the driver's figures: what ran and how (workload,
// loop model, options, environment, restores, instances) and the workloads' verification.
#ifndef STOREBENCH_SESSION_DB_RUN_RESULT_H_
#define STOREBENCH_SESSION_DB_RUN_RESULT_H_

#include <vector>

#include "config/options.h"
#include "driver/runner.h"
#include "metrics/run_result.h"
#include "session/db_instances.h"
#include "storebench/workload.h"

namespace sb::session {

// Records in `r` what ran: workload, loop model, options, label, environment, choices and
// warnings, restores, and each instance's loop model and options when there are several.
void DescribeRun(const std::vector<DbSetup>& setups,
                 const std::vector<driver::DbInstanceSpec>& specs, const config::OptionSet& common,
                 const driver::RunOptions& ro, metrics::RunResult* r);

// Verifies every instance's database after every worker has finished, on a new connection (the
// server may have been restarted during the run), against its snapshot and `whole_run` totals.
// Skipped, with a warning, when a signal asked to stop `at_once`, and for an instance whose
// workers stalled, whose lock is then told its server is silent (db::DbLock::ServerSilent).
void VerifyInstances(std::vector<DbSetup>& setups, const std::vector<workload::Totals>& whole_run,
                     bool at_once, metrics::RunResult* r);

}  // namespace sb::session

#endif  // STOREBENCH_SESSION_DB_RUN_RESULT_H_
