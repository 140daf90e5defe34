// The run state machine shared by every workload:
//   connect (with ramp) → warm-up → measure → wind-down → (verify and report: the caller).
//
// Each worker thread owns its session (and through it its connection), its random stream and
// its Recorder; workers share nothing on the hot path. The runner thread wakes every interval,
// snapshots every recorder, appends a TimeSeries point and, every log_freq seconds, hands the
// DVD Store-style status figures to the caller. Stop conditions (duration, signal, every worker
// gone) live here and nowhere else.
#ifndef STOREBENCH_DRIVER_RUNNER_H_
#define STOREBENCH_DRIVER_RUNNER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "base/clock.h"
#include "driver/peer_group.h"
#include "metrics/live_totals.h"
#include "metrics/run_result.h"
#include "metrics/windows.h"
#include "storebench/db.h"
#include "storebench/workload.h"

namespace sb::driver {

struct RunOptions {
  int threads = 1;            // workers (DVD Store n_threads)
  double ramp_rate = 10;      // connections per second while connecting (DVD Store)
  int64_t warmup_nanos = 0;   // stats reset when it elapses
  int64_t run_nanos = 0;      // measured time after warm-up; 0 = until stopped
  double think_time_sec = 0;  // mean think time per unit, drawn as DVD Store does
  int64_t log_freq_sec = 10;  // seconds between status lines
  uint64_t seed = 1;          // run seed; each worker's streams derive from it
  int max_failures = 10;      // tries per database call before a worker gives up
  // > 0: each worker stops after this many units, and the run ends when all have stopped
  // (with one thread and a seed, a reproducible amount of work).
  int64_t units_per_thread = 0;
  int64_t units_total = 0;  // > 0: the instance's workers stop after this many units in all
  // Open loop when rate_per_sec > 0: units start on a schedule at this aggregate rate, and
  // latency is measured from the intended start (see pacer.h).
  double rate_per_sec = 0;
  bool poisson = false;                          // Poisson arrivals instead of constant spacing
  int64_t max_lag_nanos = 10 * kNanosPerSecond;  // open loop: stop when this far behind
  int64_t latency_limit_nanos = 0;               // > 0: count units slower than this ("late")
  int64_t stall_nanos = 0;                       // DbInstanceOptions::stall_nanos (0: automatic)
  int64_t connect_timeout_nanos = 60LL * 1000 * 1000 * 1000;
  // Reporting windows (from Start) and pass/fail rules on them.
  std::vector<metrics::WindowSpec> windows;
  std::vector<metrics::BaselineRule> baselines;
  // Steady-state thresholds over the measured window (see metrics/windows.h).
  double steady_max_slope_pct = 10;
  double steady_max_cv_pct = 25;
  // The server cross-check (driver/server_check.h): readings at the start and end of the
  // measured window. With a warm-up in the closed loop the workers pause between units for the
  // start reading, which ends before the measured window begins.
  bool server_check = false;
  // Per-operation log (empty path: off) and the fraction of units it samples.
  std::string op_log_path;
  double op_log_sampling = 1.0;
  // The system under test's CPU, sampled each second beside the run (driver/sut_cpu.h): the
  // local /proc/stat, or the output of `sut_cpu_cmd` when given.
  bool sut_cpu = false;
  std::string sut_cpu_cmd;
  // Set from a signal handler (or a test) to stop the run early; polled every 100 ms.
  const std::atomic<bool>* stop = nullptr;
  // Set from a signal handler when the user asks to stop at once (a third signal): the result is
  // built without the server cross-check's end reading, which can wait seconds for a server.
  const std::atomic<bool>* at_once = nullptr;
  // The other processes of a scaled-out run (driver/peer_group.h); null for one process.
  PeerGroup* peers = nullptr;
  // A run that finishes early still ends on a whole second (ControllerOptions::end_on_tick):
  // set when power is sampled beside it.
  bool end_on_tick = false;
};

struct RunCallbacks {
  // Every log_freq seconds during warm-up and measurement (the aggregate of a run of several
  // instances).
  std::function<void(const metrics::StatusFigures&)> on_status;
  // In a run of several instances, right after on_status: each instance's own figures.
  std::function<void(const std::string& instance, const metrics::StatusFigures&)>
      on_instance_status;
  // After every interval (1 s): the series so far (its last point is the new interval) and the
  // running figures since the warm-up reset. Runs on the runner thread; keep it short.
  std::function<void(const metrics::TimeSeries&, const metrics::StatusFigures&)> on_interval;
  // Right before on_interval: the interval's unit response times, the aggregate's instances
  // merged (a percentile of any interval, e.g. sysbench's interval line and final report).
  std::function<void(const metrics::Histogram&)> on_interval_units;
  // Right before on_interval, when set: every instance's totals since Start, in the order of the
  // specs (the live endpoint's counters and histograms; a copy of each histogram every second).
  std::function<void(std::vector<metrics::LiveTotals>)> on_live_totals;
  // Each worker thread as it starts (`connected` false) and once connected (true), from the
  // worker's own thread: its number over the whole run (DVD Store 3's: with every instance
  // given the same threads, thread t drives instance t mod n) and its instance's target.
  std::function<void(int64_t thread, const std::string& target, bool connected)> on_thread;
  // Lines for the user's console: thread messages, "Stats reset", ...
  std::function<void(const std::string&)> on_message;
  // Every worker of every instance connected, just before Start (DVD Store's "Controller
  // (<date>): all threads connected - issuing Start"); without it, on_message gets that line
  // without the date.
  std::function<void()> on_start;
  // Phase changes, on the controller thread, for whoever marks them elsewhere (a power
  // analyzer's log): "warmup" or "measure" at Start, "measure" at the warm-up reset, "window
  // <label> start" / "window <label> end". Keep it short (it must not block).
  std::function<void(const std::string& mark)> on_phase;
  // Asked every second on the controller thread: an output written during the run outside the
  // runner (a status CSV) that failed. An error ends the run as an op log's failed write does.
  std::function<Status()> output_error;
};

// What a run produced, for the caller to verify and report.
struct RunOutcome {
  // Non-OK: the run could not start, every worker failed, or the open loop fell behind by more
  // than max_lag (the result still holds what was measured).
  Status status;
  // workload, latency, counters, errors, series, figures, cpu; with several instances their
  // exact aggregate, and each instance's own result in result.instances.
  metrics::RunResult result;
  workload::Totals whole_run;  // client totals over the whole run, wind-down included
  std::vector<workload::Totals> instance_whole_run;  // the same per instance
  // The run's instants on the runner's clock (nanos): Start, the warm-up reset, the last sample;
  // for measurements taken beside the run on the same clock (power).
  int64_t t0 = 0, reset_at = 0, end_at = 0;
};

// One database instance of a run: a workload against a database, with its own options (threads,
// think time, rate, seed, server check, op log). Every instance of a run has the same workload
// shape (the same workload, possibly with different options).
struct DbInstanceSpec {
  std::string name;    // "1", "ds3_2"
  std::string target;  // the database URL, without secrets (for the result)
  workload::Workload* workload = nullptr;
  db::DbBackend* backend = nullptr;
  RunOptions options;
};

class Runner {
 public:
  explicit Runner(Clock& clock) : clock_(clock) {}
  Runner(workload::Workload& workload, db::DbBackend& backend, Clock& clock)
      : workload_(&workload), backend_(&backend), clock_(clock) {}

  // Runs the one instance given to the constructor to the end. REQUIRES: CheckReady() succeeded.
  RunOutcome Run(const RunOptions& options, const RunCallbacks& callbacks);
  // Runs several instances together: common phases (warm-up, run time, windows, baselines,
  // log_freq, stop, connect timeout, steady-state thresholds) from `common`, the rest from each
  // instance's options. Every baseline is judged per instance; the aggregate's verdict is theirs
  // combined (all must pass).
  RunOutcome RunMany(const std::vector<DbInstanceSpec>& instances, const RunOptions& common,
                     const RunCallbacks& callbacks);

 private:
  workload::Workload* workload_ = nullptr;
  db::DbBackend* backend_ = nullptr;
  Clock& clock_;
};

// The think time DVD Store sleeps after each order: Next(2·⌊1000·think⌋) ms, i.e.
// U[0, 2T−1] ms with mean ≈ T; 0 when think_time is 0.
int64_t DrawThinkTimeNanos(Random& rng, double think_time_sec);

}  // namespace sb::driver

#endif  // STOREBENCH_DRIVER_RUNNER_H_
