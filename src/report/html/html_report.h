// The HTML report (storebench report): one self-contained page, readable offline and printable,
// from result files of every kind (docs/report.md). Charts are inline SVG
// (report/html/svg_chart.h), each with a table of its figures beside it; all text taken from the
// inputs is HTML-escaped.
#ifndef STOREBENCH_REPORT_HTML_HTML_REPORT_H_
#define STOREBENCH_REPORT_HTML_HTML_REPORT_H_

#include <string>
#include <vector>

#include "metrics/run_result.h"
#include "report/files/result_file.h"

namespace sb::report {

// One file of the report and what it refers to.
struct ReportItem {
  ResultFile file;
  // A consolidation search: the median run drawn in full — the one at the peak, else at the
  // highest count decided — as (count, result), when its result file could be read.
  std::vector<std::pair<int, metrics::RunResult>> median_runs;
  // Sentences about what could not be shown (a search's run file that is missing).
  std::vector<std::string> notes;
};

// The page. `generated_at` is printed in its header (ISO-8601 UTC).
std::string RenderHtmlReport(const std::vector<ReportItem>& items, const std::string& generated_at);

}  // namespace sb::report

#endif  // STOREBENCH_REPORT_HTML_HTML_REPORT_H_
