// The consolidation search (storebench consolidate; docs/consolidation.md) as functions over
// plain data: which count to try next, how a count's runs decide it, and the loop that runs a
// search to its end. Nothing here prints, exits, reads the clock or knows process exit codes:
// the command line runs each step, maps what became of it to a RunOutcome and keeps the files.
//
// The method of the published consolidation reports: run the plan with N instances of its scale
// group, `runs` times for each N; decide each N on its median run (the runs ordered by the
// figure that decides their baselines: the lowest instance); stop at the first N whose median
// run fails. The peak is the largest N that passed. Because the boundary is noisy and need not
// be monotone, the search also keeps how many runs passed at every count.
#ifndef STOREBENCH_EXPERIMENT_CONSOLIDATE_H_
#define STOREBENCH_EXPERIMENT_CONSOLIDATE_H_

#include <string>
#include <vector>

#include "metrics/run_result.h"
#include "report/files/consolidation_search.h"
#include "storebench/status.h"

namespace sb::experiment {

// What became of one run of the search, as the command line judged it from the run's own end
// (its exit code there); the search decides on this alone.
enum class RunOutcome {
  kCompleted,    // the run ended and every check passed (its baselines decide it)
  kFailed,       // the run ended but something failed (a baseline, verification): not passed
  kInterrupted,  // a stop signal ended the run or the search: stop, resumable (--resume)
  kNotStarted,   // the run could not start (bad input, a database that would not open): stop
  kRankLost,     // under mpirun a rank failed or was lost: the search cannot go on
};

// One run as the search receives it.
struct RunReport {
  RunOutcome outcome = RunOutcome::kNotStarted;
  int exit_code = 0;        // recorded in the search file as it is, never decided on
  std::string result_file;  // where the run's result was written
  std::string error;        // why the run did not start or failed, as printed ("" for none)
  metrics::RunResult result;
};

// The median of `v` (the lower middle one for an even count, so it is a value that occurred).
double Median(std::vector<double> v);

// A run's line in the search: passed when it completed and all its baselines passed; the
// deciding figure is the first baseline's combined one (the lowest instance); the headline's
// lowest and median instance figures and the aggregate over the measured window; its figures
// over the deciding window (deciding_window.h), the report table's row; its class
// (experiment/run_class.h).
report::SearchRun Summarize(const RunReport& run);

// The median run of a count: runs ordered by their deciding figure (ties: the earlier run; an
// even count takes the lower middle run). `runs` must not be empty.
int MedianRun(const std::vector<report::SearchRun>& runs);

// Decides a count whose runs are all in: its median run and whether that run passed.
void DecideCount(report::SearchCount* c);

// The next count to try, or 0 when the search is over. A count begun but not decided comes
// first (a resumed search finishes it). Upward while every count passed: +1 (linear) or x2
// capped at the top of the range (doubling); after a failure, linear stops, doubling bisects
// between the highest pass and the lowest failure until they are adjacent.
int NextCount(const report::Search& s);

// The largest count that passed (0: none).
int Peak(const report::Search& s);

// Why a search loop ended.
enum class SearchEnd {
  kFinished,     // every count needed is decided; the peak is set
  kInterrupted,  // a run was interrupted; the search so far was saved
  kNotStarted,   // a run could not start; the search so far was saved (if it could be)
  kRankLost,     // a rank failed or was lost; the search so far was saved (if it could be)
  kError,        // `status` says why (a run without a baseline, the search could not be saved)
};

struct SearchResult {
  SearchEnd end = SearchEnd::kFinished;
  Status status;
};

// What the loop needs from its caller: to run one step, to keep the search's state after every
// run and every decided count, and to hear of a decided count.
class SearchSteps {
 public:
  virtual ~SearchSteps() = default;
  // Runs `run_no` (from 1) of `runs` at `count` instances; `rerun` counts the times this run
  // faulted and is run again (0 the first time).
  virtual RunReport Run(int count, int run_no, int runs, int rerun) = 0;
  virtual Status Save(const report::Search& s) = 0;
  virtual void Decided(const report::SearchCount& c) {}
  // A faulted run set aside, to be run again.
  virtual void SetAside(int count, const report::SearchRun& run) {}
};

// Runs the search from its state `s` (new, or read back to resume) until it ends: the counts
// NextCount names, each `s->runs` times, each decided when its runs are in; at the end the peak
// and `finished` are set and the search saved. A run classed fault is set aside and run again
// up to `s->rerun_faults` times before it counts; a run that did not start is set aside (a
// resumed search runs it again) and ends the search.
SearchResult RunSearch(report::Search* s, SearchSteps& steps);

}  // namespace sb::experiment

#endif  // STOREBENCH_EXPERIMENT_CONSOLIDATE_H_
