// Console text for a run of several instances (RunResult::instances): a table with one row per
// instance after the summary, the combined verdict of each baseline, and the per-instance status
// line. Pure functions on plain data, like dvdstore_console.h.
#ifndef STOREBENCH_REPORT_CONSOLE_INSTANCES_CONSOLE_H_
#define STOREBENCH_REPORT_CONSOLE_INSTANCES_CONSOLE_H_

#include <string>

#include "metrics/run_result.h"

namespace sb::report {

// The per-instance table, printed after FormatSummary(r); "" when r.instances is empty. A heading
// line, then one row per instance and a last row "aggregate" (r itself) with the columns:
//   instance, target, each headline of r.headlines (by name; r.headline_name when the list is
//   empty), "<unit> p50 ms" and "<unit> p99 ms" (the first operation type over the measured
//   window), errors (whole run, all categories), verify ("pass", "fail" or "-" when no check
//   ran; the aggregate row fails if any instance or its own checks failed), and one column per
//   baseline rule headed by the rule: "PASS <measured>" or "FAIL <measured>" ("-" if absent).
// Then one line per baseline of r, the combined verdict:
//   "  baseline opm>=2600@23m-28m (window_mean): PASS, lowest 2650 (instance ds3_2), 3 of 3
//    instances passed" (one line; "highest" for an upper bound such as p99_ms<=40).
// Every line ends in '\n' and has no trailing spaces.
std::string FormatInstanceTable(const metrics::RunResult& r);

// DVD Store 3's status line of one instance (FormatStatusLine(f, prefix)) prefixed with
// "[<instance>] ", e.g. "[ds3_2] et=   60.0 n_overall=1234 ...". Scripts that split the
// original line on whitespace see one extra leading token.
std::string FormatInstanceStatusLine(const std::string& instance, const metrics::StatusFigures& f,
                                     const std::string& prefix);

}  // namespace sb::report

#endif  // STOREBENCH_REPORT_CONSOLE_INSTANCES_CONSOLE_H_
