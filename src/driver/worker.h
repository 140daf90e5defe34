// One worker of a run: its session, recorder, random streams and the loop that paces, runs and
// records units of work. Internal to driver/ (the Runner owns the workers).
#ifndef STOREBENCH_DRIVER_WORKER_H_
#define STOREBENCH_DRIVER_WORKER_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "base/clock.h"
#include "base/random.h"
#include "driver/instance.h"
#include "driver/op_log.h"
#include "driver/pacer.h"
#include "metrics/recorder.h"
#include "storebench/workload.h"

namespace sb::driver {

constexpr int kLastN = 100;        // DVD Store's rt_tot_lastn window
constexpr int kNumCategories = 8;  // ErrorCategory values, kNone included
// A worker that lost its connection tries again after 100 ms, doubling the wait up to this cap
// (docs/measurement.md). A try costs a refused connection while the server is away, so a
// short cap costs the server little, and it bounds the idle time a run reports after the
// server is back: with a 5-s cap, up to 5 s of "seconds without units" were the client's.
constexpr int64_t kReconnectFirstNanos = 100'000'000;
constexpr int64_t kReconnectCapNanos = 1'000'000'000;

// Where the driver's own series live in every recorder, after the workload's.
struct Layout {
  int steps = 0;  // workload step types (recorder types 1..steps)
  int workload_counters = 0;
  int rollback_counter = -1;  // the workload's rollback counter, for the op log's outcome
  std::string unit_name;
  // Shape::unit_named_by_step: the op_log names a unit by its first step's type.
  bool unit_named_by_step = false;
  std::vector<std::string> step_names;
  int lag_type() const { return 1 + steps; }  // schedule lag (open loop)
  int num_types() const { return 2 + steps; }
  int ErrorIndex(ErrorCategory c) const { return workload_counters + static_cast<int>(c); }
  int retries() const { return workload_counters + kNumCategories; }
  int late() const { return workload_counters + kNumCategories + 1; }  // over latency_limit
  int reconnects() const { return workload_counters + kNumCategories + 2; }
  int num_counters() const { return workload_counters + kNumCategories + 3; }
};

// Stops and limits that every worker loop checks.
struct LoopLimits {
  int64_t max_lag_nanos = 10 * kNanosPerSecond;  // open loop: stop when this far behind
  int64_t latency_limit_nanos = 0;               // > 0: count units slower than this
  int max_failures = 10;                         // tries per database call
  OpLog* op_log = nullptr;                       // when set, log a sample of units
  double op_log_sampling = 1.0;                  // fraction of units logged
  int64_t t0 = 0;                                // Start, the op log's time origin
  int64_t max_units = 0;                         // > 0: stop after this many units
  // When set, the units the workers may still start together (sysbench's --events): a worker
  // takes one before each unit and stops when none is left.
  std::atomic<int64_t>* units_left = nullptr;
  // When set and true, workers pause between units (closed loop only: before a unit, after its
  // think time) and report it in Worker::held, so the runner can read the database with no
  // unit in flight.
  const std::atomic<bool>* hold = nullptr;
};

enum class WorkerState { kStarting, kConnected, kDone, kFailed, kLagExceeded };

struct Worker {
  Worker(int idx, const Layout& layout, uint64_t seed);

  // The completion time and response time of this worker's last kLastN units. Written by the
  // worker, read by the runner; a torn pair only shifts which of two recent units is counted.
  // Inline: called for every unit (docs/driver-cost.md).
  void PushLast(int64_t completed, int64_t rt) {
    last_completed[last_slot].store(completed, std::memory_order_relaxed);
    last_rt[last_slot].store(rt, std::memory_order_relaxed);
    if (++last_slot == kLastN) last_slot = 0;  // no division per unit
    last_pos.store(last_pos.load(std::memory_order_relaxed) + 1, std::memory_order_release);
  }

  int index;
  // A background worker (Workload::background_workers()): its session's calls record steps and
  // counters but are not units.
  bool background = false;
  metrics::Recorder recorder;
  Random retry_rng;
  Random ramp_rng;
  Random op_log_rng;
  std::unique_ptr<workload::Session> session;
  // Opens a new connection and session for this worker (after a lost connection).
  std::function<Result<std::unique_ptr<workload::Session>>()> reconnect;
  std::unique_ptr<Pacer> pacer;
  std::atomic<WorkerState> state{WorkerState::kStarting};
  Status error;              // written by the worker before state becomes kFailed
  int64_t max_lag_seen = 0;  // written before state becomes kLagExceeded
  std::array<std::atomic<int64_t>, kLastN> last_completed{};
  std::array<std::atomic<int64_t>, kLastN> last_rt{};
  std::atomic<uint64_t> last_pos{0};  // units pushed
  // The clock instant this worker's first unit completed (0: none yet); per instance the
  // earliest is its `first_unit_at`, which shows how far apart instances really began.
  std::atomic<int64_t> first_completed{0};
  int last_slot = 0;                  // the slot of the next push (the worker's own)
  std::atomic<bool> held{false};      // paused on LoopLimits::hold
  // The watchdog's view (DbInstance::InterruptStalled): the clock instant the unit in flight
  // began (0 between units), whether the thread has returned, and the current connection's
  // Connection::Interrupter, replaced on every reconnect (under interrupt_mu).
  std::atomic<int64_t> unit_since{0};
  std::atomic<bool> returned{false};
  std::atomic<int64_t> returned_at{0};  // the clock instant it returned (0: not yet)
  // The clock instant a call of its last failed with a server's error (a deadlock found, a
  // duplicate key): the server answered, though no unit completed (0: none yet).
  std::atomic<int64_t> last_failed_call{0};
  std::atomic<int> stalls{0};  // units the watchdog ended
  std::mutex interrupt_mu;
  std::function<void()> interrupt;
  void SetInterrupt(std::function<void()> f) {
    std::lock_guard<std::mutex> lock(interrupt_mu);
    interrupt = std::move(f);
  }
  std::thread thread;
};

// Runs units on `w` until the run ends (signals.Ended()), the session fails, or (open loop) the
// schedule falls more than max_lag behind. Each unit: wait for the pacer's intended start, run it
// through an OpContext that times and retries its steps, then record the unit, its steps and
// counters together. Unit latency is the sum of its timed steps in the closed loop (DVD Store's
// rt_tot) and end − intended start in the open loop. `message` prints "Thread i: ..." lines.
void RunUnits(Worker& w, const Layout& layout, const LoopLimits& limits, Clock& clock,
              const RunSignals& signals, const std::function<void(const std::string&)>& message);

// Sleeps until `deadline` in slices, returning early once the run ends.
void NapUntil(Clock& clock, int64_t deadline, const RunSignals& signals);

}  // namespace sb::driver

#endif  // STOREBENCH_DRIVER_WORKER_H_
