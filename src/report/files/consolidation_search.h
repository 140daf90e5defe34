// The state of a consolidation search (storebench consolidate; docs/consolidation.md) as plain
// data, and its JSON file: written after every run by the search, read back by --resume and by
// `storebench report`.
#ifndef STOREBENCH_REPORT_FILES_CONSOLIDATION_SEARCH_H_
#define STOREBENCH_REPORT_FILES_CONSOLIDATION_SEARCH_H_

#include <limits>
#include <string>
#include <vector>

#include "storebench/status.h"

namespace sb::report {

// The "kind" of a search file; a file without it is not a search.
inline constexpr char kSearchKind[] = "storebench consolidation search";

// A run's figures over the window that decided its first baseline (the rule's window, e.g.
// minutes 23-28 of "opm>=2600@23m-28m"; "run": the measured window), each read from the run's
// result: the row a consolidation report tabulates per count. NaN: the run lacks the figure
// (no power measured, no host CPU readings, a result without the window).
struct SearchWindow {
  static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  std::string label;  // the window's label as the rule wrote it; "" when not known
  // Each instance's headline figure in the window, in the result's instance order.
  std::vector<std::string> instance_names;
  std::vector<double> instances;
  double aggregate = kNone;     // the aggregate's headline figure in the window
  double host_cpu_pct = kNone;  // the system under test's mean CPU utilization in the window
  double power_w = kNone;       // the average power in the window (every source summed)
  double per_watt = kNone;      // the aggregate per watt (OPM/W, TPS/W)
};

struct SearchRun {
  std::string result_file;  // the run's result document, as the search wrote its path
  int exit_code = 0;
  bool passed = false;
  double deciding = 0;  // the first baseline's combined figure (lowest instance)
  double instance_min = 0, instance_median = 0, aggregate = 0;  // headline metric
  SearchWindow window;  // the figures over the deciding window
  // "passed", "capacity", "fault" or "no_start" (experiment/run_class.h), and why in words.
  std::string run_class;
  std::string class_reason;
  int run_no = 0;  // which run of its count it was (written for a run set aside)
};

struct SearchCount {
  int count = 0;
  std::vector<SearchRun> runs;
  int median_run = -1;  // index into runs once all are done
  bool passed = false;
  int runs_passed() const;
  // Runs recorded but not counted, in the order run: a faulted run that was run again
  // (--rerun_faults) and a run that did not start (a resumed search runs it again).
  std::vector<SearchRun> set_aside = {};  // "= {}": the counts' brace lists may leave it out
};

struct Search {
  std::string plan;
  std::string step = "linear";
  int from = 1, to = 1, runs = 3;
  int rerun_faults = 0;  // how often a faulted run is run again before it counts
  std::string headline;
  std::vector<SearchCount> counts;  // in the order tried
  bool finished = false;
  int peak = 0;  // 0: not even the first count passed
};

// The search file's text (pretty-printed, ending in a newline).
std::string SearchToJson(const Search& s);
// Parses a search file's text; InvalidArgument naming `path` when it is not one.
Result<Search> SearchFromJson(const std::string& text, const std::string& path);
// Writes the search file atomically (a temporary file renamed over `path`).
Status WriteSearchFile(const Search& s, const std::string& path);

}  // namespace sb::report

#endif  // STOREBENCH_REPORT_FILES_CONSOLIDATION_SEARCH_H_
