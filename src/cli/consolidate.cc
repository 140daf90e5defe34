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
#include "base/units.h"
#include "cli/app.h"
#include "cli/builtins.h"
#include "cli/command_inputs.h"
#include "cli/command_options.h"
#include "cli/consolidate_steps.h"
#include "cli/db_run.h"
#include "cli/plan_instances.h"
#include "cli/scale_out.h"
#include "config/plan.h"
#include "dist/world.h"
#include "experiment/consolidate.h"
#include "experiment/run_class.h"
#include "report/files/consolidation_search.h"
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

// "  3 instance(s), run 2: fault: instance ds3_2: 4 reconnects (set aside, run again)".
std::string FailedRunLine(int count, const report::SearchRun& r, bool set_aside) {
  return "  " + std::to_string(count) + " instance(s), run " + std::to_string(r.run_no) + ": " +
         (r.run_class.empty() ? "failed" : r.run_class) +
         (r.class_reason.empty() ? "" : ": " + r.class_reason) +
         (!set_aside                                 ? ""
          : r.run_class == experiment::kClassNoStart ? " (not counted)"
                                                     : " (set aside, run again)") +
         "\n";
}

std::string FormatTable(const Search& s) {
  std::string out = "consolidation search (" + s.step + ", " + std::to_string(s.runs) +
                    " run(s) per count, decided on the median run; figures of " + s.headline +
                    " from the median run)\n";
  char line[200];
  std::snprintf(line, sizeof line, "  %9s  %8s  %14s  %14s  %14s  %s\n", "instances", "passed",
                "instance min", "inst. median", "aggregate", "verdict");
  out += line;
  std::vector<SearchCount> sorted = s.counts;
  std::sort(sorted.begin(), sorted.end(),
            [](const SearchCount& a, const SearchCount& b) { return a.count < b.count; });
  std::string failed_runs;  // each failed or set-aside run's class and reason, under the table
  for (const SearchCount& c : sorted) {
    for (const report::SearchRun& r : c.set_aside) failed_runs += FailedRunLine(c.count, r, true);
    for (size_t k = 0; k < c.runs.size(); ++k) {
      report::SearchRun r = c.runs[k];
      r.run_no = static_cast<int>(k) + 1;
      if (!r.passed) failed_runs += FailedRunLine(c.count, r, false);
    }
    if (c.median_run < 0) continue;
    const report::SearchRun& m = c.runs[c.median_run];
    // A failed count says why its median run failed: out of capacity, or a fault.
    const std::string verdict =
        c.passed ? "PASS" : "FAIL" + (m.run_class.empty() ? "" : " (" + m.run_class + ")");
    std::snprintf(line, sizeof line, "  %9d  %4d of %d  %14.1f  %14.1f  %14.1f  %s\n", c.count,
                  c.runs_passed(), static_cast<int>(c.runs.size()), m.instance_min,
                  m.instance_median, m.aggregate, verdict.c_str());
    out += line;
  }
  if (!failed_runs.empty()) out += "failed runs:\n" + failed_runs;
  const SearchCount* at_peak = nullptr;
  const SearchCount* above = nullptr;
  for (const SearchCount& c : s.counts) {
    if (c.count == s.peak) at_peak = &c;
    if (c.count == s.peak + 1) above = &c;
  }
  if (s.peak == 0) {
    out += "peak: none (the first count, " + std::to_string(s.from) + ", failed its baseline)\n";
  } else {
    out += "peak: " + std::to_string(s.peak) + " instance(s)";
    if (at_peak != nullptr) {
      out += "; " + std::to_string(at_peak->runs_passed()) + " of " +
             std::to_string(at_peak->runs.size()) + " runs passed at the peak";
    }
    if (above != nullptr) {
      out += ", " + std::to_string(above->runs_passed()) + " of " +
             std::to_string(above->runs.size()) + " at " + std::to_string(s.peak + 1);
    } else if (s.peak >= s.to) {
      out += " (the top of the range: the peak may be higher)";
    }
    out += "\n";
  }
  return out;
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
  for (const int n : {range->first, range->second}) {
    PlanBuild dry;
    dry.scale_count = n;
    dry.command = "consolidate";
    dry.extra_args = extra;
    if (group != nullptr) SplitPlanAmongRanks(&dry);
    dry.owns = [](int) { return false; };
    auto built = BuildPlanInstances(*plan, dry, backends, workloads);
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
    for (const DbSetup& setup : *built) {
      for (PathUse& f : SqliteInputs(setup.url)) search_inputs.push_back(std::move(f));
      if (setup.options->Has("power")) {
        for (PathUse& f : PowerInputs(setup.options->GetString("power"))) {
          search_inputs.push_back(std::move(f));
        }
      }
    }
  }
  if (Status st = CheckOutputPaths(search_inputs, {{"--search", search_path,
                                                    /*creates_parents=*/true, /*replaces=*/true}});
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
  const StepArgs step_args{run_dir, series_csv, extra};
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
  std::printf("\n%s", FormatTable(s).c_str());
  std::fprintf(stderr, "search written to %s\n", search_path.c_str());
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
