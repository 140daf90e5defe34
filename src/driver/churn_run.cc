#include "driver/churn_run.h"

#include <memory>
#include <mutex>
#include <thread>

#include "base/random.h"
#include "driver/controller.h"
#include "driver/instance.h"
#include "metrics/recorder.h"
#include "workload/fs/churn_writer.h"

namespace sb::driver {
namespace {

// The churn workers' counters (no operation is timed: the figures are FIEMAP's).
enum ChurnCounter { kChurnOps, kChurnBytes, kChurnDeletes, kChurnErrors, kChurnCounters };

struct ChurnWorker {
  ChurnWorker(std::string dir, uint64_t budget, uint64_t seed)
      : writer(std::move(dir), budget, seed), recorder(0, kChurnCounters) {}
  fsload::ChurnWriter writer;
  metrics::Recorder recorder;
  std::string first_error;  // written by the worker before it ends
  std::thread thread;
};

class ChurnInstance final : public Instance {
 public:
  explicit ChurnInstance(const ChurnRunOptions& o) {
    for (int i = 0; i < o.writers; ++i) {
      workers_.push_back(std::make_unique<ChurnWorker>(
          o.dir + "/w" + std::to_string(i), o.max_bytes / static_cast<uint64_t>(o.writers),
          DeriveSeed(o.seed, {static_cast<uint64_t>(i)})));
    }
  }
  ~ChurnInstance() override { Join(); }

  const std::string& name() const override { return name_; }
  void Launch(RunSignals& signals) override {
    launched_ = true;
    for (auto& w : workers_) {
      w->thread = std::thread([&signals, wp = w.get()] { Work(*wp, signals); });
    }
  }
  Readiness Ready() const override {
    Readiness r;
    r.total = static_cast<int>(workers_.size());
    // Prepared before Launch, a writer has nothing to connect: it is ready once its thread runs,
    // and a thread that reaches the gate after Start passes it at once.
    r.ready = launched_ ? r.total : 0;
    return r;
  }
  std::vector<const metrics::Recorder*> Recorders() const override {
    std::vector<const metrics::Recorder*> r;
    for (const auto& w : workers_) r.push_back(&w->recorder);
    return r;
  }
  // The writers run until the run ends.
  Activity Check() const override { return {}; }
  void Join() override {
    for (auto& w : workers_) {
      if (w->thread.joinable()) w->thread.join();
    }
  }
  // Every writer's directory and buffer, before Launch (so the workers are ready at once, and a
  // directory that cannot be created is named before anything runs).
  Status Prepare() {
    for (auto& w : workers_) {
      if (Status s = w->writer.Prepare(); !s.ok()) return s;
    }
    return Status::Ok();
  }
  // After Join: the first worker's first write error, or "".
  std::string FirstError() const {
    for (const auto& w : workers_) {
      if (!w->first_error.empty()) return w->first_error;
    }
    return "";
  }

 private:
  static void Work(ChurnWorker& w, RunSignals& signals) {
    if (!signals.WaitForStart()) return;
    while (!signals.Ended()) {
      const fsload::ChurnStep step = w.writer.Step();
      w.recorder.BeginBatch();
      w.recorder.Add(kChurnOps);
      w.recorder.Add(kChurnBytes, static_cast<int64_t>(step.bytes_written));
      w.recorder.Add(kChurnDeletes, step.files_deleted);
      w.recorder.Add(kChurnErrors, step.errors);
      w.recorder.EndBatch();
      if (w.first_error.empty()) w.first_error = step.first_error;
    }
  }

  std::string name_ = "churn";
  bool launched_ = false;
  std::vector<std::unique_ptr<ChurnWorker>> workers_;
};

}  // namespace

Result<ChurnRunResult> RunChurn(Clock& clock, const ChurnRunOptions& o,
                                const std::function<void(const fsload::ChurnSample&)>& on_sample) {
  ChurnRunResult r;
  auto take = [&](double t_sec) {
    fsload::ChurnSample s = fsload::MeasureChurnDir(o.dir, o.fs);
    s.t_sec = t_sec;
    r.samples.push_back(s);
    if (on_sample) on_sample(s);
  };
  // The writers' directories first: one that cannot be created ends the run before the volume's
  // free-space map is read (GETFSMAP over a large volume takes a second).
  ChurnInstance instance(o);
  if (Status s = instance.Prepare(); !s.ok()) return s;
  take(0);
  ControllerOptions co;
  co.run_nanos = o.duration_nanos;
  co.tick_nanos = o.sample_nanos;
  co.stop = o.stop;
  co.system_cpu = false;
  ControllerCallbacks cb;
  cb.on_start = [&] { r.started_at = WallClockIsoUtc(); };
  // The volume is measured at every interval while the writers run; the run's last sample is
  // taken after they stopped (below).
  cb.on_sample = [&](const Sample& s) {
    if (!s.finished) take(s.t_sec);
  };
  Controller controller(clock, co);
  const ControllerOutcome out = controller.Run({&instance}, cb);
  if (!out.status.ok()) return out.status;
  take(static_cast<double>(clock.NowNanos() - out.t0) / 1e9);
  const std::vector<int64_t>& c = out.after_join.at(0).counters;
  r.operations = static_cast<uint64_t>(c[kChurnOps]);
  r.bytes_written = static_cast<uint64_t>(c[kChurnBytes]);
  r.files_deleted = static_cast<uint64_t>(c[kChurnDeletes]);
  r.write_errors = static_cast<uint64_t>(c[kChurnErrors]);
  r.first_error = instance.FirstError();
  r.interrupted = o.stop != nullptr && o.stop->load(std::memory_order_relaxed);
  return r;
}

}  // namespace sb::driver
