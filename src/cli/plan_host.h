// The command line's part in building a plan's instances (session/plan_instances.h): its option
// tables, the files its options name, its stop handlers and stderr.
#ifndef STOREBENCH_CLI_PLAN_HOST_H_
#define STOREBENCH_CLI_PLAN_HOST_H_

#include <atomic>
#include <string>

#include "session/plan_instances.h"
#include "workload/registry.h"

namespace sb::cli {

using session::BuildPlanInstances;
using session::PlanBuild;

class CliPlanHost : public session::PlanHost {
 public:
  explicit CliPlanHost(const workload::WorkloadRegistry& workloads) : workloads_(workloads) {}
  // run: DeclareCliOptions, the workload's, the run's (driver::DeclareRunOptions) and, for a
  // sysbench-style workload, its report options (--percentile, --histogram); load: the first two.
  void DeclareOptions(config::OptionSet* o, const std::string& command,
                      workload::Workload& workload) const override;
  // CheckOltpPaths("run", ...) with the plan file as one more input.
  Status CheckPaths(const config::OptionSet& o, const std::string& plan_path) const override;
  // InstallStopHandlers().
  const std::atomic<bool>* StopFlag() const override;
  // cli::Progress (stderr).
  void Progress(const std::string& line) const override;

 private:
  const workload::WorkloadRegistry& workloads_;
};

}  // namespace sb::cli

#endif  // STOREBENCH_CLI_PLAN_HOST_H_
