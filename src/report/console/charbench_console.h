// Swingbench charbench-style console output for workloads whose Shape asks for it (Order Entry):
// a header, one line per status interval, and the end-of-run summary Swingbench users read
// (completed and failed transactions, average TPS, maximum TPM, response times per transaction).
// Pure functions of plain data; no trailing newline unless said.
#ifndef STOREBENCH_REPORT_CONSOLE_CHARBENCH_CONSOLE_H_
#define STOREBENCH_REPORT_CONSOLE_CHARBENCH_CONSOLE_H_

#include <chrono>
#include <cstdint>
#include <string>

#include "metrics/run_result.h"

namespace sb::report {

// "Time     Users  TPM  TPS  Errors  NCR  UCD ..." with one column per step type of `series`.
std::string CharbenchHeader(const metrics::TimeSeries& series);

// One line: local wall time (HH:MM:SS), the configured users, TPM (transactions completed in the
// trailing 60 s of the series), TPS (completed per second over the last `interval_sec` s),
// errors (failed transactions over the last interval: the series counter "failed"), then per
// step type its completions in the trailing 60 s (a per-minute rate, as TPM).
std::string FormatCharbenchLine(const metrics::TimeSeries& series, int64_t users,
                                int64_t interval_sec, std::chrono::system_clock::time_point now);

// The highest TPM of the measured window (the last `measured_sec` seconds of the "measure"
// points, by their times; the whole phase when 0): completed transactions in any 60 s of it
// that ends on a point, or its rate per minute when the window is a minute or shorter.
double MaximumTpm(const metrics::TimeSeries& series, double measured_sec);

// The end summary, several lines each ending in '\n': completed and failed transactions,
// average TPS and maximum TPM, then per step type its count, failures, and average, minimum,
// maximum, 50th, 90th, 95th and 99th percentile response times in ms; then, where the server
// cross-check read the server's counters, its statements (else rows written) and commits per
// minute, each named by its counter.
std::string FormatCharbenchSummary(const metrics::RunResult& r);

}  // namespace sb::report

#endif  // STOREBENCH_REPORT_CONSOLE_CHARBENCH_CONSOLE_H_
