#include "driver/controller.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>

namespace sb::driver {
namespace {

constexpr int64_t kConnectPollNanos = 10 * kNanosPerMilli;
// A window edge within this much after a sample counts as reached (ticks land a little late).
constexpr double kEdgeSlackSec = 0.05;

// Snapshots every instance's recorders together (held writers are waited for all at once) and
// merges each instance's into out[i].
class Snapshotter {
 public:
  Snapshotter(const std::vector<Instance*>& instances, PeerGroup* peers)
      : instances_(instances), peers_(peers) {
    for (Instance* in : instances) {
      const std::vector<const metrics::Recorder*> r = in->Recorders();
      first_.push_back(recorders_.size());
      recorders_.insert(recorders_.end(), r.begin(), r.end());
    }
    first_.push_back(recorders_.size());
  }
  void Take(SnapshotPoint point, std::vector<metrics::RecorderSnapshot>* out) {
    metrics::Recorder::SnapshotMany(recorders_, &per_worker_);
    out->resize(instances_.size());
    for (size_t i = 0; i < instances_.size(); ++i) {
      metrics::RecorderSnapshot& merged = (*out)[i];
      // Emptied in place: the histograms keep their memory for this second's merge (a fresh
      // snapshot allocated and freed every histogram's buckets every second).
      for (metrics::Histogram& h : merged.types) h.Clear();
      std::fill(merged.counters.begin(), merged.counters.end(), 0);
      for (size_t w = first_[i]; w < first_[i + 1]; ++w) merged.Merge(per_worker_[w]);
      if (point != SnapshotPoint::kTick) {
        instances_[i]->KeepSnapshots(
            point, std::vector<metrics::RecorderSnapshot>(per_worker_.begin() + first_[i],
                                                          per_worker_.begin() + first_[i + 1]));
      }
    }
    if (peers_ != nullptr) peers_->Merge(point, out);
  }

 private:
  const std::vector<Instance*>& instances_;
  PeerGroup* peers_;
  std::vector<const metrics::Recorder*> recorders_;
  std::vector<size_t> first_;  // instance i's recorders are [first_[i], first_[i + 1])
  std::vector<metrics::RecorderSnapshot> per_worker_;
};

// a − b into *d, reusing its memory.
void Difference(const std::vector<metrics::RecorderSnapshot>& a,
                const std::vector<metrics::RecorderSnapshot>& b,
                std::vector<metrics::RecorderSnapshot>* d) {
  *d = a;
  for (size_t i = 0; i < d->size(); ++i) (*d)[i].Subtract(b[i]);
}

// Raises the calling thread to SCHED_FIFO 1 for its lifetime, when permitted, and restores it.
class RealtimeScope {
 public:
  explicit RealtimeScope(bool wanted) {
    if (!wanted || pthread_getschedparam(pthread_self(), &policy_, &param_) != 0) return;
    sched_param rt{};
    rt.sched_priority = 1;
    raised_ = pthread_setschedparam(pthread_self(), SCHED_FIFO, &rt) == 0;
  }
  ~RealtimeScope() {
    if (raised_) pthread_setschedparam(pthread_self(), policy_, &param_);
  }
  bool raised() const { return raised_; }

 private:
  int policy_ = SCHED_OTHER;
  sched_param param_{};
  bool raised_ = false;
};

// Waits until every worker of every instance is ready: the first instance's error, a stop, or
// the connect timeout ends the wait.
Status WaitConnected(const std::vector<Instance*>& instances, Clock& clock,
                     const ControllerOptions& o) {
  auto stop_requested = [&] { return o.stop != nullptr && o.stop->load(); };
  const int64_t connect_deadline = clock.NowNanos() + o.connect_timeout_nanos;
  Status connected;
  for (;;) {
    int ready = 0, total = 0;
    for (Instance* in : instances) {
      const Readiness r = in->Ready();
      if (r.failed > 0) {
        connected = instances.size() == 1
                        ? r.first_error
                        : Status(r.first_error.code(),
                                 "instance " + in->name() + ": " + r.first_error.message());
        break;
      }
      ready += r.ready;
      total += r.total;
    }
    if (!connected.ok() || ready == total) break;
    if (stop_requested() || clock.NowNanos() > connect_deadline) {
      connected = stop_requested()
                      ? Status::Cancelled("stopped before all threads connected")
                      : Status::FailedPrecondition("only " + std::to_string(ready) + " of " +
                                                   std::to_string(total) +
                                                   " threads connected within the timeout");
      break;
    }
    clock.SleepFor(kConnectPollNanos);
  }
  return connected;
}

// The windows that begin at Start (0 s), from the snapshot taken before the workers began; their
// indexes, for the first sample to report.
std::vector<int> StartWindowsAtStart(
    int64_t t0, const std::vector<metrics::RecorderSnapshot>& at_start,
    std::vector<WindowMeasure>* windows,
    std::vector<std::vector<metrics::RecorderSnapshot>>* window_start) {
  std::vector<int> started_at_start;
  for (size_t w = 0; w < windows->size(); ++w) {
    WindowMeasure& m = (*windows)[w];
    if (m.spec.start_sec > 0) continue;
    m.started = true;
    m.start_at = t0;
    (*window_start)[w] = at_start;
    started_at_start.push_back(static_cast<int>(w));
  }
  return started_at_start;
}

// The windows whose start or end the sample at `now` reaches: their snapshots and deltas, and
// the sample's lists of started and ended windows.
void MarkWindowEdges(int64_t now, const std::vector<metrics::RecorderSnapshot>& now_snap, Sample* s,
                     std::vector<WindowMeasure>* windows,
                     std::vector<std::vector<metrics::RecorderSnapshot>>* window_start) {
  for (size_t w = 0; w < windows->size(); ++w) {
    WindowMeasure& m = (*windows)[w];
    if (!m.started && s->t_sec + kEdgeSlackSec >= m.spec.start_sec) {
      m.started = true;
      m.start_at = now;
      (*window_start)[w] = now_snap;
      s->windows_started.push_back(static_cast<int>(w));
    }
    if (m.started && !m.complete && s->t_sec + kEdgeSlackSec >= m.spec.end_sec) {
      m.complete = true;
      m.end_at = now;
      Difference(now_snap, (*window_start)[w], &m.delta);
      s->windows_ended.push_back(static_cast<int>(w));
    }
  }
}

// Windows still open when the run ended: they end with it.
void EndOpenWindows(const std::vector<std::vector<metrics::RecorderSnapshot>>& window_start,
                    ControllerOutcome* out) {
  for (size_t w = 0; w < out->windows.size(); ++w) {
    WindowMeasure& m = out->windows[w];
    if (m.started && !m.complete) {
      m.end_at = out->end_at;
      Difference(out->at_end, window_start[w], &m.delta);
    }
  }
}

// Tells every worker the run is over.
void EndGate(RunSignals* signals) {
  signals->gate.store(RunSignals::kEnded, std::memory_order_release);
  signals->gate.notify_all();
}

// Ends the run for the workers and waits until every one has returned. Workers stuck on a server
// that does not answer are interrupted (Instance::InterruptStalled), so the run ends at its end
// whatever a server does; returns how many units were interrupted so.
int EndAndJoin(const std::vector<Instance*>& instances, Clock& clock, RunSignals* signals) {
  EndGate(signals);
  int interrupted = 0;
  for (;;) {
    bool returned = true;
    for (Instance* in : instances) {
      if (in->Returned()) continue;
      returned = false;
      interrupted += in->InterruptStalled(clock.NowNanos(), /*ended=*/true);
    }
    if (returned) break;
    clock.SleepFor(kConnectPollNanos);
  }
  for (Instance* in : instances) in->Join();
  return interrupted;
}

// Whether the run ends before its next tick (Instance::Check): every instance has finished its
// work, or one has fallen too far behind its open loop's schedule.
bool EndsBeforeTick(const std::vector<Instance*>& instances) {
  bool all_finished = true;
  for (const Instance* in : instances) {
    const Activity a = in->Check();
    if (a.lagging) return true;
    all_finished = all_finished && a.finished;
  }
  return all_finished;
}

}  // namespace

ControllerOutcome Controller::Run(const std::vector<Instance*>& instances,
                                  const ControllerCallbacks& cb) {
  ControllerOutcome out;
  const ControllerOptions& o = options_;
  auto stop_requested = [&] { return o.stop != nullptr && o.stop->load(); };
  RunSignals signals;
  signals.stop = o.stop;
  auto end_gate = [&] { EndGate(&signals); };
  auto end_and_join = [&] { out.stalled_units += EndAndJoin(instances, clock_, &signals); };
  // Workers start on the normal policy (threads inherit it), then the controller is raised.
  const int64_t launched_at = clock_.NowNanos();
  for (Instance* in : instances) in->Launch(signals);
  RealtimeScope realtime(o.realtime);
  out.realtime = realtime.raised();

  // Connect phase: every worker of every instance ready, or give up.
  Status connected = WaitConnected(instances, clock_, o);
  // With peers every process reports its connect phase, and all start or none.
  if (o.peers != nullptr) connected = o.peers->AllReady(connected);
  if (!connected.ok()) {
    end_and_join();
    out.status = connected;
    return out;
  }
  out.connect_nanos = clock_.NowNanos() - launched_at;
  if (cb.on_start) cb.on_start();

  Snapshotter snapshotter(instances, o.peers);
  std::vector<metrics::RecorderSnapshot> prev, now_snap, interval;
  snapshotter.Take(o.warmup_nanos > 0 ? SnapshotPoint::kTick : SnapshotPoint::kReset, &prev);
  out.at_reset = prev;
  out.windows.resize(o.windows.size());
  std::vector<std::vector<metrics::RecorderSnapshot>> window_start(o.windows.size());
  for (size_t w = 0; w < o.windows.size(); ++w) out.windows[w].spec = o.windows[w];

  if (o.peers != nullptr) o.peers->StartTogether();
  const int64_t t0 = clock_.NowNanos();
  out.t0 = t0;
  out.reset_at = t0;
  for (Instance* in : instances) in->OnStart(t0);
  double cpu_at_reset = ProcessCpuSeconds();
  if (o.system_cpu) {
    out.system_at_reset = ReadProcStat();
    out.net_at_reset = ReadProcNet();
  }
  // A window from Start (0 s) starts here, from the snapshot taken before the workers began:
  // waiting for the first sample, a second in, left its first second out (`--window 0s-1s`
  // showed 0 IOPS, `0s-3s` two thirds of the rate). The first sample reports it started, as it
  // reports every edge (the running figures and the phase marks are the sample's).
  std::vector<int> started_at_start = StartWindowsAtStart(t0, prev, &out.windows, &window_start);
  signals.gate.store(RunSignals::kStarted, std::memory_order_release);
  signals.gate.notify_all();

  const bool has_warmup = o.warmup_nanos > 0;
  const int64_t warmup_end = t0 + o.warmup_nanos;
  // Set again at the reset: the measured window is exactly run_nanos long even when the reset
  // comes late (a tick late, or instances pausing for a server reading at the end of warm-up).
  int64_t end_at = o.run_nanos > 0 ? warmup_end + o.run_nanos : INT64_MAX;
  bool reset_done = !has_warmup;
  int64_t tick = 1;
  for (;;) {
    // The next sample: the next whole tick, or a phase boundary before it.
    int64_t target = t0 + tick * o.tick_nanos;
    if (!reset_done) target = std::min(target, warmup_end);
    target = std::min(target, end_at);
    bool stopped = false;
    while (clock_.NowNanos() < target) {
      if (stop_requested()) {
        stopped = true;
        break;
      }
      // Every instance done (its units, or every worker failed): the end sample now, not at
      // the next whole second, which a units-limited run waited for with nothing to do. So for
      // an open loop fallen more than max_lag behind: what follows its schedule no longer
      // keeps. With peers every rank samples on the common ticks, so they keep to them; so does
      // a run with per-second measurements beside it (end_on_tick).
      if (o.peers == nullptr && !o.end_on_tick && EndsBeforeTick(instances)) break;
      clock_.SleepUntil(std::min(target, clock_.NowNanos() + kPollNanos));
    }
    stopped = stopped || stop_requested();
    const int64_t now = clock_.NowNanos();
    for (Instance* in : instances) out.stalled_units += in->InterruptStalled(now, false);
    bool all_finished = true;
    for (size_t i = 0; i < instances.size(); ++i) {
      const Activity a = instances[i]->Check();
      all_finished = all_finished && a.finished;
      if (a.lagging && out.lagging_instance < 0) out.lagging_instance = static_cast<int>(i);
    }
    if (out.output_error.ok() && cb.output_error) out.output_error = cb.output_error();
    const bool stop_now =
        stopped || out.lagging_instance >= 0 || !out.output_error.ok() || now >= end_at;
    bool finished = stop_now || all_finished;
    // With peers: any process's stop ends the run, finished work only when all are done.
    if (o.peers != nullptr) finished = o.peers->Agree(stop_now, all_finished);
    const bool resets_here = !reset_done && !finished && now >= warmup_end;
    snapshotter.Take(finished      ? SnapshotPoint::kEnd
                     : resets_here ? SnapshotPoint::kReset
                                   : SnapshotPoint::kTick,
                     &now_snap);
    Difference(now_snap, prev, &interval);

    Sample s;
    s.now = now;
    s.t_sec = static_cast<double>(now - t0) / 1e9;
    // Until the reset, this one included: a real clock wakes a little after the warm-up's end,
    // and the interval ending at the reset is still warm-up.
    s.warmup = has_warmup && !reset_done;
    s.finished = finished;
    s.end_at = end_at;
    s.cumulative = &now_snap;
    s.interval = &interval;
    s.at_reset = &out.at_reset;
    s.t0 = t0;
    s.reset_at = out.reset_at;
    if (now >= t0 + tick * o.tick_nanos) s.tick = tick++;
    s.windows_started = std::move(started_at_start);  // empty after the first sample
    started_at_start.clear();
    MarkWindowEdges(now, now_snap, &s, &out.windows, &window_start);
    if (cb.on_sample) cb.on_sample(s);
    prev = now_snap;

    if (resets_here) {
      bool paused = false;
      for (Instance* in : instances) paused = in->OnWarmupEnd() || paused;
      if (o.peers != nullptr) paused = o.peers->Agree(paused, false);
      if (paused) {
        snapshotter.Take(SnapshotPoint::kReset, &out.at_reset);
        out.reset_at = clock_.NowNanos();
      } else {
        out.at_reset = now_snap;
        out.reset_at = now;
      }
      for (Instance* in : instances) in->AfterReset();
      reset_done = true;
      if (o.run_nanos > 0) end_at = out.reset_at + o.run_nanos;
      cpu_at_reset = ProcessCpuSeconds();
      if (o.system_cpu) {
        out.system_at_reset = ReadProcStat();
        out.net_at_reset = ReadProcNet();
      }
      if (cb.on_reset) cb.on_reset(out.at_reset, out.reset_at);
    }
    if (finished) {
      // The end instant's CPU readings first, then the workers are told at once.
      out.process_cpu_sec = ProcessCpuSeconds() - cpu_at_reset;
      if (o.system_cpu) {
        out.system_at_end = ReadProcStat();
        out.net_at_end = ReadProcNet();
      }
      end_gate();
      out.interrupted = stopped;
      out.end_at = now;
      out.at_end = now_snap;
      break;
    }
  }
  EndOpenWindows(window_start, &out);
  // A run that ended during warm-up keeps Start as its reset (warmed_up tells).
  out.warmed_up = reset_done;
  end_and_join();
  snapshotter.Take(SnapshotPoint::kTick, &out.after_join);
  return out;
}

}  // namespace sb::driver
