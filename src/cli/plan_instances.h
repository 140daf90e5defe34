// The database instances of a plan file (config/plan.h), built, loaded when asked, and checked.
#ifndef STOREBENCH_CLI_PLAN_INSTANCES_H_
#define STOREBENCH_CLI_PLAN_INSTANCES_H_

#include <string>
#include <vector>

#include "backend/db/registry.h"
#include "cli/db_run.h"
#include "config/plan.h"
#include "workload/registry.h"

namespace sb::cli {

// Options of the run as a whole: set in [run] or on the command line, refused in a group.
bool IsRunWideOption(const std::string& canonical_name);

struct PlanBuild {
  // The scale group's count instead of the plan's (0: the plan's).
  int scale_count = 0;
  // Command-line options after the plan's, for every instance.
  std::vector<std::string> extra_args;
  // Load a group's missing databases when the group says `load = true`.
  bool allow_load = true;
  // The command that holds the databases' locks, as other processes are told ("run").
  std::string command = "run";
};

// Builds every instance of `plan` (names "<group>_<i>"), locks each database (LockDatabase; a
// database named by two instances is refused with the line of the second), loads missing
// databases of groups that ask for it, and prepares each for the run (PrepareDatabase). Errors name
// the file, line and key, or the instance.
Result<std::vector<DbSetup>> BuildPlanInstances(const config::Plan& plan, const PlanBuild& build,
                                                const db::BackendRegistry& backends,
                                                const workload::WorkloadRegistry& workloads);

// Splits `--plan FILE` (or --plan=FILE) out of `args`; the rest go to `rest`.
Result<std::string> TakePlanArg(const std::vector<std::string>& args,
                                std::vector<std::string>* rest);

}  // namespace sb::cli

#endif  // STOREBENCH_CLI_PLAN_INSTANCES_H_
