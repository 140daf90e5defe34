// A consolidation search's per-count table, as a report states it: for each count, the median
// run's figures in the window that decided it (every instance, the aggregate, host CPU, average
// power, the figure per watt) and how many runs passed. The console prints it at the end of a
// search; `consolidate --csv` writes it (docs/consolidation.md#the-per-count-table).
#ifndef STOREBENCH_REPORT_FILES_CONSOLIDATION_TABLE_H_
#define STOREBENCH_REPORT_FILES_CONSOLIDATION_TABLE_H_

#include <string>
#include <vector>

#include "report/files/consolidation_search.h"

namespace sb::report {

// The headline metric as a column heads it ("opm" -> "OPM"), and its figure per watt ("OPM/W").
std::string MetricHeading(const std::string& headline);
std::string PerWattHeading(const std::string& headline);

// CSV cells as the search's tables write them: a number as the shortest text that reads back
// to it ("" for a missing one), a text quoted when it holds a comma, a quote or a line end.
std::string CsvNumber(double v);
std::string CsvCell(const std::string& s);

// The decided counts in increasing order (a count begun but not decided is left out).
std::vector<const SearchCount*> DecidedCounts(const Search& s);

// The console table with its heading and the peak line.
std::string FormatSearchTable(const Search& s);

// The same table as CSV, one row per decided count: instances, runs, runs_passed, verdict,
// window, the aggregate, host_cpu_pct, avg_power_w, the figure per watt, then one column per
// instance up to the largest count (empty where a count has fewer, or a figure is missing).
std::string SearchTableCsv(const Search& s);

}  // namespace sb::report

#endif  // STOREBENCH_REPORT_FILES_CONSOLIDATION_TABLE_H_
