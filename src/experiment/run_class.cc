#include "experiment/run_class.h"

#include <string>
#include <vector>

namespace sb::experiment {
namespace {

// Errors the driver retries as lock conflicts (driver/worker.cc backs off after them): a loaded
// server's own.
bool IsContention(const std::string& category) {
  return category == "deadlock" || category == "serialization" || category == "timeout";
}

std::string Count(int64_t n, const std::string& what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

// The signs of a fault in one instance's result (or a run of one instance), in words: "instance
// ds3_2: 3 reconnects, 1 failed worker"; "" for none.
std::string FaultSigns(const metrics::RunResult& r) {
  std::vector<std::string> signs;
  if (auto it = r.counters.find("reconnects"); it != r.counters.end() && it->second > 0) {
    signs.push_back(Count(it->second, "reconnect"));
  }
  for (const auto& [category, n] : r.errors) {
    if (n > 0 && !IsContention(category)) signs.push_back(Count(n, category + " error"));
  }
  if (r.workers_failed > 0) signs.push_back(Count(r.workers_failed, "failed worker"));
  if (r.workers_stalled > 0) signs.push_back(Count(r.workers_stalled, "stalled worker"));
  if (r.measured_sec > 0 && (r.latency.empty() || r.latency[0].count == 0)) {
    signs.push_back("no unit completed in the measured window");
  }
  for (const metrics::RunResult::Check& c : r.verify) {
    if (!c.passed) signs.push_back("verification '" + c.name + "' failed");
  }
  std::string out;
  for (const std::string& s : signs) out += (out.empty() ? "" : ", ") + s;
  if (!out.empty() && !r.name.empty()) out = "instance " + r.name + ": " + out;
  return out;
}

}  // namespace

RunClass ClassifyRun(const RunReport& run, bool passed) {
  if (run.outcome == RunOutcome::kNotStarted) {
    return {kClassNoStart,
            run.error.empty() ? "the run did not start (exit " + std::to_string(run.exit_code) + ")"
                              : run.error};
  }
  if (passed) return {kClassPassed, ""};
  const metrics::RunResult& r = run.result;
  std::string reason;
  if (r.instances.empty()) {
    reason = FaultSigns(r);
  } else {
    // The aggregate's counts and checks are the instances' (its verify names their checks).
    for (const metrics::RunResult& in : r.instances) {
      const std::string signs = FaultSigns(in);
      if (!signs.empty()) reason += (reason.empty() ? "" : "; ") + signs;
    }
  }
  if (!reason.empty()) return {kClassFault, reason};
  for (const metrics::BaselineResult& b : r.baselines) {
    if (!b.passed) {
      std::string reason = "baseline missed: " + (b.words.empty() ? b.rule : b.words);
      if (!b.decided_by.empty()) reason += " (decided by " + b.decided_by + ")";
      return {kClassCapacity, reason};
    }
  }
  // Every baseline met and no sign of a fault, yet the run failed (its exit code says so).
  return {kClassFault,
          "the run failed (exit " + std::to_string(run.exit_code) + ") with every baseline met"};
}

}  // namespace sb::experiment
