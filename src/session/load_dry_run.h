// `oltp load --dry_run`: the workload's plan (Workload::PlanLoad) and whether the database's
// storage and the CSV directory have the space for it, as far as the back end can tell
// (DbBackend::FreeSpace). Nothing is written.
#ifndef STOREBENCH_SESSION_LOAD_DRY_RUN_H_
#define STOREBENCH_SESSION_LOAD_DRY_RUN_H_

#include <string>

#include "storebench/db.h"
#include "storebench/status.h"
#include "storebench/workload.h"

namespace sb::session {

struct LoadDryRun {
  std::string text;  // the plan and one line per place measured, for stdout
  // FailedPrecondition, one sentence, when a place lacks the space; Ok otherwise (also when the
  // space cannot be told: the text says so).
  Status refusal;
};

// Errors: the workload has no plan, or the server cannot be reached.
Result<LoadDryRun> PlanLoadDryRun(const workload::Workload& workload, db::DbBackend& backend,
                                  const workload::LoadContext& ctx);

}  // namespace sb::session

#endif  // STOREBENCH_SESSION_LOAD_DRY_RUN_H_
