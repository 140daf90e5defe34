#include "cli/plan_host.h"

#include "cli/app.h"
#include "cli/command_paths.h"
#include "cli/db_run.h"
#include "cli/sysbench_options.h"
#include "driver/run_options.h"

namespace sb::cli {

void CliPlanHost::DeclareOptions(config::OptionSet* o, const std::string& command,
                                 workload::Workload& workload) const {
  DeclareCliOptions(o, command, workloads_);
  workload.DeclareOptions(o);
  if (command != "run") return;
  driver::DeclareRunOptions(o, workload.shape());
  // Its report options (--percentile, --histogram); a plan names its databases by URL.
  if (workload.shape().sysbench_style) DeclareSysbenchOptions(o);
}

Status CliPlanHost::CheckPaths(const config::OptionSet& o, const std::string& plan_path) const {
  return CheckOltpPaths("run", o, {}, {{"the plan file", plan_path}});
}

const std::atomic<bool>* CliPlanHost::StopFlag() const { return InstallStopHandlers(); }

void CliPlanHost::Progress(const std::string& line) const { cli::Progress(line); }

}  // namespace sb::cli
