// The steps of consolidate's search (experiment/consolidate.h) as this process runs them: each
// a plan run at a count of instances (on every rank under mpirun, rank 0 leading), its exit code
// mapped to what the search decides on, the progress lines, and the search file after each.
#ifndef STOREBENCH_CLI_CONSOLIDATE_STEPS_H_
#define STOREBENCH_CLI_CONSOLIDATE_STEPS_H_

#include <atomic>
#include <string>
#include <utility>
#include <vector>

#include "backend/db/registry.h"
#include "cli/app.h"
#include "config/plan.h"
#include "dist/group.h"
#include "experiment/consolidate.h"
#include "metrics/run_result.h"
#include "report/files/consolidation_search.h"
#include "workload/registry.h"

namespace sb::cli {

// What a search's run is, the same on every rank: its result file and options.
struct StepArgs {
  std::string run_dir;
  bool series_csv = false;
  std::vector<std::string> extra;
};

// Under mpirun rank 0 leads the search and tells the other ranks each run ("count run 0
// rerun") and the end ("0 0 exit-code").
std::string EncodeStep(int count, int run_no, int code, int rerun = 0);

// A rank other than 0: runs what rank 0 says until it says the search is over.
int FollowSearch(dist::Group& g, const config::Plan& plan, const StepArgs& a,
                 const db::BackendRegistry& backends, const workload::WorkloadRegistry& workloads);

// The edge between the search and the process: runs each step (on every rank under mpirun),
// maps its exit code to what the search decides on, prints the progress lines and writes the
// search file.
class ConsolidateSteps : public experiment::SearchSteps {
 public:
  ConsolidateSteps(const config::Plan& plan, const StepArgs& args,
                   const db::BackendRegistry& backends, const workload::WorkloadRegistry& workloads,
                   dist::Group* group, const std::atomic<bool>* stop, std::string search_path)
      : plan_(plan),
        args_(args),
        backends_(backends),
        workloads_(workloads),
        group_(group),
        stop_(stop),
        search_path_(std::move(search_path)) {}

  experiment::RunReport Run(int count, int run_no, int runs, int rerun) override;

  Status Save(const report::Search& s) override;

  void Decided(const report::SearchCount& c) override;

  void SetAside(int count, const report::SearchRun& run) override;

  int last_exit_code() const { return last_exit_code_; }

 private:
  experiment::RunOutcome OutcomeOfStep(int rc, const metrics::RunResult& result) const;

  const config::Plan& plan_;
  const StepArgs& args_;
  const db::BackendRegistry& backends_;
  const workload::WorkloadRegistry& workloads_;
  dist::Group* const group_;
  const std::atomic<bool>* const stop_;
  const std::string search_path_;
  int last_exit_code_ = kExitOk;
};

}  // namespace sb::cli

#endif  // STOREBENCH_CLI_CONSOLIDATE_STEPS_H_
