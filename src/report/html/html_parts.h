// Internal to report/: the building blocks of the HTML report's sections (tables, a chart with
// its table, number formatting) shared by html_report.cc, html_run.cc and html_other.cc.
#ifndef STOREBENCH_REPORT_HTML_HTML_PARTS_H_
#define STOREBENCH_REPORT_HTML_HTML_PARTS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "metrics/run_result.h"
#include "report/html/html_report.h"
#include "report/html/svg_chart.h"

namespace sb::report::html {

// The shortest text that reads back to the same double; "" for a non-finite value.
std::string Exact(double v);
// A number as shown: whole numbers without decimals, else 4–6 significant digits; "–" for NaN.
std::string Shown(double v);

struct Cell {
  std::string html;      // already escaped
  std::string value;     // data-value (numbers: Exact), "" for text
  bool numeric = false;  // right-aligned
};
Cell Text(const std::string& text);
Cell Num(double v);
Cell Int(int64_t v);
Cell Pass(bool passed);

// A table of class "data" with a header row; `key` becomes data-table for tests and styling.
class Table {
 public:
  Table(std::string key, std::vector<std::string> headers);
  void Row(std::vector<Cell> cells);
  size_t rows() const { return rows_.size(); }
  std::string Html() const;

 private:
  std::string key_;
  std::vector<std::string> headers_;
  std::vector<std::vector<Cell>> rows_;
};

// A chart with its table beside it (below it in print); `caption` says what it shows.
std::string Figure(const std::string& chart, const Table& table, const std::string& caption);

// Section parts for each kind of result (html_run.cc, html_storage.cc, html_other.cc). `id`
// prefixes element ids.
std::string RunSection(const metrics::RunResult& r, const PowerSummary& power,
                       const std::string& id);
std::string StorageSection(const metrics::RunResult& r, const std::string& id);
std::string SearchSection(const ReportItem& item, const std::string& id);
// A search's per-count table in the deciding window; every search of the report on one chart
// ("" for fewer than two) (html_search_table.cc).
std::string SearchWindowTable(const Search& s, const std::string& id);
std::string SearchesChart(const std::vector<ReportItem>& items);
std::string ComparisonSection(const Comparison& c, const std::string& id);
// The latency distribution of a database run from its operations' histograms (html_latency.cc);
// "" when the result has none.
std::string LatencyDistributionFigure(const metrics::RunResult& r, const std::string& id);
// Each instance's latency percentiles per operation type (html_instance_latency.cc); "" for a
// run of one instance.
std::string InstanceLatencyFigure(const metrics::RunResult& r, const std::string& id);
// The per-second throughput chart of a run (and its instances), used by runs and searches.
std::string ThroughputFigure(const metrics::RunResult& r, const std::string& id);
// A run's warnings, and its baselines, steady state and verification (html_run.cc).
std::string Warnings(const metrics::RunResult& r);
std::string Verdicts(const metrics::RunResult& r, const std::string& id);
// What a file is ("run", "storage run", "consolidation search", ...), and its full disclosure
// (html_disclosure.cc); `id` prefixes element ids.
const char* KindName(const ResultFile& f);
std::string Disclosure(const ReportItem& item, const std::string& id);
// A baseline's threshold when its rule names `metric` ("opm>=2600@23m-28m"); false otherwise.
bool BaselineThreshold(const metrics::RunResult& r, const std::string& metric, double* threshold,
                       std::string* rule);

}  // namespace sb::report::html

#endif  // STOREBENCH_REPORT_HTML_HTML_PARTS_H_
