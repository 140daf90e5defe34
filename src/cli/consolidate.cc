// storebench consolidate: the peak number of instances that all stay above a baseline.
//
// The search itself (which count next, the median run, the peak) is experiment/consolidate.h;
// this file reads the command line, runs each step of the search as a plan run (on every rank
// under mpirun), maps the run's exit code to what the search decides on, and prints the table.
// Every run writes its own result; the search file is written after every run, so an
// interrupted search resumes (--resume) where it stopped (docs/consolidation.md).
#include "experiment/consolidate.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/input_file.h"
#include "base/limits.h"
#include "base/output_file.h"
#include "base/units.h"
#include "cli/app.h"
#include "cli/builtins.h"
#include "cli/command_inputs.h"
#include "cli/command_options.h"
#include "cli/consolidate_steps.h"
#include "cli/db_run.h"
#include "cli/plan_host.h"
#include "cli/scale_out.h"
#include "config/plan.h"
#include "dist/world.h"
#include "experiment/consolidate.h"
#include "experiment/deciding_window.h"
#include "metrics/windows.h"
#include "experiment/run_class.h"
#include "report/files/consolidation_search.h"
#include "report/files/consolidation_table.h"
#include "session/output_paths.h"

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

// The window that decides a run (its first baseline's) added to the run's --window list when
// it is not there, so every run's result has every instance's figures, the power and the
// figures per watt over it (report/files/consolidation_table.h). `windows` and `baselines`
// are the options as the plan and the command line set them; "" when nothing is to be added.
std::string WindowArgument(const std::string& windows, const std::string& baselines) {
  const std::string first = baselines.substr(0, baselines.find(';'));
  const std::string label = experiment::RuleWindow(first);
  if (label.empty() || label == metrics::kWholeRunWindow) return "";
  for (size_t at = 0; at <= windows.size();) {
    size_t comma = windows.find(',', at);
    if (comma == std::string::npos) comma = windows.size();
    std::string w = windows.substr(at, comma - at);
    w.erase(0, w.find_first_not_of(' '));
    w.erase(w.find_last_not_of(' ') + 1);
    if (w == label) return "";
    at = comma + 1;
  }
  return "--window=" + (windows.empty() ? label : windows + "," + label);
}

// After the plan's checks: the databases of the top count, which are every count's (the scale
// group's first n of them, the other groups' all), each reached and checked once, by rank 0,
// and none changed (PlanBuild::probe_only).
Status ProbeDatabases(const config::Plan& plan, int top, const std::vector<std::string>& extra,
                      const db::BackendRegistry& backends,
                      const workload::WorkloadRegistry& workloads, dist::Group* group) {
  PlanBuild probe;
  probe.scale_count = top;
  probe.command = "consolidate";
  probe.extra_args = extra;
  probe.probe_only = true;
  Status st = Status::Ok();
  if (group == nullptr || group->coordinator()) {
    auto probed = BuildPlanInstances(plan, probe, backends, workloads, CliPlanHost(workloads));
    if (!probed.ok()) st = probed.status();
  }
  if (group != nullptr) st = group->AllOk(st);
  if (st.ok()) return st;
  return Status(st.code(), "--instances " + std::to_string(top) + ": " + st.message());
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
  const std::string &range_text = parsed->instances, &step = parsed->step;
  std::string search_path = parsed->search;
  const int runs = parsed->runs;
  const bool resume = parsed->resume, series_csv = parsed->run_series_csv;
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
  // Every count of the range is checked before any database is touched (the plan is only
  // built): its options, its windows and baselines against the run's length, that there is a
  // baseline to decide on, and under mpirun its division among the ranks. What depends on the
  // count (a group's threads spread over its instances, a database per instance, the ranks'
  // shares) is hardest at the top of the range and every other check is the same for all
  // counts, so the two ends stand for every count between.
  // The search file must replace none of what the search reads: the plan, a database of any
  // count (the top count names them all), a power log.
  std::vector<PathUse> search_inputs = {{"the plan file", *plan_path}};
  std::string window_arg;
  for (const int n : {range->first, range->second}) {
    PlanBuild dry;
    dry.scale_count = n;
    dry.command = "consolidate";
    dry.extra_args = extra;
    dry.op_log_tag = "n" + std::to_string(n) + "-run1";
    if (group != nullptr) SplitPlanAmongRanks(&dry);
    dry.owns = [](int) { return false; };
    auto built = BuildPlanInstances(*plan, dry, backends, workloads, CliPlanHost(workloads));
    Status st = built.ok() ? Status::Ok() : built.status();
    if (st.ok() && !built->empty() && (*built)[0].options->GetString("baseline").empty()) {
      st = Status::InvalidArgument(
          "a consolidation search needs a baseline: add --baseline (e.g. "
          "\"opm>=2600@23m-28m\") here or in the plan's [run]");
    }
    if (group != nullptr) st = group->AllOk(st);
    if (!st.ok()) {
      return Fail(Status(st.code(), "--instances " + std::to_string(n) + ": " + st.message()));
    }
    if (!built->empty()) {
      window_arg = WindowArgument((*built)[0].options->GetString("window"),
                                  (*built)[0].options->GetString("baseline"));
    }
    for (const DbSetup& setup : *built) {
      for (PathUse& f : SqliteInputs(setup.url)) search_inputs.push_back(std::move(f));
      if (setup.options->Has("power")) {
        for (PathUse& f : PowerInputs(setup.options->GetString("power"))) {
          search_inputs.push_back(std::move(f));
        }
      }
    }
  }
  if (Status st = CheckOutputPaths(
          search_inputs, {{"--search", search_path, /*creates_parents=*/true, /*replaces=*/true},
                          {"--csv", parsed->csv, /*creates_parents=*/true, /*replaces=*/true}});
      !st.ok()) {
    return Fail(st);
  }
  if (Status st = ProbeDatabases(*plan, range->second, extra, backends, workloads, group);
      !st.ok()) {
    return Fail(st);
  }
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
  if (!window_arg.empty()) run_args.push_back(window_arg);
  const StepArgs step_args{run_dir, series_csv, run_args};
  if (group != nullptr && !group->coordinator()) {
    std::error_code ec;
    std::filesystem::create_directories(run_dir, ec);  // options name files in it
    return FollowSearch(*group, *plan, step_args, backends, workloads);
  }

  Search s;
  if (resume) {
    auto text =
        ReadInputFile(search_path, "--resume: the search file", limits::kMaxResultFileBytes);
    if (!text.ok()) return Fail(Status::InvalidArgument(text.status().message()));
    auto loaded = report::SearchFromJson(*text, search_path);
    if (!loaded.ok()) return Fail(loaded.status());
    s = std::move(loaded).value();
    if (s.plan != *plan_path || s.from != range->first || s.to != range->second || s.step != step ||
        s.runs != runs) {
      return Fail(Status::InvalidArgument(
          "--resume: '" + search_path + "' is a search of " + s.plan + " over " +
          std::to_string(s.from) + ".." + std::to_string(s.to) + " (" + s.step + ", " +
          std::to_string(s.runs) + " runs); give the same plan, --instances, --step and --runs"));
    }
    Progress("resuming the search in " + search_path);
    s.rerun_faults = parsed->rerun_faults;  // this invocation's, for the runs still to come
  } else {
    s.plan = *plan_path;
    s.from = range->first;
    s.to = range->second;
    s.step = step;
    s.runs = runs;
    s.rerun_faults = parsed->rerun_faults;
  }
  std::error_code ec;
  std::filesystem::create_directories(run_dir, ec);
  if (ec) return Fail(Status::InvalidArgument("cannot create '" + run_dir + "': " + ec.message()));

  const std::atomic<bool>* stop = InstallStopHandlers();
  StopAtOnceFlag(kResultStillWritten);
  ConsolidateSteps steps(*plan, step_args, backends, workloads, group, stop, search_path);
  const experiment::SearchResult end = experiment::RunSearch(&s, steps);
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
  std::printf("\n%s", report::FormatSearchTable(s).c_str());
  std::fprintf(stderr, "search written to %s\n", search_path.c_str());
  if (!parsed->csv.empty()) {
    if (Status st = WriteOutputFile(parsed->csv, report::SearchTableCsv(s), "the search's CSV");
        !st.ok()) {
      return Fail(st);
    }
    std::fprintf(stderr, "per-count table written to %s\n", parsed->csv.c_str());
  }
  return s.peak > 0 ? kExitOk : kExitFailure;
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
