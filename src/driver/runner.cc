#include "driver/runner.h"

#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <thread>
#include <vector>

#include "base/random.h"
#include "metrics/recorder.h"

namespace sb::driver {
namespace {

constexpr int64_t kTickNanos = kNanosPerSecond;
constexpr int64_t kPollNanos = 100 * kNanosPerMilli;
constexpr int kLastN = 100;  // DVD Store's rt_tot_lastn window
constexpr int kNumCategories = 8;  // ErrorCategory values, kNone included

// Driver counters follow the workload's counters in every recorder.
struct CounterLayout {
  int workload = 0;
  int ErrorIndex(ErrorCategory c) const { return workload + static_cast<int>(c); }
  int retries() const { return workload + kNumCategories; }
  int total() const { return workload + kNumCategories + 1; }
};

enum class WorkerState { kStarting, kConnected, kDone, kFailed };

double CpuSeconds() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

struct Worker {
  Worker(int idx, int ntypes, int ncounters, uint64_t seed)
      : index(idx),
        recorder(ntypes, ncounters),
        think_rng(DeriveSeed(seed, {0, static_cast<uint64_t>(idx), 2})),
        retry_rng(DeriveSeed(seed, {0, static_cast<uint64_t>(idx), 3})),
        ramp_rng(DeriveSeed(seed, {0, static_cast<uint64_t>(idx), 4})) {}

  // The completion time and response time of this worker's last kLastN units. Written by the
  // worker, read by the runner; a torn pair only shifts which of two recent units is counted.
  void PushLast(int64_t completed, int64_t rt) {
    const uint64_t pos = last_pos.load(std::memory_order_relaxed);
    last_completed[pos % kLastN].store(completed, std::memory_order_relaxed);
    last_rt[pos % kLastN].store(rt, std::memory_order_relaxed);
    last_pos.store(pos + 1, std::memory_order_release);
  }

  int index;
  metrics::Recorder recorder;
  Random think_rng;
  Random retry_rng;
  Random ramp_rng;
  std::unique_ptr<workload::Session> session;
  std::atomic<WorkerState> state{WorkerState::kStarting};
  Status error;  // written by the worker before state becomes kFailed
  std::array<std::atomic<int64_t>, kLastN> last_completed{};
  std::array<std::atomic<int64_t>, kLastN> last_rt{};
  std::atomic<uint64_t> last_pos{0};
  std::thread thread;
};

// The OpContext a worker hands its session: timing, retries and recording.
class WorkerContext final : public workload::OpContext {
 public:
  WorkerContext(Worker& w, Clock& clock, const RunOptions& opts, const CounterLayout& layout,
                const RunCallbacks& cb)
      : w_(w), clock_(clock), opts_(opts), layout_(layout), cb_(cb) {}

  void BeginUnit() {
    unit_nanos_ = 0;
    steps_.clear();
    counts_.clear();
  }
  int64_t unit_nanos() const { return unit_nanos_; }
  // Records the unit and everything it did at once, as DVD Store adds an order's counts and
  // times together when the order completes: per-step counts then always add up to the units
  // completed in any window (n_login + n_newcust = n_overall).
  void EndUnit() {
    for (const auto& [type, nanos] : steps_) w_.recorder.Record(type, nanos);
    for (const auto& [counter, delta] : counts_) w_.recorder.Add(counter, delta);
    w_.recorder.Record(0, unit_nanos_);
  }

  workload::StepOutcome Timed(const std::function<Status()>& fn) override {
    const int64_t start = clock_.NowNanos();
    Status s;
    for (int failure = 1;; ++failure) {
      s = fn();
      if (s.ok()) break;
      w_.recorder.Add(layout_.ErrorIndex(s.category()));
      const bool fatal = s.category() == ErrorCategory::kSyntax || s.code() != StatusCode::kDbError;
      if (fatal || failure >= opts_.max_failures) {
        if (!fatal) {
          Message("error: " + s.message() + "; failure " + std::to_string(failure) +
                  ", exiting");
        }
        break;
      }
      Message("error: " + s.message() + "; failure " + std::to_string(failure) + ", retrying");
      w_.recorder.Add(layout_.retries());
      // Lock conflicts back off for a random 0-999 ms before the retry, as DVD Store's
      // database layer does after a deadlock; the pause counts in the response time.
      const ErrorCategory c = s.category();
      if (c == ErrorCategory::kDeadlock || c == ErrorCategory::kSerialization ||
          c == ErrorCategory::kTimeout) {
        clock_.SleepFor(w_.retry_rng.Uniform(0, 999) * kNanosPerMilli);
      }
    }
    return {s, clock_.NowNanos() - start};
  }

  void RecordStep(int step_type, int64_t nanos, bool add_to_unit) override {
    steps_.emplace_back(1 + step_type, nanos);
    if (add_to_unit) unit_nanos_ += nanos;
  }
  void AddToUnitTime(int64_t nanos) override { unit_nanos_ += nanos; }
  void Count(int counter, int64_t delta) override { counts_.emplace_back(counter, delta); }
  void Message(const std::string& text) override {
    if (cb_.on_message) cb_.on_message("Thread " + std::to_string(w_.index) + ": " + text);
  }
  int worker_index() const override { return w_.index; }

 private:
  Worker& w_;
  Clock& clock_;
  const RunOptions& opts_;
  const CounterLayout& layout_;
  const RunCallbacks& cb_;
  int64_t unit_nanos_ = 0;
  std::vector<std::pair<int, int64_t>> steps_;   // (recorder type, nanos) of the current unit
  std::vector<std::pair<int, int64_t>> counts_;  // (counter, delta) of the current unit
};

workload::Totals ToTotals(const metrics::RecorderSnapshot& s, int workload_counters) {
  workload::Totals t;
  for (const auto& h : s.types) t.types.push_back({h.count(), h.sum()});
  t.counters.assign(s.counters.begin(), s.counters.begin() + workload_counters);
  return t;
}

int64_t FloorMsec(double nanos) { return static_cast<int64_t>(std::floor(nanos / 1e6)); }

}  // namespace

int64_t DrawThinkTimeNanos(Random& rng, double think_time_sec) {
  const auto t_ms = static_cast<int64_t>(std::floor(1000 * think_time_sec));
  if (t_ms <= 0) return 0;
  return rng.Next(2 * t_ms) * kNanosPerMilli;
}

RunOutcome Runner::Run(const RunOptions& opts, const RunCallbacks& cb) {
  RunOutcome out;
  metrics::RunResult& r = out.result;
  const workload::Shape& shape = workload_.shape();
  const int ntypes = 1 + static_cast<int>(shape.step_types.size());
  CounterLayout layout;
  layout.workload = static_cast<int>(shape.counters.size());
  auto message = [&](const std::string& m) {
    if (cb.on_message) cb.on_message(m);
  };
  auto stop_requested = [&] { return opts.stop && opts.stop->load(); };

  std::atomic<bool> start{false}, end{false};
  std::vector<std::unique_ptr<Worker>> workers;
  for (int i = 0; i < opts.threads; ++i) {
    workers.push_back(std::make_unique<Worker>(i, ntypes, layout.total(), opts.seed));
  }
  // Interruptible sleep for workers: returns early when the run ends.
  auto nap_until = [&](int64_t deadline) {
    while (!end.load(std::memory_order_relaxed)) {
      const int64_t now = clock_.NowNanos();
      if (now >= deadline) return;
      clock_.SleepUntil(std::min(deadline, now + kPollNanos));
    }
  };

  auto worker_main = [&](Worker& w) {
    // Connection ramp (spec §5.0): a random stagger so ramp_rate connections open per second.
    if (opts.threads > 1 && opts.ramp_rate > 0) {
      const auto spread_ms = static_cast<int64_t>(1000.0 * opts.threads / opts.ramp_rate);
      nap_until(clock_.NowNanos() + w.ramp_rng.Next(spread_ms) * kNanosPerMilli);
    }
    auto conn = backend_.Connect();
    Status s = conn.ok() ? Status::Ok() : conn.status();
    if (s.ok()) {
      auto session = workload_.NewSession(std::move(conn).value(),
                                          DeriveSeed(opts.seed, {0, static_cast<uint64_t>(w.index), 1}),
                                          w.index);
      if (session.ok()) {
        w.session = std::move(session).value();
      } else {
        s = session.status();
      }
    }
    if (!s.ok()) {
      w.error = s;
      w.state = WorkerState::kFailed;
      return;
    }
    w.state = WorkerState::kConnected;
    while (!start.load() && !end.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    WorkerContext ctx(w, clock_, opts, layout, cb);
    while (!end.load(std::memory_order_relaxed)) {
      ctx.BeginUnit();
      Status unit = w.session->RunUnit(ctx);
      if (!unit.ok()) {
        w.error = unit;
        ctx.Message("exiting: " + unit.message());
        w.state = WorkerState::kFailed;
        return;
      }
      ctx.EndUnit();
      w.PushLast(clock_.NowNanos(), ctx.unit_nanos());
      const int64_t think = DrawThinkTimeNanos(w.think_rng, opts.think_time_sec);
      if (think > 0) nap_until(clock_.NowNanos() + think);
    }
    w.state = WorkerState::kDone;
  };

  r.started_at = WallClockIsoUtc();
  for (auto& w : workers) w->thread = std::thread(worker_main, std::ref(*w));
  auto join_all = [&] {
    end = true;
    for (auto& w : workers) {
      if (w->thread.joinable()) w->thread.join();
    }
  };

  // Connect phase: every worker connected, or give up.
  const int64_t connect_deadline = clock_.NowNanos() + opts.connect_timeout_nanos;
  for (;;) {
    int connected = 0;
    const Worker* failed = nullptr;
    for (const auto& w : workers) {
      const WorkerState st = w->state.load();
      if (st == WorkerState::kConnected) ++connected;
      if (st == WorkerState::kFailed && failed == nullptr) failed = w.get();
    }
    if (failed != nullptr) {
      join_all();
      out.status = Status(failed->error.code() == StatusCode::kDbError ? StatusCode::kDbError
                                                                       : failed->error.code(),
                          "thread " + std::to_string(failed->index) +
                              " could not start: " + failed->error.message());
      return out;
    }
    if (connected == opts.threads) break;
    if (stop_requested() || clock_.NowNanos() > connect_deadline) {
      join_all();
      out.status = stop_requested()
                       ? Status::Cancelled("stopped before all threads connected")
                       : Status::FailedPrecondition(
                             "only " + std::to_string(connected) + " of " +
                             std::to_string(opts.threads) + " threads connected within the timeout");
      return out;
    }
    clock_.SleepFor(10 * kNanosPerMilli);
  }
  message("Controller: all threads connected - issuing Start");

  // Snapshots: `base` at the warm-up reset, `prev` at the previous tick, `at_status` at the
  // previous status line.
  auto snapshot_all = [&](metrics::RecorderSnapshot* merged) {
    metrics::RecorderSnapshot one;
    *merged = metrics::RecorderSnapshot();
    for (const auto& w : workers) {
      w->recorder.Snapshot(&one);
      merged->Merge(one);
    }
  };
  metrics::RecorderSnapshot base, prev, at_status, now_snap, interval;
  snapshot_all(&base);
  prev = base;
  at_status = base;

  r.series.type_names.push_back(shape.unit_name);
  for (const auto& t : shape.step_types) r.series.type_names.push_back(t);
  r.series.counter_names = shape.counters;
  for (int c = 1; c < kNumCategories; ++c) {
    r.series.counter_names.push_back(std::string("errors.") +
                                     ErrorCategoryName(static_cast<ErrorCategory>(c)));
  }
  r.series.counter_names.push_back("retries");

  const int64_t t0 = clock_.NowNanos();
  int64_t reset_at = t0;
  double cpu_at_reset = CpuSeconds();
  start = true;
  const bool has_warmup = opts.warmup_nanos > 0;
  const int64_t end_at = opts.run_nanos > 0 ? t0 + opts.warmup_nanos + opts.run_nanos : INT64_MAX;
  int64_t last_sampled = 0;

  auto lastn_max_msec = [&](int64_t since) {
    std::vector<std::pair<int64_t, int64_t>> recent;
    for (const auto& w : workers) {
      const uint64_t n = std::min<uint64_t>(w->last_pos.load(std::memory_order_acquire), kLastN);
      for (uint64_t i = 0; i < n; ++i) {
        const int64_t done = w->last_completed[i].load(std::memory_order_relaxed);
        if (done >= since) recent.emplace_back(done, w->last_rt[i].load(std::memory_order_relaxed));
      }
    }
    std::sort(recent.begin(), recent.end(), std::greater<>());
    int64_t mx = 0;
    for (size_t i = 0; i < recent.size() && i < kLastN; ++i) mx = std::max(mx, recent[i].second);
    return FloorMsec(static_cast<double>(mx));
  };
  auto status_figures = [&](const metrics::RecorderSnapshot& snap, int64_t now) {
    metrics::StatusFigures f;
    const metrics::Histogram& unit = snap.types[0];
    const metrics::Histogram& unit_base = base.types[0];
    f.et_sec = static_cast<double>(now - reset_at) / 1e9;
    f.n_overall = static_cast<int64_t>(unit.count() - unit_base.count());
    f.opm = f.et_sec > 0 ? static_cast<int64_t>(std::floor(60.0 * static_cast<double>(f.n_overall) /
                                                           f.et_sec))
                         : 0;
    f.rt_tot_lastn_max_msec = lastn_max_msec(reset_at);
    f.rt_tot_avg_msec =
        f.n_overall > 0
            ? FloorMsec(static_cast<double>(unit.sum() - unit_base.sum()) / static_cast<double>(f.n_overall))
            : 0;
    const int64_t dn = static_cast<int64_t>(unit.count() - at_status.types[0].count());
    f.rt_tot_sampled = dn > 0 ? FloorMsec(static_cast<double>(unit.sum() - at_status.types[0].sum()) /
                                          static_cast<double>(dn))
                              : 0;
    if (shape.rollback_counter >= 0) {
      f.n_rollbacks = snap.counters[shape.rollback_counter] - base.counters[shape.rollback_counter];
    }
    f.rollback_pct = f.n_overall > 0 ? 100.0 * static_cast<double>(f.n_rollbacks) /
                                           static_cast<double>(f.n_overall)
                                     : 0;
    return f;
  };

  int64_t final_at = t0;
  for (int64_t tick = 1;; ++tick) {
    const int64_t tick_at = t0 + tick * kTickNanos;
    bool stopped = false;
    while (clock_.NowNanos() < std::min(tick_at, end_at)) {
      if (stop_requested()) {
        stopped = true;
        break;
      }
      clock_.SleepUntil(std::min({tick_at, end_at, clock_.NowNanos() + kPollNanos}));
    }
    const int64_t now = clock_.NowNanos();
    snapshot_all(&now_snap);
    // One time-series point per interval.
    interval = now_snap;
    interval.Subtract(prev);
    metrics::IntervalPoint p;
    p.t_sec = static_cast<double>(now - t0) / 1e9;
    p.phase = (has_warmup && now - t0 <= opts.warmup_nanos) ? "warmup" : "measure";
    for (const auto& h : interval.types) {
      p.type_counts.push_back(h.count());
      p.type_mean_ms.push_back(h.mean() / 1e6);
      p.type_p99_ms.push_back(static_cast<double>(h.ValueAtPercentile(99)) / 1e6);
    }
    {  // In counter_names order: workload counters, errors.<category>, retries.
      std::vector<int64_t> c(interval.counters.begin(), interval.counters.begin() + layout.workload);
      for (int k = 1; k < kNumCategories; ++k) {
        c.push_back(interval.counters[layout.ErrorIndex(static_cast<ErrorCategory>(k))]);
      }
      c.push_back(interval.counters[layout.retries()]);
      p.counters = std::move(c);
    }
    r.series.points.push_back(std::move(p));
    prev = now_snap;

    const bool all_gone = std::all_of(workers.begin(), workers.end(), [](const auto& w) {
      return w->state.load() == WorkerState::kFailed;
    });
    const bool finished = stopped || all_gone || now >= end_at;
    if (!finished && cb.on_status && opts.log_freq_sec > 0 && tick % opts.log_freq_sec == 0) {
      metrics::StatusFigures f = status_figures(now_snap, now);
      last_sampled = f.rt_tot_sampled;
      cb.on_status(f);
      at_status = now_snap;
    }
    if (has_warmup && !finished && now - t0 >= opts.warmup_nanos && reset_at == t0) {
      base = now_snap;
      at_status = now_snap;
      reset_at = now;
      cpu_at_reset = CpuSeconds();
      message("Stats reset");
    }
    if (finished) {
      r.interrupted = stopped;
      final_at = now;
      if (all_gone) out.status = Status::FailedPrecondition("every thread stopped on an error");
      break;
    }
  }

  // Final statistics at the end instant; orders finishing during wind-down are not in them.
  const metrics::RecorderSnapshot final_snap = now_snap;
  metrics::StatusFigures fin = status_figures(final_snap, final_at);
  fin.rt_tot_sampled = last_sampled;
  const double cpu = CpuSeconds() - cpu_at_reset;
  r.ended_at = WallClockIsoUtc();
  join_all();
  metrics::RecorderSnapshot whole;
  snapshot_all(&whole);

  metrics::RecorderSnapshot window = final_snap;
  window.Subtract(base);
  r.final_status = fin;
  r.measured_sec = fin.et_sec;
  r.type_names = r.series.type_names;
  for (const auto& h : window.types) r.latency.push_back(metrics::LatencySummary::From(h));
  for (int c = 0; c < layout.workload; ++c) r.counters[shape.counters[c]] = window.counters[c];
  for (int c = 1; c < kNumCategories; ++c) {
    r.errors[ErrorCategoryName(static_cast<ErrorCategory>(c))] =
        whole.counters[layout.ErrorIndex(static_cast<ErrorCategory>(c))];
  }
  r.retries = whole.counters[layout.retries()];
  r.workers_started = opts.threads;
  for (const auto& w : workers) {
    if (w->state.load() == WorkerState::kFailed) ++r.workers_failed;
  }
  workload::WindowFacts facts;
  facts.elapsed_sec = fin.et_sec;
  facts.unit_lastn_max_msec = fin.rt_tot_lastn_max_msec;
  facts.unit_sampled_msec = fin.rt_tot_sampled;
  r.figures = workload_.Figures(ToTotals(window, layout.workload),
                                ToTotals(final_snap, layout.workload), facts);
  const uint64_t units = window.types[0].count();
  r.headline_name = shape.headline_name;
  r.headline_value = static_cast<double>(fin.opm);
  r.driver_cpu_sec = cpu;
  r.driver_cpu_sec_per_op = units > 0 ? cpu / static_cast<double>(units) : 0;
  r.driver_cpu_share = fin.et_sec > 0 ? cpu / fin.et_sec : 0;
  out.whole_run = ToTotals(whole, layout.workload);
  return out;
}

}  // namespace sb::driver
