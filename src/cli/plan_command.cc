// storebench run --plan FILE: every instance of a plan file, once (docs/plans.md).
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "cli/app.h"
#include "cli/builtins.h"
#include "cli/command_options.h"
#include "cli/db_run.h"
#include "cli/plan_host.h"
#include "cli/scale_out.h"
#include "config/plan.h"

namespace sb::cli {

int RunPlanCommand(const std::vector<std::string>& args) {
  for (const auto& a : args) {
    if (a == "--help" || a == "-h") {
      std::printf(
          "usage: storebench run --plan FILE.toml [options for every instance]\n\n"
          "Runs every instance of the plan together once (docs/plans.md). Options given here\n"
          "apply to every instance after the plan's; see storebench oltp run --help.\n");
      return kExitOk;
    }
  }
  auto parsed = ParseRunPlanArgs(args);
  if (!parsed.ok()) return Fail(parsed.status());
  auto plan = config::ReadPlanFile(parsed->plan_path);
  if (!plan.ok()) return Fail(plan.status());
  const db::BackendRegistry backends = MakeBackends();
  const workload::WorkloadRegistry workloads = MakeWorkloads();
  PlanBuild build;
  build.extra_args = std::move(parsed->extra);
  auto setups = BuildPlanOnRanks(*plan, build, backends, workloads, CliPlanHost(workloads));
  if (!setups.ok()) return Fail(setups.status());
  return RunDatabases(*setups, *(*setups)[0].options);
}

}  // namespace sb::cli
