// storebench run --plan FILE: every instance of a plan file, once (docs/plans.md).
#include <cstdio>

#include "cli/app.h"
#include "cli/builtins.h"
#include "cli/db_run.h"
#include "cli/plan_instances.h"
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
  std::vector<std::string> rest;
  auto path = TakePlanArg(args, &rest);
  if (!path.ok()) return Fail(path.status());
  auto plan = config::ReadPlanFile(*path);
  if (!plan.ok()) return Fail(plan.status());
  const db::BackendRegistry backends = MakeBackends();
  const workload::WorkloadRegistry workloads = MakeWorkloads();
  PlanBuild build;
  build.extra_args = rest;
  auto setups = BuildPlanOnRanks(*plan, build, backends, workloads);
  if (!setups.ok()) return Fail(setups.status());
  return RunDatabases(*setups, *(*setups)[0].options);
}

}  // namespace sb::cli
