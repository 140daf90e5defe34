// The load's progress line: rows, MB/s, ETA, and how far each table is.
#ifndef STOREBENCH_REPORT_LOAD_PROGRESS_H_
#define STOREBENCH_REPORT_LOAD_PROGRESS_H_

#include <string>

#include "metrics/load_meter.h"

namespace sb::report {

// One line without a newline, e.g.
//   "load 1,234,567 of ~4,470,000 rows (27.6 %), 48.1 MB/s, 312,000 rows/s, ETA 0:11 |
//    customers 100 %, orders 45 %, orderlines ~41 %"
// and, once the data is in (sample.data_done), the totals with average rates. MB = 10^6 bytes
// of row text as sent; "~" marks expectations that are estimates.
std::string FormatLoadProgress(const metrics::LoadSample& sample);

// "0:07", "12:34", "1:02:03"; "?" when negative (unknown).
std::string FormatEta(double seconds);

}  // namespace sb::report

#endif  // STOREBENCH_REPORT_LOAD_PROGRESS_H_
