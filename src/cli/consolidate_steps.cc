#include "cli/consolidate_steps.h"

#include <optional>
#include <sstream>

#include "cli/db_run.h"
#include "cli/plan_host.h"
#include "cli/scale_out.h"

namespace sb::cli {
namespace {

// Where run `run_no` at `count` writes its files: n<count>-run<k>, a rerun of a faulted run
// n<count>-run<k>-rerun<j>, so the faulted run's result stays beside it.
std::string StepStem(const StepArgs& a, int count, int run_no, int rerun) {
  return a.run_dir + "/n" + std::to_string(count) + "-run" + std::to_string(run_no) +
         (rerun > 0 ? "-rerun" + std::to_string(rerun) : "");
}

// One run of the search, `run_no` at `count` instances (under mpirun on every rank); `error`
// receives why it did not start.
int RunStep(const config::Plan& plan, const StepArgs& a, int count, int run_no, int rerun,
            const db::BackendRegistry& backends, const workload::WorkloadRegistry& workloads,
            metrics::RunResult* result, std::string* error) {
  const std::string stem = StepStem(a, count, run_no, rerun);
  PlanBuild build;
  build.scale_count = count;
  build.command = "consolidate";
  build.extra_args = a.extra;
  build.extra_args.push_back("--json=" + stem + ".json");
  build.op_log_tag = "n" + std::to_string(count) + "-run" + std::to_string(run_no);
  if (a.series_csv) build.extra_args.push_back("--series_csv=" + stem + "-series.csv");
  auto setups = BuildPlanOnRanks(plan, build, backends, workloads, CliPlanHost(workloads));
  if (!setups.ok()) {
    *error = setups.status().message();
    return Fail(setups.status());
  }
  return RunDatabases(*setups, *(*setups)[0].options, result, error);
}

}  // namespace

// Under mpirun rank 0 leads the search and tells the other ranks each run ("count run 0
// rerun") and the end ("0 0 exit-code").
std::string EncodeStep(int count, int run_no, int code, int rerun) {
  return std::to_string(count) + " " + std::to_string(run_no) + " " + std::to_string(code) + " " +
         std::to_string(rerun);
}

// A rank other than 0: runs what rank 0 says until it says the search is over.
int FollowSearch(dist::Group& g, const config::Plan& plan, const StepArgs& a,
                 const db::BackendRegistry& backends, const workload::WorkloadRegistry& workloads) {
  for (;;) {
    const std::optional<std::string> step = g.Share(std::string());
    if (!step) return kExitFailure;  // rank 0 is gone (or failed, and said so)
    int count = 0, run_no = 0, code = kExitFailure, rerun = 0;
    std::istringstream(*step) >> count >> run_no >> code >> rerun;
    if (count <= 0) return code;
    g.BeginRun();
    metrics::RunResult result;
    std::string error;
    const int rc = RunStep(plan, a, count, run_no, rerun, backends, workloads, &result, &error);
    if (g.failure_known() || g.any_lost()) return rc;
  }
}

experiment::RunReport ConsolidateSteps::Run(int count, int run_no, int runs, int rerun) {
  Progress("consolidate: " + std::to_string(count) + " instance(s), run " + std::to_string(run_no) +
           " of " + std::to_string(runs) +
           (rerun > 0 ? " (rerun " + std::to_string(rerun) + " after a fault)" : ""));
  if (group_ != nullptr) {
    group_->Share(EncodeStep(count, run_no, 0, rerun));
    group_->BeginRun();
  }
  experiment::RunReport run;
  run.result_file = StepStem(args_, count, run_no, rerun) + ".json";
  const int rc =
      RunStep(plan_, args_, count, run_no, rerun, backends_, workloads_, &run.result, &run.error);
  last_exit_code_ = rc;
  run.exit_code = rc;
  run.outcome = OutcomeOfStep(rc, run.result);
  return run;
}

Status ConsolidateSteps::Save(const report::Search& s) {
  return report::WriteSearchFile(s, search_path_);
}

void ConsolidateSteps::Decided(const report::SearchCount& c) {
  Progress("consolidate: " + std::to_string(c.count) + " instance(s): " +
           std::to_string(c.runs_passed()) + " of " + std::to_string(c.runs.size()) +
           " runs passed; the median run " + (c.passed ? "passed" : "failed"));
}

void ConsolidateSteps::SetAside(int count, const report::SearchRun& run) {
  Progress("consolidate: " + std::to_string(count) + " instance(s), run " +
           std::to_string(run.run_no) + " faulted (" + run.class_reason +
           "); it is run again (--rerun_faults)");
}

experiment::RunOutcome ConsolidateSteps::OutcomeOfStep(int rc,
                                                       const metrics::RunResult& result) const {
  using experiment::RunOutcome;
  if (group_ != nullptr && (group_->failure_known() || group_->any_lost())) {
    return RunOutcome::kRankLost;
  }
  if (rc == kExitInterrupted || (stop_ != nullptr && stop_->load())) {
    return RunOutcome::kInterrupted;
  }
  if (rc == kExitBadInput || result.started_at.empty()) return RunOutcome::kNotStarted;
  return rc == kExitOk ? RunOutcome::kCompleted : RunOutcome::kFailed;
}

}  // namespace sb::cli
