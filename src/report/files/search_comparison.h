// Two consolidation searches side by side (storebench compare A.json B.json; docs/compare.md):
// server A against server B as a consolidation report states it — the peak counts and their
// ratio ("B supported 22.2 % more instances"), the figure per watt at each peak and its ratio,
// and each count's aggregate in both.
#ifndef STOREBENCH_REPORT_FILES_SEARCH_COMPARISON_H_
#define STOREBENCH_REPORT_FILES_SEARCH_COMPARISON_H_

#include <string>
#include <vector>

#include "report/files/consolidation_search.h"

namespace sb::report {

inline constexpr char kSearchComparisonKind[] = "storebench search comparison";

struct SearchSide {
  std::string label;  // as named on the command line (NAME=file), else the file
  std::string file;
  std::string headline;  // the workload's headline metric ("opm")
  int peak = 0;          // 0: not even the first count passed
  bool finished = false;
  // At the peak, the median run's figures in the deciding window (NaN: not measured).
  double peak_aggregate = SearchWindow::kNone;
  double peak_per_watt = SearchWindow::kNone;
  double peak_power_w = SearchWindow::kNone;
};

// One instance count: each search's median-run aggregate in its deciding window (NaN where
// the search did not decide the count) and verdict.
struct SearchCountPair {
  int count = 0;
  double a = SearchWindow::kNone, b = SearchWindow::kNone;
  std::string verdict_a, verdict_b;  // "PASS", "FAIL" or "" (not run)
};

struct SearchComparison {
  SearchSide a, b;
  // peak(B) / peak(A) − 1 and per-watt(B) / per-watt(A) − 1 at the peaks; NaN when A's is 0 or
  // either is missing.
  double peak_change = SearchWindow::kNone;
  double per_watt_change = SearchWindow::kNone;
  std::vector<SearchCountPair> counts;  // every count either search decided, ascending
  std::vector<std::string> warnings;    // a search that did not finish, different metrics
};

SearchComparison CompareSearches(const Search& a, const std::string& label_a,
                                 const std::string& file_a, const Search& b,
                                 const std::string& label_b, const std::string& file_b);

// "B supported 22.2 % more instances than A (11 against 9)"; the same for the figure per watt.
std::string PeakSentence(const SearchComparison& c);
std::string PerWattSentence(const SearchComparison& c);

// The console text (one screen), its JSON document and a CSV of the per-count aggregates.
std::string FormatSearchComparison(const SearchComparison& c);
std::string SearchComparisonToJson(const SearchComparison& c);
std::string SearchComparisonCsv(const SearchComparison& c);

}  // namespace sb::report

#endif  // STOREBENCH_REPORT_FILES_SEARCH_COMPARISON_H_
