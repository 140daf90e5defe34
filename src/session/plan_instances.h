// The database instances of a plan file (config/plan.h), built, loaded when asked, and checked.
// What only the command line knows (its option tables, which files its options name, its stop
// flag, where progress lines go) comes through a PlanHost.
#ifndef STOREBENCH_SESSION_PLAN_INSTANCES_H_
#define STOREBENCH_SESSION_PLAN_INSTANCES_H_

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "backend/db/registry.h"
#include "config/plan.h"
#include "session/db_instances.h"
#include "storebench/status.h"
#include "storebench/workload.h"
#include "workload/registry.h"

namespace sb::session {

// The command line's part of building a plan's instances.
class PlanHost {
 public:
  virtual ~PlanHost() = default;
  // Declares an instance's options as `command` has them: "run" (every option of a run of the
  // instance's workload) or "load" (those a load knows).
  virtual void DeclareOptions(config::OptionSet* o, const std::string& command,
                              workload::Workload& workload) const = 0;
  // Checks the files an instance's run options name against each other and against
  // `plan_path`, before anything runs.
  virtual Status CheckPaths(const config::OptionSet& o, const std::string& plan_path) const = 0;
  // The stop flag a load watches; asked for only when a group loads a database.
  virtual const std::atomic<bool>* StopFlag() const = 0;
  // A line of progress (a load, a restore).
  virtual void Progress(const std::string& line) const = 0;
};

// Options of the run as a whole: set in [run] or on the command line, refused in a group.
bool IsRunWideOption(const std::string& canonical_name);

struct PlanBuild {
  // The scale group's count instead of the plan's (0: the plan's).
  int scale_count = 0;
  // Command-line options after the plan's, for every instance.
  std::vector<std::string> extra_args;
  // Not empty: every instance's --op_log gets it before its extension (session/op_log_paths.h),
  // so that the runs of a consolidation search keep their own logs ("n2-run1").
  std::string op_log_tag;
  // Load a group's missing databases when the group says `load = true`.
  bool allow_load = true;
  // The command that holds the databases' locks, as other processes are told ("run").
  std::string command = "run";
  // Under mpirun (docs/scale-out.md): called once every instance's options are known, before
  // any database is touched, with the instance's index, the instance count and its options;
  // a failure (the plan cannot be divided among the ranks as asked) ends the build.
  std::function<Status(int index, int count, const config::OptionSet& options)> check;
  // Instead of locking, loading and preparing: only check that each instance's database can
  // be reached and holds its workload at its size, or, in a group with `load = true`, can be
  // reached (a consolidation search's databases before its first run). Nothing is written.
  bool probe_only = false;
  // Whether this process locks, restores, loads and prepares instance `index` now; the
  // others are only built (their options), for PrepareOthers once their owner is done.
  // Unset: every instance.
  std::function<bool(int index)> owns;
};

// Builds every instance of `plan` (names "<group>_<i>"), then locks each database this process
// owns (LockDatabase; a database named by two instances is refused with the line of the
// second), loads missing databases of groups that ask for it, and prepares each for the run
// (PrepareDatabase). Errors name the file, line and key, or the instance.
Result<std::vector<DbSetup>> BuildPlanInstances(const config::Plan& plan, const PlanBuild& build,
                                                const db::BackendRegistry& backends,
                                                const workload::WorkloadRegistry& workloads,
                                                const PlanHost& host);

// Prepares the instances `build.owns` left out (PrepareDatabase), once their owners have
// loaded them: every process opens every instance's database (rank 0 verifies them all).
Status PrepareOthers(const PlanBuild& build, const db::BackendRegistry& backends,
                     std::vector<DbSetup>* setups);

}  // namespace sb::session

#endif  // STOREBENCH_SESSION_PLAN_INSTANCES_H_
