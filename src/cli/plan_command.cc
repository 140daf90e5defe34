// storebench run --plan FILE: every instance of a plan file, once (docs/plans.md).
#include <cstdio>

#include "cli/app.h"
#include "cli/builtins.h"
#include "cli/db_run.h"
#include "cli/plan_host.h"
#include "cli/scale_out.h"
#include "config/plan.h"

namespace sb::cli {
namespace {

// Splits `--plan FILE` (or --plan=FILE) out of `args`; the rest go to `rest`.
Result<std::string> TakePlanArg(const std::vector<std::string>& args,
                                std::vector<std::string>* rest) {
  std::string path;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].rfind("--plan=", 0) == 0) {
      path = args[i].substr(7);
    } else if (args[i] == "--plan" && i + 1 < args.size()) {
      path = args[++i];
    } else {
      rest->push_back(args[i]);
    }
  }
  if (path.empty()) return Status::InvalidArgument("no plan given; add --plan FILE.toml");
  return path;
}

}  // namespace

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
  auto setups = BuildPlanOnRanks(*plan, build, backends, workloads, CliPlanHost(workloads));
  if (!setups.ok()) return Fail(setups.status());
  return RunDatabases(*setups, *(*setups)[0].options);
}

}  // namespace sb::cli
