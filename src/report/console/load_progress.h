// The load's progress line: rows, MB/s, ETA, and how far each table is.
#ifndef STOREBENCH_REPORT_CONSOLE_LOAD_PROGRESS_H_
#define STOREBENCH_REPORT_CONSOLE_LOAD_PROGRESS_H_

#include <string>

#include "metrics/load_meter.h"

namespace sb::report {

// One line without a newline, e.g.
//   "load 1,234,567 of ~4,470,000 rows (27.6 %), 48.1 MB/s, 312,000 rows/s, ETA 0:11 |
//    customers 100 %, orders 45 %, orderlines ~41 %"
// and, once the data is in (sample.data_done), the totals with average rates. MB = 10^6 bytes
// of row text as sent; "~" marks expectations that are estimates. During the index phase
// (sample.index_phase) the index line instead (FormatIndexProgress).
std::string FormatLoadProgress(const metrics::LoadSample& sample);

// The index phase's line, e.g.
//   "indexes: 3 of 9 steps done, 0:42 elapsed, ETA ~0:31 | building reviews: ix_reviews_prod_id,
//    ix_reviews_stars (0:12), orderlines: ix_orderlines_orderid (0:05)"
// The ETA comes from the steps' weights (their tables' rows), hence "~".
std::string FormatIndexProgress(const metrics::LoadSample& sample);

// "0:07", "12:34", "1:02:03"; "?" when negative (unknown).
std::string FormatEta(double seconds);

}  // namespace sb::report

#endif  // STOREBENCH_REPORT_CONSOLE_LOAD_PROGRESS_H_
