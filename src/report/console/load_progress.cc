#include "report/console/load_progress.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace sb::report {

namespace {

// 1234567 -> "1,234,567": row counts of millions are read at a glance.
std::string Grouped(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

std::string Fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

bool AnyEstimate(const metrics::LoadSample& s) {
  return std::any_of(s.tables.begin(), s.tables.end(),
                     [](const metrics::TableProgress& t) { return t.expected_is_estimate; });
}

}  // namespace

std::string FormatEta(double seconds) {
  if (seconds < 0 || !std::isfinite(seconds)) return "?";
  const auto total = static_cast<int64_t>(std::llround(seconds));
  const int64_t h = total / 3600, m = total / 60 % 60, s = total % 60;
  char buf[48];
  if (h > 0) {
    std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", static_cast<long long>(h),
                  static_cast<long long>(m), static_cast<long long>(s));
  } else {
    std::snprintf(buf, sizeof buf, "%lld:%02lld", static_cast<long long>(m),
                  static_cast<long long>(s));
  }
  return buf;
}

std::string FormatIndexProgress(const metrics::LoadSample& s) {
  using State = metrics::IndexStepProgress::State;
  int done = 0;
  std::string running;
  for (const auto& step : s.index_steps) {
    if (step.state == State::kDone) ++done;
    if (step.state != State::kRunning) continue;
    if (!running.empty()) running += ", ";
    running += step.name + " (" + FormatEta(step.running_sec) + ")";
  }
  std::string line = "indexes: " + std::to_string(done) + " of " +
                     std::to_string(s.index_steps.size()) + " steps done, " +
                     FormatEta(s.index_elapsed_sec) + " elapsed, ETA " +
                     (s.eta_sec < 0 ? "?" : "~" + FormatEta(s.eta_sec));
  if (!running.empty()) line += " | building " + running;
  return line;
}

std::string FormatLoadProgress(const metrics::LoadSample& s) {
  if (s.index_phase) return FormatIndexProgress(s);
  const int64_t rows = s.rows();
  if (s.data_done) {
    const double secs = s.elapsed_sec > 0 ? s.elapsed_sec : 1;
    return "load: data in, " + Grouped(rows) + " rows in " + Fixed(s.elapsed_sec, 1) + " s (" +
           Grouped(std::llround(static_cast<double>(rows) / secs)) + " rows/s, " +
           Fixed(static_cast<double>(s.bytes()) / 1e6 / secs, 1) + " MB/s)";
  }
  std::string line = "load: " + Grouped(rows) + " rows";
  const int64_t expected = s.expected_rows();
  if (expected > 0) {
    line +=
        " of " + std::string(AnyEstimate(s) ? "~" : "") + Grouped(expected) + " (" +
        Fixed(std::min(100.0, 100.0 * static_cast<double>(rows) / static_cast<double>(expected)),
              1) +
        " %)";
  }
  line += ", " + Fixed(s.bytes_per_sec / 1e6, 1) + " MB/s, " +
          Grouped(std::llround(s.rows_per_sec)) + " rows/s, ETA " + FormatEta(s.eta_sec);
  std::string tables;
  for (const auto& t : s.tables) {
    if (!tables.empty()) tables += ", ";
    tables += t.name + " ";
    if (t.expected_rows > 0) {
      // An estimate can be passed before the table is done: hold it below 100 % until then.
      double pct = 100.0 * static_cast<double>(t.rows) / static_cast<double>(t.expected_rows);
      pct = std::min(pct, t.expected_is_estimate ? 99.0 : 100.0);
      tables += (t.expected_is_estimate ? "~" : "") + Fixed(std::floor(pct), 0) + " %";
    } else {
      tables += Grouped(t.rows);
    }
  }
  if (!tables.empty()) line += " | " + tables;
  return line;
}

}  // namespace sb::report
