// storebench consolidate: the peak number of instances that all stay above a baseline.
//
// The search itself (which count next, the median run, the peak) is experiment/consolidate.h;
// this file reads the command line, runs each step of the search as a plan run (on every rank
// under mpirun), maps the run's exit code to what the search decides on, and prints the table.
// Every run writes its own result; the search file is written after every run, so an
// interrupted search resumes (--resume) where it stopped (docs/consolidation.md).
#include "experiment/consolidate.h"

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/input_file.h"
#include "base/limits.h"
#include "base/output_file.h"
#include "base/units.h"
#include "cli/app.h"
#include "cli/builtins.h"
#include "cli/command_options.h"
#include "cli/consolidate_checks.h"
#include "cli/consolidate_steps.h"
#include "config/plan.h"
#include "dist/world.h"
#include "experiment/consolidate.h"
#include "report/files/consolidation_search.h"
#include "report/files/consolidation_table.h"

namespace sb::cli {
namespace {

using report::Search;
using report::SearchCount;

// "4" or "1..16".
Result<std::pair<int, int>> ParseRange(const std::string& text) {
  const size_t dots = text.find("..");
  auto num = [](const std::string& t) -> Result<int> {
    auto n = ParseInt(t, "instances");
    if (!n.ok()) return n.status();
    if (*n < 1 || *n > config::kMaxPlanInstances) {
      return Status::InvalidArgument("--instances: counts must be from 1 to " +
                                     std::to_string(config::kMaxPlanInstances));
    }
    return static_cast<int>(*n);
  };
  auto a = num(dots == std::string::npos ? text : text.substr(0, dots));
  if (!a.ok()) return a.status();
  auto b = dots == std::string::npos ? a : num(text.substr(dots + 2));
  if (!b.ok()) return b.status();
  if (*b < *a) {
    return Status::InvalidArgument("--instances " + text + " is an empty range (write e.g. 1..16)");
  }
  return std::make_pair(*a, *b);
}

// The search to run: the one in the search file with --resume (the same plan, range, step and
// runs), else a new one.
Result<Search> StartSearch(const ConsolidateArgs& a, std::pair<int, int> range,
                           const std::string& search_path) {
  Search s;
  if (a.resume) {
    auto text =
        ReadInputFile(search_path, "--resume: the search file", limits::kMaxResultFileBytes);
    if (!text.ok()) return Status::InvalidArgument(text.status().message());
    auto loaded = report::SearchFromJson(*text, search_path);
    if (!loaded.ok()) return loaded.status();
    s = std::move(loaded).value();
    if (s.plan != a.plan_path || s.from != range.first || s.to != range.second ||
        s.step != a.step || s.runs != a.runs) {
      return Status::InvalidArgument(
          "--resume: '" + search_path + "' is a search of " + s.plan + " over " +
          std::to_string(s.from) + ".." + std::to_string(s.to) + " (" + s.step + ", " +
          std::to_string(s.runs) + " runs); give the same plan, --instances, --step and --runs");
    }
    Progress("resuming the search in " + search_path);
    s.rerun_faults = a.rerun_faults;  // this invocation's, for the runs still to come
  } else {
    s.plan = a.plan_path;
    s.from = range.first;
    s.to = range.second;
    s.step = a.step;
    s.runs = a.runs;
    s.rerun_faults = a.rerun_faults;
  }
  return s;
}

// The search (rank 0 leads it under mpirun; the other ranks follow from inside).
int RunSearch(const std::vector<std::string>& args) {
  if (AsksForHelp(args)) {
    std::fputs(ConsolidateHelp().c_str(), stdout);
    return kExitOk;
  }
  // The search's own options (command_options.h); everything else goes to the instances.
  auto parsed = ParseConsolidateArgs(args);
  if (!parsed.ok()) return Fail(parsed.status());
  const std::string* const plan_path = &parsed->plan_path;
  const std::string& range_text = parsed->instances;
  std::string search_path = parsed->search;
  const bool series_csv = parsed->run_series_csv;
  const std::vector<std::string>& extra = parsed->extra;
  if (range_text.empty()) {
    return Fail(Status::InvalidArgument("no instance counts given; add --instances 1..16"));
  }
  auto range = ParseRange(range_text);
  if (!range.ok()) return Fail(range.status());
  auto plan = config::ReadPlanFile(*plan_path);
  if (!plan.ok()) return Fail(plan.status());
  if (search_path.empty()) {
    search_path = "results/consolidate-" + WallClockLocal(/*compact=*/true) + ".json";
  }
  const db::BackendRegistry backends = MakeBackends();
  const workload::WorkloadRegistry workloads = MakeWorkloads();
  dist::Group* const group = dist::World();
  auto window_arg = CheckSearch({&*plan, *plan_path, *range, extra, search_path, parsed->csv},
                                backends, workloads, group);
  if (!window_arg.ok()) return Fail(window_arg.status());
  if (group != nullptr) {
    // Rank 0's search file (its default name has the time in it) names every run's files.
    const std::optional<std::string> shared = group->Share(search_path);
    if (!shared) return Fail(Status::FailedPrecondition("rank 0 did not answer"));
    search_path = *shared;
  }
  const std::filesystem::path search_file(search_path);
  const std::string run_dir =
      (search_file.parent_path() / (search_file.stem().string() + "-runs")).string();
  std::vector<std::string> run_args = extra;
  if (!window_arg->empty()) run_args.push_back(*window_arg);
  const StepArgs step_args{run_dir, series_csv, run_args};
  if (group != nullptr && !group->coordinator()) {
    std::error_code ec;
    std::filesystem::create_directories(run_dir, ec);  // options name files in it
    return FollowSearch(*group, *plan, step_args, backends, workloads);
  }

  auto s = StartSearch(*parsed, *range, search_path);
  if (!s.ok()) return Fail(s.status());
  std::error_code ec;
  std::filesystem::create_directories(run_dir, ec);
  if (ec) return Fail(Status::InvalidArgument("cannot create '" + run_dir + "': " + ec.message()));

  const std::atomic<bool>* stop = InstallStopHandlers();
  StopAtOnceFlag(kResultStillWritten);
  ConsolidateSteps steps(*plan, step_args, backends, workloads, group, stop, search_path);
  const experiment::SearchResult end = experiment::RunSearch(&*s, steps);
  switch (end.end) {
    case experiment::SearchEnd::kFinished:
      break;
    case experiment::SearchEnd::kError:
      return Fail(end.status);
    case experiment::SearchEnd::kInterrupted:
      Progress("consolidate: interrupted; the search so far is in " + search_path +
               " (--resume continues it)");
      return kExitInterrupted;
    case experiment::SearchEnd::kNotStarted:  // the run's message is printed
    case experiment::SearchEnd::kRankLost:    // the search cannot go on with the ranks it had
      return steps.last_exit_code() == kExitOk ? kExitFailure : steps.last_exit_code();
  }
  std::printf("\n%s", report::FormatSearchTable(*s).c_str());
  std::fprintf(stderr, "search written to %s\n", search_path.c_str());
  if (!parsed->csv.empty()) {
    if (Status st = WriteOutputFile(parsed->csv, report::SearchTableCsv(*s), "the search's CSV");
        !st.ok()) {
      return Fail(st);
    }
    std::fprintf(stderr, "per-count table written to %s\n", parsed->csv.c_str());
  }
  return s->peak > 0 ? kExitOk : kExitFailure;
}

}  // namespace

int RunConsolidateCommand(const std::vector<std::string>& args) {
  const int code = RunSearch(args);
  // Under mpirun: the search is over; the other ranks end with rank 0's exit code.
  dist::Group* const group = dist::World();
  if (group != nullptr && group->coordinator() && !group->failure_known()) {
    group->Share(EncodeStep(0, 0, code));
  }
  return code;
}

}  // namespace sb::cli
