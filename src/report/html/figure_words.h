// The unit and meaning of a figure in a result's `figures` block, for the report's figures
// table: a result keeps only names and numbers, and names such as DVD Store's "rt_tot_lastn_max"
// mean nothing to a reader of a published table.
#ifndef STOREBENCH_REPORT_HTML_FIGURE_WORDS_H_
#define STOREBENCH_REPORT_HTML_FIGURE_WORDS_H_

#include <string>

namespace sb::report::html {

struct FigureWords {
  std::string unit;     // "ms", "s", "count", "%", "per minute", ... ("" unknown)
  std::string meaning;  // a short phrase ("" unknown)
};

// Known names first (DVD Store 3's Final line, TPC-C-like's and the timed command's figures),
// then the name's form: n_* counts, rt_*_msec and *_ms milliseconds, *_sec seconds, *_pct
// percent, *_per_sec / *_per_minute rates, tpm/opm/nopm per minute, tps/qps per second.
FigureWords DescribeFigure(const std::string& name);

// The unit of a headline metric (per second or per minute, from its spec's factor), with the
// metric's own words for what is counted.
std::string HeadlineUnit(const std::string& name, double per_second);

}  // namespace sb::report::html

#endif  // STOREBENCH_REPORT_HTML_FIGURE_WORDS_H_
