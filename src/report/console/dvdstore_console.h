// DVD Store-compatible console and CSV lines, plus storebench's own human summary.
//
// The line formats are interface facts of DVD Store 3 (spec/dvdstore.md §6.5): third-party scripts
// split them on whitespace and read fields by position, so every token, space and misspelling is
// reproduced exactly. Numbers with decimals are formatted the way the original's .NET
// `{0,7:F1}` does on the .NET Framework / Mono runtimes it shipped for: the double is first rounded
// to 15 significant digits, then rounded half away from zero to the requested decimals
// (0.15 → "0.2", 2.25 → "2.3"; printf's "%.1f" would print "0.1" and "2.2"). NaN prints as "NaN".
//
// Every function is pure: it formats plain data and returns text without a trailing newline.
#ifndef STOREBENCH_REPORT_CONSOLE_DVDSTORE_CONSOLE_H_
#define STOREBENCH_REPORT_CONSOLE_DVDSTORE_CONSOLE_H_

#include <chrono>
#include <cstdint>
#include <string>

#include "metrics/run_result.h"

namespace sb::report {

// `value` with `decimals` decimals, right-aligned in `width` characters (never truncated), as
// .NET Framework's "F<decimals>" format does (see the file comment).
std::string FormatDotNetFixed(double value, int decimals, int width = 0);

// An integer figure as DVD Store prints its `(int)Math.Floor(x)` values: floor of `value`;
// NaN and infinities print as -2147483648 (the original's conversion of NaN, §6.4).
std::string FormatDotNetInt(double value);

// DVD Store's log_timestamp modes.
enum class LogTimestamp { kNone, kUtc, kLocal };

// The status line prefix for `mode` at wall-clock time `t`, including its trailing space:
//   kNone  → ""
//   kUtc   → "yyyy-MM-ddTHH:mm:ss.fffZ "   e.g. "2024-05-01T10:00:00.123Z "
//   kLocal → "MM/dd/yyyy h:mm:ss tt "      e.g. "05/01/2024 9:03:07 PM " (local time zone)
std::string StatusTimestampPrefix(LogTimestamp mode, std::chrono::system_clock::time_point t);

// The local date-time inside "Final (...)": .NET's DateTime.Now.ToString() in the en-US culture,
// "M/d/yyyy h:mm:ss tt", e.g. "5/1/2024 9:03:07 PM".
std::string FinalLineDateTime(std::chrono::system_clock::time_point t);

// DVD Store 3's status line:
//   "{ts}et={et:7.1f} n_overall={n} opm={opm} rt_tot_lastn_max_msec={max} rt_tot_avg_msec={avg}
//    rt_tot_sampled={sampled} rollbacks: n={rb} %={pct:5.1f} "
// (one line, single spaces, with the trailing space). `ts_prefix` is "" or a value of
// StatusTimestampPrefix() (which carries its own trailing space).
std::string FormatStatusLine(const metrics::StatusFigures& f, const std::string& ts_prefix);

// DVD Store's Final line: "Final (" + local_datetime + "): " followed by `r.figures` in their
// order as name=value tokens separated by single spaces. The figure named "et" prints as
// "et={7.1f}", the one named "rollback_rate" as "rollback_rate = {5.1f}%", all others as integers
// (FormatDotNetInt). The original prints an empty line before it; the caller does that.
std::string FormatFinalLine(const metrics::RunResult& r, const std::string& local_datetime);

// DVD Store 3's per-target Final line, printed under "Individual Stats for each DB / Web Server: "
// when the run has several targets: "Final: " and `r.figures` as FormatFinalLine prints them,
// five names spelled as that line spells them (n_reviewbrowse_overall, n_newreview_overall,
// n_newhelpfulnes_overall, rt_newmember_avg_msec, rt_newhelpfulness_avg_msec), and two trailing
// spaces after the final '%' (ds3xdriver.cs).
std::string FormatTargetFinalLine(const metrics::RunResult& r);

// DVD Store 3's heading of its per-target blocks (with its trailing space).
inline constexpr const char* kIndividualStatsLine = "Individual Stats for each DB / Web Server: ";

// The parameter values DVD Store 3 echoes before its threads start, as text in its forms.
struct Ds3Parameters {
  std::string target, n_threads, ramp_rate, run_time, db_size, warmup_time, think_time,
      pct_newcustomers, pct_newmember, n_searches, search_batch_size, n_reviews, pct_newreviews,
      pct_newhelpfulness, n_line_items, virt_dir, page_type, windows_perf_host, detailed_view,
      linux_perf_host, out_filename, ds2_mode, log_freq, log_timestamp;
};
// DVD Store 3's first line: "Total number of Threads to be Spawned across multiple servers are
// n_threads: <n>" (n_threads times the number of targets).
std::string ThreadsTotalLine(int64_t threads);
// Its parameter echo, one line with its double spaces and its missing '=' after n_line_items:
// "target= <t>  n_threads= <n>  ramp_rate= ... log_freq= <f> log_timestamp= <ts>".
std::string FormatParameterLine(const Ds3Parameters& p);
// "Thread <i>: created for User <i>" and "Thread <i>: connected to <target>".
std::string ThreadCreatedLine(int64_t thread);
std::string ThreadConnectedLine(int64_t thread, const std::string& target);

// The out_filename CSV. Header:
//   "datetime et, n_overall, opm, rt_tot_lastn_max_msec, rt_tot_avg_msec, rt_tot_sampled,
//    n_rollbacks_overall, rollback_pct" (one line)
std::string CsvHeaderLine();
// One CSV row: ts_prefix + " " + "{et:7.1f},{n},{opm},{max},{avg},{sampled},{rb},{pct:5.1f}".
// As in the original, the separator space is written even when ts_prefix is empty, so with a
// timestamp there are two spaces before the padded et.
std::string FormatCsvLine(const metrics::StatusFigures& f, const std::string& ts_prefix);

// storebench's human summary, printed after the Final line: headline, per-type latency table
// (count, mean, p50, p90, p95, p99, p99.9, max in ms over the measured window), errors by category,
// retries, counters, workers, driver CPU cost, then, only when the result has them, one line per
// window ("window <label> ..."), one per baseline ("baseline PASS|FAIL: <words> (measured X)")
// and the steady-state sentence; then verification results, the server cross-check (a line
// "server check: N of M comparisons agree (...)" and one line per comparison), the choices the
// result depends on and finally one "warning: ..." line per warning. Several lines, each ending in
// '\n'.
std::string FormatSummary(const metrics::RunResult& r);

}  // namespace sb::report

#endif  // STOREBENCH_REPORT_CONSOLE_DVDSTORE_CONSOLE_H_
