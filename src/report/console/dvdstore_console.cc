#include "report/console/dvdstore_console.h"

#include <time.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <utility>
#include <vector>

#include "report/console/numbers.h"

namespace sb::report {

namespace {

// Fixed-point text of a finite `value` (see the header for the rounding rule).
std::string FiniteDotNetFixed(double value, int decimals) {
  // Step 1: 15 significant digits, as .NET Framework's double formatting starts with. glibc's
  // printf is exact, so this is the correctly rounded 15-digit decimal.
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%.14e", std::fabs(value));  // "d.dddddddddddddde±XX"
  std::string digits;
  digits.push_back(buf[0]);
  digits.append(buf + 2, 14);
  const char* e = std::strchr(buf, 'e');
  int point = std::atoi(e + 1) + 1;  // digits before the decimal point; may be <= 0
  if (point < 0) {
    digits.insert(0, static_cast<size_t>(-point), '0');
    point = 0;
  }
  const size_t keep = static_cast<size_t>(point + decimals);
  if (digits.size() < keep) digits.append(keep - digits.size(), '0');

  // Step 2: round half away from zero at `decimals` decimals.
  bool round_up = digits.size() > keep && digits[keep] >= '5';
  digits.resize(keep);
  if (round_up) {
    size_t i = keep;
    while (i > 0) {
      --i;
      if (digits[i] == '9') {
        digits[i] = '0';
      } else {
        ++digits[i];
        round_up = false;
        break;
      }
    }
    if (round_up) {  // carry out of the first digit: 9.96 → 10.0
      digits.insert(digits.begin(), '1');
      ++point;
    }
  }

  std::string integer = digits.substr(0, static_cast<size_t>(point));
  const size_t nonzero = integer.find_first_not_of('0');
  integer = nonzero == std::string::npos ? "0" : integer.substr(nonzero);
  std::string out;
  const bool all_zero = digits.find_first_not_of('0') == std::string::npos;
  if (value < 0 && !all_zero) out.push_back('-');  // .NET Framework prints -0.01 as "0.0"
  out += integer;
  if (decimals > 0) {
    out.push_back('.');
    out += digits.substr(static_cast<size_t>(point));
  }
  return out;
}

std::string PadLeft(std::string s, size_t width) {
  if (s.size() < width) s.insert(0, width - s.size(), ' ');
  return s;
}

std::string PadRight(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::string Int(int64_t v) { return std::to_string(v); }

using numbers::Amount;
using numbers::Ms;
using numbers::Printf;

// Breaks `t` into calendar fields (UTC or local) plus milliseconds.
void BreakDown(std::chrono::system_clock::time_point t, bool utc, std::tm* tm, int* millis) {
  using std::chrono::duration_cast;
  using std::chrono::milliseconds;
  using std::chrono::seconds;
  const auto since_epoch = t.time_since_epoch();
  auto secs = duration_cast<seconds>(since_epoch);
  if (secs > since_epoch) secs -= seconds(1);  // floor for times before 1970
  *millis = static_cast<int>(duration_cast<milliseconds>(since_epoch - secs).count());
  const time_t tt = static_cast<time_t>(secs.count());
  if (utc) {
    gmtime_r(&tt, tm);
  } else {
    localtime_r(&tt, tm);
  }
}

// "h:mm:ss tt" (12-hour clock, en-US).
std::string TwelveHourTime(const std::tm& tm) {
  const int hour12 = tm.tm_hour % 12 == 0 ? 12 : tm.tm_hour % 12;
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%d:%02d:%02d %s", hour12, tm.tm_min, tm.tm_sec,
                tm.tm_hour < 12 ? "AM" : "PM");
  return buf;
}

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// A headline value: integral values without decimals (OPM 12345), others with one.
std::string HeadlineValue(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15) {
    return Int(static_cast<int64_t>(v));
  }
  return Printf("%.1f", v);
}

// A CPU time per operation, in the unit that keeps it readable.
std::string CpuPerOp(double sec) {
  if (!std::isfinite(sec)) return "n/a";
  if (sec < 1e-3) return Printf("%.1f us", sec * 1e6);
  if (sec < 1.0) return Printf("%.3f ms", sec * 1e3);
  return Printf("%.3f s", sec);
}

// The loop model in a few words, to stand next to latency figures: a closed-loop latency hides
// queueing that an open-loop one includes.
std::string LoopModelShort(const metrics::RunResult& r) {
  if (r.loop_model.rfind("open loop", 0) == 0) return "open loop: from the intended start";
  if (r.loop_model.rfind("closed loop", 0) == 0) return "closed loop: from the actual start";
  return r.loop_model;
}

// One line per window: the unit's per-second rate spread (as per-minute figures), its rate over
// the whole window, DVD Store's running OPM at both ends and the unit's p50/p99.
void AppendWindows(const metrics::RunResult& r, std::string* out) {
  // The first operation type is the workload's unit (DVD Store: the order).
  const std::string unit = r.type_names.empty() ? "unit" : r.type_names[0];
  for (const auto& w : r.windows) {
    std::string line = "  window " + w.label;
    if (!w.complete) line += " (incomplete: the run did not cover the whole window)";
    line += ": per second as " + unit + "s/min min " + Amount(w.per_sec_min * 60) + ", mean " +
            Amount(w.per_sec_mean * 60) + ", median " + Amount(w.per_sec_median * 60) + ", max " +
            Amount(w.per_sec_max * 60);
    line += "; " + Amount(w.per_minute) + " " + unit + "s/min over the window";
    line += "; running OPM " + Amount(w.running_start) + " \u2192 " + Amount(w.running_end);
    const metrics::LatencySummary s = w.latency.empty() ? metrics::LatencySummary{} : w.latency[0];
    line += "; " + unit + " p50 " + Ms(s.p50_ms) + " ms, p99 " + Ms(s.p99_ms) + " ms";
    // Latency means different things in the two loop models; say which one, every time.
    if (!r.loop_model.empty()) line += " (" + LoopModelShort(r) + ")";
    *out += line + "\n";
  }
}

void AppendLatencyTable(const metrics::RunResult& r, std::string* out) {
  if (r.type_names.empty()) {
    *out += "  no operations recorded in the measured window\n";
    return;
  }
  *out +=
      "  latency in ms over the measured window (nearest-rank percentiles from log-linear "
      "histograms, error <= 1 %)" +
      (r.loop_model.empty() ? "" : ", " + LoopModelShort(r)) + "\n";
  const std::vector<std::string> header = {"type", "count", "mean",  "p50", "p90",
                                           "p95",  "p99",   "p99.9", "max"};
  std::vector<std::vector<std::string>> rows;
  rows.push_back(header);
  for (size_t i = 0; i < r.type_names.size(); ++i) {
    const metrics::LatencySummary s =
        i < r.latency.size() ? r.latency[i] : metrics::LatencySummary{};
    rows.push_back({r.type_names[i], std::to_string(s.count), Ms(s.mean_ms), Ms(s.p50_ms),
                    Ms(s.p90_ms), Ms(s.p95_ms), Ms(s.p99_ms), Ms(s.p999_ms), Ms(s.max_ms)});
  }
  std::vector<size_t> width(header.size(), 0);
  for (const auto& row : rows) {
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  }
  for (const auto& row : rows) {
    std::string line = "  " + PadRight(row[0], width[0]);
    for (size_t c = 1; c < row.size(); ++c) line += "  " + PadLeft(row[c], width[c]);
    *out += line + "\n";
  }
}

}  // namespace

std::string FormatDotNetFixed(double value, int decimals, int width) {
  std::string s;
  if (std::isnan(value)) {
    s = "NaN";
  } else if (std::isinf(value)) {
    s = value > 0 ? "Infinity" : "-Infinity";
  } else {
    s = FiniteDotNetFixed(value, std::max(decimals, 0));
  }
  return PadLeft(std::move(s), static_cast<size_t>(std::max(width, 0)));
}

std::string FormatDotNetInt(double value) {
  // (int)NaN on the original's x86 runtime is the "integer indefinite" value.
  if (!std::isfinite(value)) return "-2147483648";
  const double f = std::floor(value);
  if (f >= 9.2e18) return Int(INT64_MAX);
  if (f <= -9.2e18) return Int(INT64_MIN);
  return Int(static_cast<int64_t>(f));
}

std::string StatusTimestampPrefix(LogTimestamp mode, std::chrono::system_clock::time_point t) {
  std::tm tm{};
  int millis = 0;
  char buf[64];
  switch (mode) {
    case LogTimestamp::kNone:
      return "";
    case LogTimestamp::kUtc:
      BreakDown(t, /*utc=*/true, &tm, &millis);
      std::snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ ", tm.tm_year + 1900,
                    tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, millis);
      return buf;
    case LogTimestamp::kLocal:
      BreakDown(t, /*utc=*/false, &tm, &millis);
      std::snprintf(buf, sizeof(buf), "%02d/%02d/%04d ", tm.tm_mon + 1, tm.tm_mday,
                    tm.tm_year + 1900);
      return buf + TwelveHourTime(tm) + " ";
  }
  return "";
}

std::string FinalLineDateTime(std::chrono::system_clock::time_point t) {
  std::tm tm{};
  int millis = 0;
  BreakDown(t, /*utc=*/false, &tm, &millis);
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%d/%d/%04d ", tm.tm_mon + 1, tm.tm_mday, tm.tm_year + 1900);
  return buf + TwelveHourTime(tm);
}

std::string FormatStatusLine(const metrics::StatusFigures& f, const std::string& ts_prefix) {
  std::string s = ts_prefix;
  s += "et=" + FormatDotNetFixed(f.et_sec, 1, 7);
  s += " n_overall=" + Int(f.n_overall);
  s += " opm=" + Int(f.opm);
  s += " rt_tot_lastn_max_msec=" + Int(f.rt_tot_lastn_max_msec);
  s += " rt_tot_avg_msec=" + Int(f.rt_tot_avg_msec);
  s += " rt_tot_sampled=" + Int(f.rt_tot_sampled);
  s += " rollbacks: n=" + Int(f.n_rollbacks);
  s += " %=" + FormatDotNetFixed(f.rollback_pct, 1, 5) + " ";
  return s;
}

std::string FormatFinalLine(const metrics::RunResult& r, const std::string& local_datetime) {
  std::string s = "Final (" + local_datetime + "): ";
  bool first = true;
  for (const auto& [name, value] : r.figures) {
    if (!first) s += ' ';
    first = false;
    if (name == "et") {
      s += "et=" + FormatDotNetFixed(value, 1, 7);
    } else if (name == "rollback_rate") {
      s += "rollback_rate = " + FormatDotNetFixed(value, 1, 5) + "%";
    } else {
      s += name + "=" + FormatDotNetInt(value);
    }
  }
  return s;
}

std::string FormatTargetFinalLine(const metrics::RunResult& r) {
  // The per-target line's own spellings of five names of the whole run's Final line.
  static const std::pair<const char*, const char*> kRenamed[] = {
      {"n_reviewbrowse", "n_reviewbrowse_overall"},
      {"n_newreviews", "n_newreview_overall"},
      {"n_newhelpfulness", "n_newhelpfulnes_overall"},
      {"rt_rewmember_avg_msec", "rt_newmember_avg_msec"},
      {"rt_newhelpfulness", "rt_newhelpfulness_avg_msec"}};
  metrics::RunResult renamed;
  for (const auto& [name, value] : r.figures) {
    std::string n = name;
    for (const auto& [from, to] : kRenamed) {
      if (n == from) n = to;
    }
    renamed.figures.emplace_back(n, value);
  }
  std::string s = FormatFinalLine(renamed, "");
  // FormatFinalLine's "Final (): " becomes "Final: ".
  return "Final: " + s.substr(std::strlen("Final (): ")) + "  ";
}

std::string ThreadsTotalLine(int64_t threads) {
  return "Total number of Threads to be Spawned across multiple servers are n_threads: " +
         Int(threads);
}

std::string FormatParameterLine(const Ds3Parameters& p) {
  return "target= " + p.target + "  n_threads= " + p.n_threads + "  ramp_rate= " + p.ramp_rate +
         "  run_time= " + p.run_time + "  db_size= " + p.db_size +
         "  warmup_time= " + p.warmup_time + "  think_time= " + p.think_time +
         " pct_newcustomers= " + p.pct_newcustomers + " pct_newmembers= " + p.pct_newmember +
         "  n_searches= " + p.n_searches + "  search_batch_size= " + p.search_batch_size +
         "  n_reviews=" + p.n_reviews + " pct_newreviews=" + p.pct_newreviews +
         " pct_newhelpfulness=" + p.pct_newhelpfulness + " n_line_items" + p.n_line_items +
         " virt_dir= " + p.virt_dir + "  page_type= " + p.page_type +
         "  windows_perf_host= " + p.windows_perf_host + " detailed_view= " + p.detailed_view +
         " linux_perf_host= " + p.linux_perf_host + " output_file= " + p.out_filename +
         " ds2_mode= " + p.ds2_mode + " log_freq= " + p.log_freq +
         " log_timestamp= " + p.log_timestamp;
}

std::string ThreadCreatedLine(int64_t thread) {
  return "Thread " + Int(thread) + ": created for User " + Int(thread);
}

std::string ThreadConnectedLine(int64_t thread, const std::string& target) {
  return "Thread " + Int(thread) + ": connected to " + target;
}

std::string CsvHeaderLine() {
  return "datetime et, n_overall, opm, rt_tot_lastn_max_msec, rt_tot_avg_msec, rt_tot_sampled, "
         "n_rollbacks_overall, rollback_pct";
}

std::string FormatCsvLine(const metrics::StatusFigures& f, const std::string& ts_prefix) {
  return ts_prefix + " " + FormatDotNetFixed(f.et_sec, 1, 7) + "," + Int(f.n_overall) + "," +
         Int(f.opm) + "," + Int(f.rt_tot_lastn_max_msec) + "," + Int(f.rt_tot_avg_msec) + "," +
         Int(f.rt_tot_sampled) + "," + Int(f.n_rollbacks) + "," +
         FormatDotNetFixed(f.rollback_pct, 1, 5);
}

std::string FormatSummary(const metrics::RunResult& r) {
  std::string out;
  const std::string workload = r.workload.empty() ? "run" : r.workload;
  out += workload + ": " + Upper(r.headline_name) + " " + HeadlineValue(r.headline_value);
  if (!r.loop_model.empty()) out += " (" + r.loop_model + ")";
  out += "\n";

  out += "  measured window " + Printf("%.1f", r.measured_sec) + " s";
  if (!r.started_at.empty() || !r.ended_at.empty()) {
    out += "; run " + r.started_at + " to " + r.ended_at;
  }
  out += "; workers " + Int(r.workers_started) + " started, " + Int(r.workers_failed) + " failed\n";
  // How the workload talked to the database (DVD Store: client statements or procedures).
  if (auto it = r.choices.find("sql_mode"); it != r.choices.end()) {
    out += "  sql_mode: " + it->second.substr(0, it->second.find(':')) + "\n";
  }
  if (r.interrupted) {
    out += "  INTERRUPTED: stopped by a signal before the planned end; the window is shorter\n";
  }
  out += "\n";

  AppendLatencyTable(r, &out);
  out += "\n";

  int64_t error_total = 0;
  std::string error_list;
  for (const auto& [category, n] : r.errors) {
    if (n == 0) continue;
    error_total += n;
    if (!error_list.empty()) error_list += ", ";
    error_list += category + " " + Int(n);
  }
  out += error_total == 0 ? "  errors (whole run): none\n"
                          : "  errors (whole run): " + Int(error_total) + " (" + error_list + ")\n";
  out += "  retries: " + Int(r.retries) + "\n";
  if (!r.counters.empty()) {
    std::string list;
    for (const auto& [name, n] : r.counters) {
      if (!list.empty()) list += ", ";
      list += name + " " + Int(n);
    }
    out += "  counters (measured window): " + list + "\n";
  }

  const std::string op = r.headline_name == "opm" ? "order" : "operation";
  out += "  driver CPU: " + Printf("%.1f", r.driver_cpu_sec) + " s, " +
         CpuPerOp(r.driver_cpu_sec_per_op) + " per " + op + ", " +
         Printf("%.1f", r.driver_cpu_share * 100.0) + " % of one core\n";

  AppendWindows(r, &out);
  for (const auto& b : r.baselines) {
    out += std::string("  baseline ") + (b.passed ? "PASS" : "FAIL") + ": " + b.words +
           " (measured " + Amount(b.measured) + ")\n";
  }
  const metrics::SteadyStateResult& steady = r.steady_state;
  if (steady.evaluated || !steady.detail.empty()) {
    std::string sentence = steady.detail;
    if (sentence.empty()) {  // a result built by hand: say what the flags say
      sentence = std::string(steady.steady ? "steady" : "not steady") + ": slope " +
                 Printf("%+.1f", steady.slope_pct) + " %, spread " + Printf("%.1f", steady.cv_pct) +
                 " %";
    }
    out += "  steady state: " + sentence + "\n";
  }

  if (r.verify.empty()) {
    out += "  verify: not run\n";
  } else {
    const auto passed = std::count_if(r.verify.begin(), r.verify.end(),
                                      [](const metrics::RunResult::Check& c) { return c.passed; });
    out += "  verify: " + Int(passed) + " of " + Int(static_cast<int64_t>(r.verify.size())) +
           " checks passed\n";
    for (const auto& c : r.verify) {
      out += std::string("    ") + (c.passed ? "ok     " : "FAILED ") + c.name;
      if (!c.detail.empty()) out += ": " + c.detail;
      out += "\n";
    }
  }

  if (const metrics::ServerCheckResult& sc = r.server_check; sc.present) {
    if (!sc.error.empty()) {
      out += "  server check: not done (" + sc.error + ")\n";
    } else {
      const auto not_compared = [](const metrics::ServerCheckResult::Comparison& m) {
        return m.relation == "not compared";
      };
      const auto agree = std::count_if(sc.comparisons.begin(), sc.comparisons.end(),
                                       [&](const metrics::ServerCheckResult::Comparison& m) {
                                         return m.passed && !not_compared(m);
                                       });
      const auto compared =
          static_cast<int64_t>(sc.comparisons.size()) -
          std::count_if(sc.comparisons.begin(), sc.comparisons.end(), not_compared);
      out += "  server check: " + Int(agree) + " of " + Int(compared) +
             " comparisons agree (client " + Int(static_cast<int64_t>(sc.client_units)) + " " +
             (r.type_names.empty() ? std::string("unit") : r.type_names[0]) + "s " + sc.span +
             (sc.start_exact ? "" : "; units were in flight at the start reading") +
             (sc.counters_settled ? "" : "; server counters still changing at the end") + ")\n";
      for (const auto& m : sc.comparisons) {
        if (not_compared(m)) {
          out += "    -      " + m.name + ": client " + Int(m.client) + ", server " +
                 Int(m.server) + " (other sessions were active: not compared)\n";
          continue;
        }
        out += std::string("    ") + (m.passed ? "ok     " : "DIFFER ") + m.name + ": client " +
               Int(m.client) + ", server " + Int(m.server) + " (server " + m.relation +
               " client expected)\n";
      }
    }
  }

  if (!r.choices.empty()) {
    out += "  choices:\n";
    for (const auto& [key, description] : r.choices) {
      out += "    " + key + ": " + description + "\n";
    }
  }
  for (const auto& w : r.warnings) out += "  warning: " + w + "\n";
  return out;
}

}  // namespace sb::report
