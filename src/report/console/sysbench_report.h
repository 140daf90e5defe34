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

// What sysbench's header says about a run (sysbench.c: print_header, print_run_mode).
struct SysbenchHeader {
  std::string using_what;        // after "sysbench 1.0.20 (using ": "storebench 1.2.0"
  int64_t threads = 1;           // --threads
  double rate = 0;               // --rate (transactions per second), 0: none
  int64_t report_interval = 0;   // --report-interval seconds, 0: none
  int64_t seed = 0;              // --rand-seed, 0: "from current time"
  int64_t forced_shutdown = -1;  // seconds from Start until a forced shutdown, -1: off
};

// sysbench 1.0.20's lines before its workers start, blank lines included: the version line,
// "Running the test with following options:", "Number of threads: N", the rate, report
// interval, random seed and forced shutdown lines it prints for the options given, and
// "Initializing worker threads...". "Threads started!" follows when the run starts.
std::string FormatSysbenchHeader(const SysbenchHeader& h);

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
