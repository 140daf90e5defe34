// sysbench's console output for the sysbench-style workload (--workload oltp), so the scripts
// and parsers sysbench users have read storebench's output unchanged: the interval line of
// --report-interval, the latency histogram of --histogram and the final report (SQL
// statistics, General statistics, Latency (ms), Threads fairness), in the layout of sysbench
// 1.0's report functions (src/sysbench.c, src/sb_histogram.c, src/lua/internal/sysbench.lua).
#ifndef STOREBENCH_REPORT_CONSOLE_SYSBENCH_REPORT_H_
#define STOREBENCH_REPORT_CONSOLE_SYSBENCH_REPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "metrics/histogram.h"
#include "metrics/run_result.h"

namespace sb::report {

// What sysbench counts, over an interval or the measured window.
struct SysbenchCounts {
  double seconds = 0;                        // the span's length
  uint64_t events = 0;                       // transactions
  int64_t reads = 0, writes = 0, other = 0;  // statements, as sysbench classifies them
  int64_t errors = 0;                        // failed database calls (sysbench's ignored errors)
  int64_t reconnects = 0;
  metrics::Histogram latency;  // the transactions' response times

  // Adds one series point's figures (type 0 is the transaction; counters by name: reads,
  // writes, other, errors.*, reconnects). The latency histogram is added separately.
  void AddPoint(const metrics::TimeSeries& series, const metrics::IntervalPoint& point);
};

// "[ 10s ] thds: 4 tps: 97.50 qps: 1950.02 (r/w/o: 1365.01/390.00/195.00) lat (ms,95%): 50.11
// err/s: 0.00 reconn/s: 0.00" (one line, no newline).
std::string FormatSysbenchInterval(double t_sec, int64_t threads, int percentile,
                                   const SysbenchCounts& c);

// "Latency histogram (values are in milliseconds)" and one row per non-empty bucket.
std::string FormatSysbenchHistogram(const metrics::Histogram& h);

// The final report over the measured window; `threads` gives Threads fairness (omitted when
// empty). `percentile` 0 prints "percentile stats: disabled" as sysbench does.
std::string FormatSysbenchReport(const SysbenchCounts& c, int percentile,
                                 const std::vector<metrics::ThreadShare>& threads);

}  // namespace sb::report

#endif  // STOREBENCH_REPORT_CONSOLE_SYSBENCH_REPORT_H_
