#include "report/console/instances_console.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "report/console/dvdstore_console.h"
#include "report/console/numbers.h"

namespace sb::report {

namespace {

using numbers::Amount;
using numbers::Ms;

// The headline columns: the aggregate's headlines by name, or its one headline.
std::vector<std::string> HeadlineNames(const metrics::RunResult& r) {
  std::vector<std::string> names;
  for (const auto& [name, value] : r.headlines) names.push_back(name);
  if (names.empty() && !r.headline_name.empty()) names.push_back(r.headline_name);
  return names;
}

std::string HeadlineCell(const metrics::RunResult& r, const std::string& name) {
  for (const auto& [n, value] : r.headlines) {
    if (n == name) return Amount(value);
  }
  if (name == r.headline_name) return Amount(r.headline_value);
  return "-";
}

int64_t ErrorTotal(const metrics::RunResult& r) {
  int64_t total = 0;
  for (const auto& [category, n] : r.errors) total += n;
  return total;
}

// -1: no check ran; 0: some check failed; 1: every check passed.
int VerifyState(const std::vector<metrics::RunResult::Check>& checks) {
  if (checks.empty()) return -1;
  for (const auto& c : checks) {
    if (!c.passed) return 0;
  }
  return 1;
}

std::string VerifyCell(int state) { return state < 0 ? "-" : state == 0 ? "fail" : "pass"; }

// The aggregate's verification: its own checks and every instance's.
int AggregateVerifyState(const metrics::RunResult& r) {
  int state = VerifyState(r.verify);
  for (const auto& one : r.instances) {
    const int s = VerifyState(one.verify);
    if (s == 0 || state == 0) {
      state = 0;
    } else {
      state = std::max(state, s);
    }
  }
  return state;
}

std::string BaselineCell(const metrics::RunResult& r, size_t b) {
  if (b >= r.baselines.size()) return "-";
  return std::string(r.baselines[b].passed ? "PASS " : "FAIL ") + Amount(r.baselines[b].measured);
}

// An upper bound (p99_ms<=40) is decided by the highest figure; a lower bound by the lowest.
bool IsUpperBound(const std::string& rule) {
  const std::string metric_and_op = rule.substr(0, rule.find('@'));
  return metric_and_op.find('<') != std::string::npos;
}

std::string CombinedBaselineLine(const metrics::RunResult& r, size_t b) {
  const metrics::BaselineResult& x = r.baselines[b];
  int passed = 0;
  for (const auto& one : r.instances) {
    if (b < one.baselines.size() && one.baselines[b].passed) ++passed;
  }
  std::string line = "  baseline " + x.rule + " (" + x.kind + "): " + (x.passed ? "PASS" : "FAIL") +
                     ", " + (IsUpperBound(x.rule) ? "highest " : "lowest ") + Amount(x.measured);
  if (!x.decided_by.empty()) line += " (instance " + x.decided_by + ")";
  line += ", " + std::to_string(passed) + " of " + std::to_string(r.instances.size()) +
          " instances passed";
  return line + "\n";
}

std::string Pad(const std::string& s, size_t width, bool left) {
  if (s.size() >= width) return s;
  const std::string fill(width - s.size(), ' ');
  return left ? s + fill : fill + s;
}

std::string TrimRight(std::string s) {
  s.erase(s.find_last_not_of(' ') + 1);
  return s;
}

}  // namespace

std::string FormatInstanceTable(const metrics::RunResult& r) {
  if (r.instances.empty()) return "";
  const std::string unit = r.type_names.empty() ? "unit" : r.type_names[0];
  const std::vector<std::string> headlines = HeadlineNames(r);

  std::vector<std::string> header = {"instance", "target"};
  std::vector<bool> left = {true, true};
  for (const auto& name : headlines) {
    header.push_back(name);
    left.push_back(false);
  }
  for (const char* column : {" p50 ms", " p99 ms"}) {
    header.push_back(unit + column);
    left.push_back(false);
  }
  header.push_back("errors");
  left.push_back(false);
  header.push_back("verify");
  left.push_back(true);
  for (const auto& b : r.baselines) {
    header.push_back(b.rule);
    left.push_back(false);
  }

  auto row = [&](const metrics::RunResult& x, const std::string& name, const std::string& target,
                 int verify) {
    std::vector<std::string> cells = {name, target};
    for (const auto& h : headlines) cells.push_back(HeadlineCell(x, h));
    const metrics::LatencySummary s = x.latency.empty() ? metrics::LatencySummary{} : x.latency[0];
    cells.push_back(Ms(s.p50_ms));
    cells.push_back(Ms(s.p99_ms));
    cells.push_back(std::to_string(ErrorTotal(x)));
    cells.push_back(VerifyCell(verify));
    for (size_t b = 0; b < r.baselines.size(); ++b) cells.push_back(BaselineCell(x, b));
    return cells;
  };
  std::vector<std::vector<std::string>> rows = {header};
  for (const auto& one : r.instances) {
    rows.push_back(row(one, one.name, one.target, VerifyState(one.verify)));
  }
  rows.push_back(row(r, "aggregate", "", AggregateVerifyState(r)));

  std::vector<size_t> width(header.size(), 0);
  for (const auto& cells : rows) {
    for (size_t c = 0; c < cells.size(); ++c) width[c] = std::max(width[c], cells[c].size());
  }
  std::string out = "  instances (" + std::to_string(r.instances.size()) +
                    "; measured window, errors over the whole run):\n";
  for (const auto& cells : rows) {
    std::string line;
    for (size_t c = 0; c < cells.size(); ++c) line += "  " + Pad(cells[c], width[c], left[c]);
    out += TrimRight(line) + "\n";
  }
  for (size_t b = 0; b < r.baselines.size(); ++b) out += CombinedBaselineLine(r, b);
  return out;
}

std::string FormatInstanceStatusLine(const std::string& instance, const metrics::StatusFigures& f,
                                     const std::string& prefix) {
  return "[" + instance + "] " + FormatStatusLine(f, prefix);
}

}  // namespace sb::report
