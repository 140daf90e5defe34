// A database run as a request and its data: every instance of `oltp run`, DVD Store 3's target
// list, `run --plan` or a run of `consolidate`, run together under one controller
// (driver::Runner::RunMany), then described and verified. Nothing is printed and nothing exits:
// what happens while it runs goes to a RunReporter, the caller turns the outcome into console
// lines, files and an exit code.
#ifndef STOREBENCH_INCLUDE_STOREBENCH_SESSION_H_
#define STOREBENCH_INCLUDE_STOREBENCH_SESSION_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/clock.h"
#include "config/options.h"
#include "dist/group.h"
#include "driver/runner.h"
#include "metrics/live_totals.h"
#include "metrics/run_result.h"
#include "power/sampler.h"
#include "session/db_instances.h"
#include "storebench/status.h"
#include "storebench/workload.h"

namespace sb::session {

// What to run. `setups` are opened and checked (PrepareDatabase); `common` holds the options of
// the run as a whole (phases, windows, baselines, outputs), in practice the first instance's.
struct RunRequest {
  std::vector<DbSetup>* setups = nullptr;
  const config::OptionSet* common = nullptr;
  // Set by signal handlers: a graceful stop, and a stop at once (verification skipped).
  const std::atomic<bool>* stop = nullptr;
  const std::atomic<bool>* at_once = nullptr;
  // Under mpirun: the ranks (this rank runs its share, docs/scale-out.md); nullptr otherwise.
  dist::Group* group = nullptr;
  // Opens the power sources the options name (nullptr: none) on the run's clock. Called on the
  // rank that speaks only, before anything else is reported; an error ends the request.
  std::function<Result<std::unique_ptr<power::PowerSampler>>(Clock&)> open_power;
};

// What the run tells while it runs, in the order it happens. The console, a status CSV and a
// metrics endpoint are reporters' business; the run only calls.
class RunReporter {
 public:
  virtual ~RunReporter() = default;
  // The run is about to connect: options read, power open. `speaks`: this process writes the
  // run's outputs (false on ranks other than 0). An error ends the request before any work.
  virtual Status Begin(const std::vector<driver::DbInstanceSpec>& specs,
                       const driver::RunOptions& options, bool speaks) = 0;
  // A worker's message (errors, retries, reconnects).
  virtual void OnMessage(const std::string& line) = 0;
  // A worker thread started (`connected` false) or connected (true), on its own thread:
  // its number over the run and its instance's target (driver::RunCallbacks::on_thread).
  virtual void OnThread(int64_t /*thread*/, const std::string& /*target*/, bool /*connected*/) {}
  // Every worker connected; the run starts.
  virtual void OnStart() = 0;
  // The whole run's status figures, and one instance's (when several), every --log_freq.
  virtual void OnStatus(const metrics::StatusFigures& f) = 0;
  virtual void OnInstanceStatus(const std::string& name, const metrics::StatusFigures& f) = 0;
  // Each second's unit latencies, when the reporter wants them (they cost a merge each second).
  virtual bool WantsIntervalUnits() const { return false; }
  virtual void OnIntervalUnits(const metrics::Histogram&) {}
  // Each second, when the reporter wants them: every instance's totals since Start (the metrics
  // endpoint's counters and histograms), in the order of the setups.
  virtual bool WantsLiveTotals() const { return false; }
  virtual void OnLiveTotals(std::vector<metrics::LiveTotals> /*totals*/) {}
  // Each second: the series so far and the running figures.
  virtual void OnInterval(const metrics::TimeSeries& series,
                          const metrics::StatusFigures& running) = 0;
  // Asked every second: an output the reporter writes during the run (a status CSV) that could
  // not be written (a full disk). An error ends the run at once and is its run_status.
  virtual Status OutputError() const { return Status::Ok(); }
};

// What a run gives back beside its result: what the caller needs to speak and to decide.
struct RunOutcome {
  metrics::RunResult result;  // described and verified (on the rank that speaks)
  bool speaks = true;         // false: another rank reports this run
  bool complete = true;       // false: a rank was lost (`lost` says which)
  std::string lost;
  bool stopped_at_once = false;  // a signal asked to stop at once: verification skipped
  Status run_status;             // the run's own failure, with figures to report
  workload::Totals whole_run;    // client totals over the whole run (DVD Store's last line)
  std::vector<workload::Totals> instance_whole_run;  // the same per instance
};

// Runs every instance of `request` together. Errors before any figure was measured (options,
// ranks, power, the reporter's Begin, a run that could not start) are returned as such.
Result<RunOutcome> RunDatabases(const RunRequest& request, RunReporter& reporter);

// The driver's words for how the instance's load was offered (closed or open loop, terminals).
std::string LoopModel(const driver::RunOptions& r, const workload::Workload& wl);

}  // namespace sb::session

#endif  // STOREBENCH_INCLUDE_STOREBENCH_SESSION_H_
