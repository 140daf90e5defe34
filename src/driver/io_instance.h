// A storage instance: one access specification run by `workers` threads on a set of targets
// (Iometer's workers × targets), each worker with its own engine, cursor and recorder. See
// driver/io_runner.h for the submission and timing model.
#ifndef STOREBENCH_DRIVER_IO_INSTANCE_H_
#define STOREBENCH_DRIVER_IO_INSTANCE_H_

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "driver/instance.h"
#include "driver/io_run_config.h"
#include "metrics/recorder.h"
#include "storebench/io_engine.h"
#include "workload/storage/access_spec.h"

namespace sb::driver {

// Where a storage instance's figures live in its recorders: one type per target, spec line and
// direction (type = 2·(target·lines + line) + write), so bytes are count × the line's size,
// exactly consistent with the I/O counts in any snapshot; one error counter per target and
// direction.
struct IoLayout {
  int targets = 1, lines = 1;
  int Types() const { return 2 * targets * lines; }
  int Counters() const { return 2 * targets; }
  static int TypeOf(int target, int lines, int line, bool read) {
    return 2 * (target * lines + line) + (read ? 0 : 1);
  }
  static int ErrorCounter(int target, bool read) { return 2 * target + (read ? 0 : 1); }
};

struct IoWorker {
  IoWorker(int i, int types, int counters) : index(i), recorder(types, counters) {}
  int index;
  metrics::Recorder recorder;
  Status error;
  std::string first_io_error;  // written by the worker before it ends
  std::atomic<bool> ready{false}, failed{false};
  // Open loop: the worker fell more than max_lag behind its schedule and stopped.
  std::atomic<bool> lagging{false};
  // Open loop: the largest schedule lag (actual - scheduled submission), in nanoseconds;
  // written by the worker before it ends.
  int64_t max_lag = 0;
  std::thread thread;
};

class IoInstance final : public Instance {
 public:
  // `spec_index`: the specification's place in the run (its random streams derive from it).
  // `spec` and `config` must outlive the instance.
  IoInstance(std::string name, const io::EngineRegistry& engines, const storage::AccessSpec& spec,
             int spec_index, const IoRunConfig& config, Clock& clock);
  ~IoInstance() override;

  const std::string& name() const override { return name_; }
  void Launch(RunSignals& signals) override;
  Readiness Ready() const override;
  std::vector<const metrics::Recorder*> Recorders() const override;
  void KeepSnapshots(SnapshotPoint point,
                     const std::vector<metrics::RecorderSnapshot>& per_worker) override;
  void OnStart(int64_t t0) override { t0_ = t0; }
  Activity Check() const override;
  void Join() override;

  const IoLayout& layout() const { return layout_; }
  // Each worker's snapshot taken at the reset and at the end (Iometer's per-worker rows).
  const std::vector<metrics::RecorderSnapshot>& per_worker_at_reset() const { return at_reset_; }
  const std::vector<metrics::RecorderSnapshot>& per_worker_at_end() const { return at_end_; }
  // The first worker that ended on an error (after Join), or OK.
  Status FirstFailure() const;
  // The reason of the first failed I/O, or "".
  std::string FirstIoError() const;
  // Open loop: the largest schedule lag of a worker that fell too far behind (0 if none).
  int64_t max_lag_seen() const;

 private:
  std::string name_;
  const io::EngineRegistry& engines_;
  const storage::AccessSpec& spec_;
  int spec_index_;
  const IoRunConfig& config_;
  Clock& clock_;
  IoLayout layout_;
  // The run's time origin (OnStart, before the start gate opens): the open loop's schedule
  // begins there.
  int64_t t0_ = 0;
  std::vector<std::unique_ptr<IoWorker>> workers_;
  std::vector<metrics::RecorderSnapshot> at_reset_, at_end_;
};

}  // namespace sb::driver

#endif  // STOREBENCH_DRIVER_IO_INSTANCE_H_
