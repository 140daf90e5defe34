// An instance of a run: one workload with its options against one target (a database or a set
// of storage targets), with its own worker threads and recorders. The Controller
// (driver/controller.h) drives any number of instances through common phases; an instance only
// runs its workers and hands out snapshots of their recorders.
//
// Thread model: the controller thread calls every method; the instance's workers run on threads
// the instance owns between Launch() and Join().
#ifndef STOREBENCH_DRIVER_INSTANCE_H_
#define STOREBENCH_DRIVER_INSTANCE_H_

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "base/clock.h"
#include "metrics/recorder.h"
#include "storebench/status.h"

namespace sb::driver {

// How long a waiting loop (controller, workers, I/O reaping) sleeps at most before it looks at the
// run's signals again: a stop is seen within this much even when nothing else wakes the loop.
inline constexpr int64_t kPollNanos = 100 * kNanosPerMilli;

// The run's common signals, owned by the controller and read by every worker.
//   gate: 0 while the workers wait for Start, 1 after Start, 2 after the end. Workers wait on it
//         with std::atomic::wait (no polling: a thousand waiting workers cost nothing).
//   stop: set by a signal handler; workers read it themselves, so a stop is seen within one unit
//         of work even when the controller thread gets no CPU (many busy workers on few cores).
struct RunSignals {
  static constexpr int kWaiting = 0, kStarted = 1, kEnded = 2;
  std::atomic<int> gate{kWaiting};
  const std::atomic<bool>* stop = nullptr;
  bool Ended() const {
    return gate.load(std::memory_order_relaxed) == kEnded ||
           (stop != nullptr && stop->load(std::memory_order_relaxed));
  }
  // Blocks until Start or the end. Returns true when the run started.
  bool WaitForStart() const {
    gate.wait(kWaiting, std::memory_order_acquire);
    return gate.load(std::memory_order_acquire) == kStarted;
  }
};

// Why the controller wants a snapshot: instances that keep more than the merged figures (storage
// keeps each worker's counts for Iometer's per-worker rows) copy them at the reset and at the end.
enum class SnapshotPoint { kTick, kReset, kEnd };

struct Readiness {
  int ready = 0;   // workers connected / opened and waiting for Start
  int failed = 0;  // workers that could not start
  int total = 0;
  Status first_error;  // the first failed worker's error, with the worker named
};

struct Activity {
  // Every worker has ended (done with its units, or failed): the instance does no more work.
  bool finished = false;
  // Every worker failed: the instance is finished on errors.
  bool all_failed = false;
  // With all_failed: the error that ended the first of them (what the run's warning quotes).
  Status first_error;
  // An open-loop worker fell too far behind its schedule: the run must stop.
  bool lagging = false;
};

class Instance {
 public:
  virtual ~Instance() = default;
  // A short name for messages and results ("1", "ds3_2", ...).
  virtual const std::string& name() const = 0;
  // Starts the worker threads. Each connects or opens its target, then waits on
  // signals.WaitForStart(). `signals` outlives Join().
  virtual void Launch(RunSignals& signals) = 0;
  virtual Readiness Ready() const = 0;
  // Called once just before Start, with the run's time origin.
  virtual void OnStart(int64_t t0) {}
  // Every worker's recorder, in a fixed order (valid from construction to destruction). The
  // controller snapshots the recorders of all instances together (metrics::Recorder::
  // SnapshotMany) and merges each instance's.
  virtual std::vector<const metrics::Recorder*> Recorders() const = 0;
  // The per-worker snapshots of Recorders() taken at the reset and at the end, for instances
  // that report per worker (storage: Iometer's per-worker rows). `per_worker` is parallel to
  // Recorders().
  virtual void KeepSnapshots(SnapshotPoint point,
                             const std::vector<metrics::RecorderSnapshot>& per_worker) {}
  virtual Activity Check() const = 0;
  // At the end of warm-up, before the reset snapshot. An instance that needs the database
  // quiet for a reading (the server cross-check) pauses its workers and reads; it returns true
  // when it paused, so the controller takes the reset snapshot afterwards, once every instance
  // has read, and then calls AfterReset. Holding until then keeps an instance's reading and its
  // part of the reset snapshot at the same point of its work.
  virtual bool OnWarmupEnd() { return false; }
  // After the reset snapshot: resume what OnWarmupEnd paused.
  virtual void AfterReset() {}
  // The watchdog (docs/measurement.md#stalled-workers), called at every sample and, once the
  // run has `ended`, until every worker has returned: makes every unit in flight for longer
  // than the instance's stall timeout (after the end, once its server has answered nothing
  // for a shorter grace: every unit older than that grace) at `now` return at
  // once by interrupting its connection (db::Connection::Interrupter), and counts its worker
  // as stalled. Returns how many units it ended. Instances whose workers never wait on a
  // server end none.
  virtual int InterruptStalled(int64_t now, bool ended) { return 0; }
  // Whether every worker thread has returned (Join would not wait).
  virtual bool Returned() const { return true; }
  // Waits for every worker thread (after the gate has ended).
  virtual void Join() = 0;
};

}  // namespace sb::driver

#endif  // STOREBENCH_DRIVER_INSTANCE_H_
