#include "report/console/charbench_console.h"

#include <algorithm>
#include <cstdio>
#include <ctime>

namespace sb::report {
namespace {

int CounterIndex(const metrics::TimeSeries& s, const std::string& name) {
  for (size_t i = 0; i < s.counter_names.size(); ++i) {
    if (s.counter_names[i] == name) return static_cast<int>(i);
  }
  return -1;
}

// Completed units (type 0 minus the "failed" counter) and per-type counts over points
// [from, to).
double Completed(const metrics::TimeSeries& s, size_t from, size_t to, int failed) {
  double n = 0;
  for (size_t i = from; i < to; ++i) {
    const auto& p = s.points[i];
    if (!p.type_counts.empty()) n += static_cast<double>(p.type_counts[0]);
    if (failed >= 0 && static_cast<size_t>(failed) < p.counters.size()) {
      n -= static_cast<double>(p.counters[static_cast<size_t>(failed)]);
    }
  }
  return n;
}

size_t PointsIn(const metrics::TimeSeries& s, double seconds) {
  const double step = s.interval_sec > 0 ? s.interval_sec : 1;
  return static_cast<size_t>(std::max(1.0, seconds / step + 0.5));
}

// Step types: the series' types after the unit, up to a driver type ("schedule_lag").
size_t StepTypes(const metrics::TimeSeries& s) {
  size_t n = 0;
  for (size_t i = 1; i < s.type_names.size() && s.type_names[i] != "schedule_lag"; ++i) ++n;
  return n;
}

}  // namespace

std::string CharbenchHeader(const metrics::TimeSeries& series) {
  std::string h = "Time         Users      TPM      TPS  Errors";
  for (size_t t = 0; t < StepTypes(series); ++t) {
    char col[32];
    std::snprintf(col, sizeof col, " %7s", series.type_names[1 + t].c_str());
    h += col;
  }
  return h;
}

std::string FormatCharbenchLine(const metrics::TimeSeries& series, int64_t users,
                                int64_t interval_sec, std::chrono::system_clock::time_point now) {
  const size_t n = series.points.size();
  const int failed = CounterIndex(series, "failed");
  const size_t minute = std::min(n, PointsIn(series, 60));
  const size_t interval = std::min(n, PointsIn(series, static_cast<double>(interval_sec)));
  const double tpm = Completed(series, n - minute, n, failed);
  const double secs = static_cast<double>(interval) * series.interval_sec;
  const double tps = secs > 0 ? Completed(series, n - interval, n, failed) / secs : 0;
  int64_t errors = 0;
  if (failed >= 0) {
    for (size_t i = n - interval; i < n; ++i) {
      if (static_cast<size_t>(failed) < series.points[i].counters.size()) {
        errors += series.points[i].counters[static_cast<size_t>(failed)];
      }
    }
  }
  const std::time_t t = std::chrono::system_clock::to_time_t(now);
  std::tm local{};
  localtime_r(&t, &local);
  // charbench shows the users logged on over the users configured: every user is logged on
  // once the run is under way.
  char users_col[48];
  std::snprintf(users_col, sizeof users_col, "[%lld/%lld]", static_cast<long long>(users),
                static_cast<long long>(users));
  char head[128];
  std::snprintf(head, sizeof head, "%02d:%02d:%02d %9s %8.0f %8.1f %7lld", local.tm_hour,
                local.tm_min, local.tm_sec, users_col, tpm, tps, static_cast<long long>(errors));
  std::string line = head;
  // Per transaction, as charbench: its average response time in ms over the last interval
  // (0 when none completed).
  for (size_t type = 1; type <= StepTypes(series); ++type) {
    double count = 0, ms = 0;
    for (size_t i = n - interval; i < n; ++i) {
      const metrics::IntervalPoint& p = series.points[i];
      if (type < p.type_counts.size() && type < p.type_mean_ms.size()) {
        count += static_cast<double>(p.type_counts[type]);
        ms += static_cast<double>(p.type_counts[type]) * p.type_mean_ms[type];
      }
    }
    char col[32];
    std::snprintf(col, sizeof col, " %7.0f", count > 0 ? ms / count : 0.0);
    line += col;
  }
  return line;
}

double MaximumTpm(const metrics::TimeSeries& series, double measured_sec) {
  const int failed = CounterIndex(series, "failed");
  // The window's points by their times, not their phase labels: the sample on the warm-up's
  // boundary and the one after a pause for the server's reading (both before the reset) can be
  // labelled "measure", and the ticks the controller catches up after that pause are
  // milliseconds apart (a 30 s MariaDB run measured 4.4 s of pause and four such points).
  size_t last = series.points.size();
  for (size_t i = series.points.size(); i-- > 0;) {
    if (series.points[i].phase == "measure") {
      last = i;
      break;
    }
  }
  if (last == series.points.size()) return 0;
  auto begins = [&](size_t i) { return i == 0 ? 0.0 : series.points[i - 1].t_sec; };
  constexpr double kSlack = 1e-3;  // seconds: a sample lands a little after its target
  const double end_t = series.points[last].t_sec;
  size_t first = last + 1;
  for (size_t i = 0; i <= last; ++i) {
    const bool in_phase = series.points[i].phase == "measure";
    if (in_phase && (measured_sec <= 0 || begins(i) >= end_t - measured_sec - kSlack)) {
      first = i;
      break;
    }
  }
  if (first > last) return 0;
  const double span = end_t - begins(first);
  if (span <= 60 + kSlack) {
    return span > 0 ? Completed(series, first, last + 1, failed) * 60 / span : 0;
  }
  // Every trailing minute that ends on a point of the window and lies wholly inside it.
  double best = 0;
  size_t from = first;
  for (size_t j = first; j <= last; ++j) {
    const double minute_start = series.points[j].t_sec - 60;
    if (minute_start < begins(first) - kSlack) continue;
    while (from < j && begins(from) < minute_start - kSlack) ++from;
    best = std::max(best, Completed(series, from, j + 1, failed));
  }
  return best;
}

std::string FormatCharbenchSummary(const metrics::RunResult& r) {
  auto figure = [&](const char* name) {
    for (const auto& [k, v] : r.figures) {
      if (k == name) return v;
    }
    return 0.0;
  };
  std::string out;
  char line[256];
  std::snprintf(line, sizeof line,
                "Completed transactions %.0f, failed %.0f; average TPS %.2f, maximum TPM %.0f\n",
                figure("completed_transactions"), figure("failed_transactions"),
                figure("average_tps"), figure("maximum_tpm"));
  out += line;
  out +=
      "Transaction      Count   Failed   Avg ms   Min ms   Max ms   p50 ms   p90 ms   p95 ms"
      "   p99 ms\n";
  for (size_t i = 1; i < r.type_names.size() && i < r.latency.size(); ++i) {
    if (r.type_names[i] == "schedule_lag") break;
    const auto& l = r.latency[i];
    int64_t failed = 0;
    if (auto it = r.counters.find("failed." + r.type_names[i]); it != r.counters.end()) {
      failed = it->second;
    }
    std::snprintf(line, sizeof line,
                  "%-12s %9llu %8lld %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f\n",
                  r.type_names[i].c_str(), static_cast<unsigned long long>(l.count),
                  static_cast<long long>(failed), l.mean_ms, l.min_ms, l.max_ms, l.p50_ms, l.p90_ms,
                  l.p95_ms, l.p99_ms);
    out += line;
  }
  // Swingbench's DML chart from the server's own counters, where the server has them: its
  // statement counts (MariaDB's Com_*, PostgreSQL's pg_stat_statements), else the rows it wrote
  // (PostgreSQL's pg_stat_database without pg_stat_statements). Each figure names its counter:
  // what a server counts as a commit differs (PostgreSQL's xact_commit counts every
  // autocommitted statement too).
  const struct {
    const char* meaning;
    const char* word;
  } kinds[][2] = {{{"statements.select", "select"}, {nullptr, nullptr}},
                  {{"statements.insert", "insert"}, {"rows_inserted", "rows inserted"}},
                  {{"statements.update", "update"}, {"rows_updated", "rows updated"}},
                  {{"statements.delete", "delete"}, {"rows_deleted", "rows deleted"}},
                  {{"commits", "commit"}, {nullptr, nullptr}},
                  {{"rollbacks", "rollback"}, {nullptr, nullptr}}};
  std::string dml;
  for (const auto& choices : kinds) {
    for (const auto& kind : choices) {
      const metrics::ServerCheckResult::Reading* found = nullptr;
      for (const auto& reading : r.server_check.server_counters) {
        if (kind.meaning != nullptr && reading.meaning == kind.meaning) found = &reading;
      }
      if (found == nullptr || r.measured_sec <= 0) continue;
      std::snprintf(line, sizeof line, "%s %s (%s) %.0f", dml.empty() ? "" : ",", kind.word,
                    found->name.c_str(), 60 * static_cast<double>(found->delta()) / r.measured_sec);
      dml += line;
      break;
    }
  }
  if (!dml.empty()) {
    out += "Server DML per minute (the server's counters over the measured window):" + dml + "\n";
  }
  return out;
}

}  // namespace sb::report
