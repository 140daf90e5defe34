// A database instance: one workload against one database, with `threads` workers, each owning
// its session (and connection), random streams and recorder (driver/worker.h).
#ifndef STOREBENCH_DRIVER_DB_INSTANCE_H_
#define STOREBENCH_DRIVER_DB_INSTANCE_H_

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/clock.h"
#include "driver/instance.h"
#include "driver/terminals.h"
#include "driver/worker.h"
#include "metrics/run_result.h"
#include "storebench/db.h"
#include "storebench/workload.h"

namespace sb::driver {

struct DbInstanceOptions {
  int threads = 1;
  double ramp_rate = 10;      // connections per second while connecting (DVD Store)
  uint64_t seed = 1;          // the instance's seed; every worker's streams derive from it
  double think_time_sec = 0;  // closed loop
  double rate_per_sec = 0;    // > 0: open loop at this rate over the instance's workers
  bool poisson = false;
  int64_t units_total = 0;  // > 0: every worker together starts at most this many units
  // A unit in flight longer than this is stalled: its connection is interrupted (0: a multiple
  // of the recent response times, DbInstance::StallNanos, and only on a back end with a server).
  int64_t stall_nanos = 0;
  LoopLimits limits;        // t0, hold and units_left are set by the instance
};

class DbInstance final : public Instance {
 public:
  // The automatic stall timeout (docs/measurement.md#stalled-workers): 100 times the longest
  // response time of the last 100 units, never below 10 s, so that a slow server is not
  // taken for a frozen one and a frozen one is found within seconds of a fast run.
  static constexpr int64_t kStallFactor = 100;
  static constexpr int64_t kMinStallNanos = 10 * kNanosPerSecond;
  // After the end, at least this long without any answer before the units in flight are
  // ended: longer than a lock wait the server ends by itself (PostgreSQL's deadlock_timeout is
  // 1 s), so a run that ends amid a deadlock is not taken for one on a frozen server.
  static constexpr int64_t kMinEndGraceNanos = 5 * kNanosPerSecond;

  DbInstance(std::string name, workload::Workload& workload, db::DbBackend& backend, Clock& clock,
             DbInstanceOptions options, std::function<void(const std::string&)> message);
  ~DbInstance() override;

  const std::string& name() const override { return name_; }
  void Launch(RunSignals& signals) override;
  Readiness Ready() const override;
  void OnStart(int64_t t0) override { options_.limits.t0 = t0; }
  std::vector<const metrics::Recorder*> Recorders() const override;
  Activity Check() const override;
  bool OnWarmupEnd() override;
  void AfterReset() override;
  void KeepSnapshots(SnapshotPoint point,
                     const std::vector<metrics::RecorderSnapshot>& per_worker) override;
  // Each worker's units and busy time between the reset and the end snapshots.
  std::vector<metrics::ThreadShare> ThreadShares() const;
  int InterruptStalled(int64_t now, bool ended) override;
  // The stall timeout: DbInstanceOptions::stall_nanos, or when that is 0, kStallFactor times
  // the longest of the last units, at least kMinStallNanos.
  int64_t StallNanos() const;
  // How long the server may leave every unit unanswered after the run's end before the units
  // in flight are ended (InterruptStalled): twice the longest of the last units, at least
  // kMinEndGraceNanos, at most StallNanos().
  int64_t EndGraceNanos() const;
  // The latest instant a worker's unit completed, a call failed with the server's error (it
  // answered) or a worker returned (0: none yet).
  int64_t LastAnswerNanos() const;
  bool Returned() const override;
  void Join() override;
  // Workers whose unit the watchdog ended at least once (InterruptStalled).
  int workers_stalled() const;

  // The reading to take with the workers paused at the end of warm-up (the server
  // cross-check's start); none by default. Runs on the controller thread.
  void set_warmup_reading(std::function<void()> reading) { warmup_reading_ = std::move(reading); }
  // Called by each worker thread as it starts (`connected` false) and once it is connected
  // (true), with its index, for DVD Store 3's "Thread N: created/connected" lines. Not for
  // background workers.
  void set_thread_event(std::function<void(int worker, bool connected)> event) {
    thread_event_ = std::move(event);
  }
  // Whether the workers were all paused for that reading (closed loop), and for how long.
  bool reading_exact() const { return reading_exact_; }
  double hold_ms() const { return hold_ms_; }

  const Layout& layout() const { return layout_; }
  const workload::Shape& shape() const { return workload_.shape(); }
  workload::Workload& workload() const { return workload_; }
  db::DbBackend& backend() const { return backend_; }
  int threads() const { return options_.threads; }
  // Units measured from an intended start: --rate, or terminals (driver/terminals.h).
  bool open_loop() const { return options_.rate_per_sec > 0 || workload_.terminals() > 0; }
  // DVD Store's rt_tot_lastn_max: the largest response time among the last 100 units that
  // completed at or after `since` (clock nanos).
  int64_t LastNMaxNanos(int64_t since) const;
  int workers_failed() const;
  // The clock instant the instance's first unit completed (the earliest of its workers'); 0
  // when none did.
  int64_t FirstUnitCompleted() const;
  // The largest schedule lag of a worker that fell too far behind (0 if none).
  int64_t max_lag_seen() const;
  // Closes every worker's session (after Join), so the server has their work counted.
  void CloseSessions();

 private:
  void WorkerMain(Worker& w, RunSignals& signals);
  void WorkerBody(Worker& w, RunSignals& signals);
  bool HoldWorkers();

  std::string name_;
  workload::Workload& workload_;
  db::DbBackend& backend_;
  Clock& clock_;
  DbInstanceOptions options_;
  std::function<void(const std::string&)> message_;
  Layout layout_;
  std::atomic<bool> hold_{false};
  std::atomic<int64_t> units_left_{0};
  // Per worker: units and their summed response time at the reset and at the end.
  std::vector<std::pair<uint64_t, int64_t>> units_at_reset_,
      units_at_end_;  // options_.units_total minus the units started
  // Specification-style driving: the terminals every worker serves, made once at Start.
  std::once_flag terminals_once_;
  std::shared_ptr<TerminalQueue> terminals_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::unique_ptr<Worker> idle_;  // only with no threads: the shape of empty snapshots
  std::function<void()> warmup_reading_;
  std::function<void(int, bool)> thread_event_;
  bool reading_exact_ = true;
  double hold_ms_ = 0;
  int64_t hold_from_ = -1;  // the workers are held since (clock nanos), until AfterReset
};

}  // namespace sb::driver

#endif  // STOREBENCH_DRIVER_DB_INSTANCE_H_
