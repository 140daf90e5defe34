#include "driver/runner.h"

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <thread>
#include <vector>

#include "base/random.h"
#include "driver/pacer.h"
#include "driver/server_check.h"
#include "driver/worker.h"
#include "metrics/recorder.h"

namespace sb::driver {
namespace {

constexpr int64_t kTickNanos = kNanosPerSecond;
constexpr int64_t kPollNanos = 100 * kNanosPerMilli;

double CpuSeconds() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

workload::Totals ToTotals(const metrics::RecorderSnapshot& s, const Layout& layout) {
  workload::Totals t;
  for (int i = 0; i <= layout.steps; ++i) t.types.push_back({s.types[i].count(), s.types[i].sum()});
  t.counters.assign(s.counters.begin(), s.counters.begin() + layout.workload_counters);
  return t;
}

// Asks every worker to pause between units and waits until each running one has (workers that
// ended do not count). Gives up after about 30 s (a unit stuck on a lock): false then, and the
// caller's reading may see units in flight. The caller clears `hold`.
bool HoldWorkers(const std::vector<std::unique_ptr<Worker>>& workers, std::atomic<bool>& hold) {
  hold = true;
  for (int waited = 0; waited < 30000; ++waited) {
    bool all = true;
    for (const auto& w : workers) {
      const WorkerState st = w->state.load();
      if (st == WorkerState::kConnected && !w->held.load(std::memory_order_acquire)) all = false;
    }
    if (all) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

int64_t FloorMsec(double nanos) { return static_cast<int64_t>(std::floor(nanos / 1e6)); }

// The driver counters in the order of TimeSeries::counter_names after the workload's.
std::vector<int64_t> SeriesCounters(const metrics::RecorderSnapshot& s, const Layout& layout) {
  std::vector<int64_t> c(s.counters.begin(), s.counters.begin() + layout.workload_counters);
  for (int k = 1; k < kNumCategories; ++k) {
    c.push_back(s.counters[layout.ErrorIndex(static_cast<ErrorCategory>(k))]);
  }
  c.push_back(s.counters[layout.retries()]);
  c.push_back(s.counters[layout.late()]);
  c.push_back(s.counters[layout.reconnects()]);
  return c;
}

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
  Layout layout;
  layout.steps = static_cast<int>(shape.step_types.size());
  layout.workload_counters = static_cast<int>(shape.counters.size());
  layout.rollback_counter = shape.rollback_counter;
  layout.unit_name = shape.unit_name;
  const bool open = opts.rate_per_sec > 0;
  LoopLimits limits;
  limits.max_lag_nanos = opts.max_lag_nanos;
  limits.latency_limit_nanos = opts.latency_limit_nanos;
  limits.max_failures = opts.max_failures;
  limits.max_units = opts.units_per_thread;
  std::unique_ptr<OpLog> op_log;
  if (!opts.op_log_path.empty()) {
    auto opened = OpLog::Open(opts.op_log_path);
    if (!opened.ok()) {
      out.status = opened.status();
      return out;
    }
    op_log = std::move(opened).value();
    limits.op_log = op_log.get();
    limits.op_log_sampling = opts.op_log_sampling;
  }
  auto message = [&](const std::string& m) {
    if (cb.on_message) cb.on_message(m);
  };
  const std::function<void(const std::string&)> message_fn = message;
  auto stop_requested = [&] { return opts.stop && opts.stop->load(); };

  std::atomic<bool> start{false}, end{false}, hold{false};
  limits.hold = &hold;
  std::vector<std::unique_ptr<Worker>> workers;
  for (int i = 0; i < opts.threads; ++i) {
    workers.push_back(std::make_unique<Worker>(i, layout, opts.seed));
  }
  int64_t t0 = 0;  // set before `start`; workers read it after seeing `start`

  auto worker_main = [&](Worker& w) {
    // Connection ramp (spec §5.0): a random stagger so ramp_rate connections open per second.
    if (opts.threads > 1 && opts.ramp_rate > 0) {
      const auto spread_ms = static_cast<int64_t>(1000.0 * opts.threads / opts.ramp_rate);
      NapUntil(clock_, clock_.NowNanos() + w.ramp_rng.Next(spread_ms) * kNanosPerMilli, end);
    }
    auto conn = backend_.Connect();
    Status s = conn.ok() ? Status::Ok() : conn.status();
    if (s.ok()) {
      auto session = workload_.NewSession(
          std::move(conn).value(), DeriveSeed(opts.seed, {0, static_cast<uint64_t>(w.index), 1}),
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
    w.reconnect = [&, index = w.index]() -> Result<std::unique_ptr<workload::Session>> {
      auto c = backend_.Connect();
      if (!c.ok()) return c.status();
      return workload_.NewSession(
          std::move(c).value(), DeriveSeed(opts.seed, {0, static_cast<uint64_t>(index), 6}), index);
    };
    w.state = WorkerState::kConnected;
    while (!start.load() && !end.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (end.load()) return;
    const uint64_t pace_seed = DeriveSeed(opts.seed, {0, static_cast<uint64_t>(w.index), 2});
    w.pacer = open ? NewOpenLoopPacer(opts.rate_per_sec, opts.threads, w.index,
                                      opts.poisson ? Arrival::kPoisson : Arrival::kConstant, t0,
                                      pace_seed)
                   : NewClosedLoopPacer(opts.think_time_sec, pace_seed);
    RunUnits(w, layout, limits, clock_, end, message_fn);
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
      out.status = Status(failed->error.code(), "thread " + std::to_string(failed->index) +
                                                    " could not start: " + failed->error.message());
      return out;
    }
    if (connected == opts.threads) break;
    if (stop_requested() || clock_.NowNanos() > connect_deadline) {
      join_all();
      out.status = stop_requested()
                       ? Status::Cancelled("stopped before all threads connected")
                       : Status::FailedPrecondition("only " + std::to_string(connected) + " of " +
                                                    std::to_string(opts.threads) +
                                                    " threads connected within the timeout");
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

  // The server cross-check's start reading: before the workers begin when there is no warm-up,
  // else at the end of warm-up (below). `span_start` is the client's side of that instant.
  ServerCheck server_check(workload_, backend_, clock_);
  ServerReading check_start, check_end;
  metrics::RecorderSnapshot span_start = base;
  bool check_start_exact = true;
  bool check_started = false;
  double hold_ms = 0;
  if (opts.server_check && opts.warmup_nanos <= 0) {
    check_start = server_check.Start();
    check_started = true;
  }

  const int reported_types = 1 + layout.steps + (open ? 1 : 0);
  r.series.type_names.push_back(shape.unit_name);
  for (const auto& t : shape.step_types) r.series.type_names.push_back(t);
  if (open) r.series.type_names.push_back("schedule_lag");
  r.series.counter_names = shape.counters;
  for (int c = 1; c < kNumCategories; ++c) {
    r.series.counter_names.push_back(std::string("errors.") +
                                     ErrorCategoryName(static_cast<ErrorCategory>(c)));
  }
  r.series.counter_names.push_back("retries");
  r.series.counter_names.push_back("late");
  r.series.counter_names.push_back("reconnects");

  t0 = clock_.NowNanos();
  limits.t0 = t0;
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
    f.opm =
        f.et_sec > 0
            ? static_cast<int64_t>(std::floor(60.0 * static_cast<double>(f.n_overall) / f.et_sec))
            : 0;
    f.rt_tot_lastn_max_msec = lastn_max_msec(reset_at);
    f.rt_tot_avg_msec = f.n_overall > 0
                            ? FloorMsec(static_cast<double>(unit.sum() - unit_base.sum()) /
                                        static_cast<double>(f.n_overall))
                            : 0;
    const auto dn = static_cast<int64_t>(unit.count() - at_status.types[0].count());
    f.rt_tot_sampled = dn > 0
                           ? FloorMsec(static_cast<double>(unit.sum() - at_status.types[0].sum()) /
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

  // Windows: the user's and the baselines', each measured once.
  struct OpenWindow {
    metrics::WindowSpec spec;
    bool started = false, ended = false;
    metrics::RecorderSnapshot at_start;
    metrics::WindowResult result;
  };
  std::vector<OpenWindow> windows;
  auto add_window = [&](const metrics::WindowSpec& w) {
    for (const auto& o : windows) {
      if (o.spec.label == w.label) return;
    }
    OpenWindow o;
    o.spec = w;
    windows.push_back(std::move(o));
  };
  for (const auto& w : opts.windows) add_window(w);
  for (const auto& b : opts.baselines) add_window(b.window);
  auto close_window = [&](OpenWindow& w, const metrics::RecorderSnapshot& snap, int64_t now,
                          bool complete) {
    metrics::RecorderSnapshot d = snap;
    d.Subtract(w.at_start);
    w.result.complete = complete;
    w.result.running_end = static_cast<double>(status_figures(snap, now).opm);
    w.result.latency.clear();
    for (int i = 0; i < reported_types; ++i) {
      w.result.latency.push_back(metrics::LatencySummary::From(d.types[i]));
    }
    const double secs = static_cast<double>(now - t0) / 1e9 - w.spec.start_sec;
    w.result.per_minute = secs > 0 ? 60.0 * static_cast<double>(d.types[0].count()) / secs : 0;
    w.ended = true;
  };

  int64_t final_at = t0;
  const Worker* lagging = nullptr;
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
    for (int i = 0; i < reported_types; ++i) {
      const metrics::Histogram& h = interval.types[i];
      p.type_counts.push_back(h.count());
      p.type_mean_ms.push_back(h.mean() / 1e6);
      p.type_p99_ms.push_back(static_cast<double>(h.ValueAtPercentile(99)) / 1e6);
    }
    p.counters = SeriesCounters(interval, layout);
    r.series.points.push_back(std::move(p));
    prev = now_snap;

    int failed = 0, done = 0;
    for (const auto& w : workers) {
      const WorkerState st = w->state.load();
      if (st == WorkerState::kFailed) ++failed;
      if (st == WorkerState::kDone) ++done;
      if (st == WorkerState::kLagExceeded && lagging == nullptr) lagging = w.get();
    }
    const bool all_gone = failed == opts.threads;
    // Every worker reached units_per_thread (or failed).
    const bool all_done = done > 0 && done + failed == opts.threads;
    const bool finished = stopped || all_gone || all_done || lagging != nullptr || now >= end_at;
    if (cb.on_interval) cb.on_interval(r.series, status_figures(now_snap, now));
    if (!finished && cb.on_status && opts.log_freq_sec > 0 && tick % opts.log_freq_sec == 0) {
      metrics::StatusFigures f = status_figures(now_snap, now);
      last_sampled = f.rt_tot_sampled;
      cb.on_status(f);
      at_status = now_snap;
    }
    const double t_sec = static_cast<double>(now - t0) / 1e9;
    for (auto& w : windows) {
      if (!w.started && t_sec + 0.05 >= w.spec.start_sec) {
        w.started = true;
        w.at_start = now_snap;
        w.result.running_start = static_cast<double>(status_figures(now_snap, now).opm);
      }
      if (w.started && !w.ended && t_sec + 0.05 >= w.spec.end_sec) {
        close_window(w, now_snap, now, true);
      }
    }
    if (has_warmup && !finished && now - t0 >= opts.warmup_nanos && reset_at == t0) {
      base = now_snap;
      reset_at = now;
      if (opts.server_check) {
        // Closed loop: pause the workers between units so that no unit straddles the reading;
        // the measured window begins when they resume. The open loop cannot pause without
        // distorting its schedule, so its start reading is taken on the fly.
        const int64_t hold_from = clock_.NowNanos();
        check_start_exact = !open && HoldWorkers(workers, hold);
        snapshot_all(&base);
        check_start = server_check.Start();
        hold = false;
        check_started = true;
        span_start = base;
        reset_at = clock_.NowNanos();
        hold_ms = static_cast<double>(reset_at - hold_from) / 1e6;
      }
      at_status = base;
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

  // Final statistics at the end instant; units finishing during wind-down are not in them.
  const metrics::RecorderSnapshot final_snap = now_snap;
  metrics::StatusFigures fin = status_figures(final_snap, final_at);
  fin.rt_tot_sampled = last_sampled;
  const double cpu = CpuSeconds() - cpu_at_reset;
  r.ended_at = WallClockIsoUtc();
  join_all();
  if (lagging != nullptr) {
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "the system fell %.1f s behind the requested rate of %g/s (max_lag %.1f s); "
                  "the run stopped instead of silently dropping work",
                  static_cast<double>(lagging->max_lag_seen) / 1e9, opts.rate_per_sec,
                  static_cast<double>(opts.max_lag_nanos) / 1e9);
    out.status = Status::FailedPrecondition(buf);
  }
  metrics::RecorderSnapshot whole;
  snapshot_all(&whole);
  if (check_started) {
    // Close every worker's connection first: the span then ends after their last unit, and a
    // server that counts a session's work late has it by the time the session is gone.
    for (auto& w : workers) w->session.reset();
    bool settled = true;
    check_end = server_check.End(&settled);
    metrics::RecorderSnapshot span = whole;
    span.Subtract(span_start);
    r.server_check = CompareReadings(workload_, check_start, check_end, ToTotals(span, layout),
                                     check_start_exact, &r.warnings);
    r.server_check.counters_settled = settled;
    r.server_check.hold_ms = hold_ms;
    r.server_check.span = has_warmup ? "from the end of warm-up to the end of the run, wind-down "
                                       "included"
                                     : "from before the workers began to the end of the run, "
                                       "wind-down included";
  }
  if (op_log) {
    if (Status s = op_log->Close(); !s.ok() && out.status.ok()) out.status = s;
  }

  for (auto& w : windows) {
    if (w.started && !w.ended) close_window(w, final_snap, final_at, false);
    w.result.label = w.spec.label;
    w.result.start_sec = w.spec.start_sec;
    w.result.end_sec = w.spec.end_sec;
    const metrics::Spread sp =
        metrics::SpreadOf(metrics::PerSecond(r.series, 0, w.spec.start_sec, w.spec.end_sec));
    w.result.per_sec_min = sp.min;
    w.result.per_sec_mean = sp.mean;
    w.result.per_sec_median = sp.median;
    w.result.per_sec_max = sp.max;
  }
  for (const auto& w : opts.windows) {
    for (const auto& o : windows) {
      if (o.spec.label == w.label) r.windows.push_back(o.result);
    }
  }
  const std::string unit_plural = shape.unit_name + "s";
  for (const auto& b : opts.baselines) {
    for (const auto& o : windows) {
      if (o.spec.label == b.window.label) {
        r.baselines.push_back(metrics::EvaluateBaseline(b, o.result, unit_plural));
      }
    }
  }
  {
    std::vector<double> measured;
    for (const auto& p : r.series.points) {
      if (p.phase == "measure" && p.t_sec <= static_cast<double>(final_at - t0) / 1e9 + 0.05 &&
          !p.type_counts.empty()) {
        measured.push_back(static_cast<double>(p.type_counts[0]) / r.series.interval_sec);
      }
    }
    // The last point may be a partial second when the run was stopped early.
    if (r.interrupted && !measured.empty()) measured.pop_back();
    r.steady_state =
        metrics::DetectSteadyState(measured, opts.steady_max_slope_pct, opts.steady_max_cv_pct);
  }

  metrics::RecorderSnapshot window = final_snap;
  window.Subtract(base);
  r.final_status = fin;
  r.measured_sec = fin.et_sec;
  r.type_names = r.series.type_names;
  for (int i = 0; i < reported_types; ++i) {
    r.latency.push_back(metrics::LatencySummary::From(window.types[i]));
  }
  for (int c = 0; c < layout.workload_counters; ++c) {
    r.counters[shape.counters[c]] = window.counters[c];
  }
  if (opts.latency_limit_nanos > 0) r.counters["late"] = window.counters[layout.late()];
  for (int c = 1; c < kNumCategories; ++c) {
    r.errors[ErrorCategoryName(static_cast<ErrorCategory>(c))] =
        whole.counters[layout.ErrorIndex(static_cast<ErrorCategory>(c))];
  }
  r.retries = whole.counters[layout.retries()];
  if (const int64_t n = whole.counters[layout.reconnects()]; n > 0) {
    r.counters["reconnects"] = n;
    int64_t idle = 0;  // measured seconds in which no unit completed: the outage as users saw it
    for (const auto& p : r.series.points) {
      if (p.phase == "measure" && !p.type_counts.empty() && p.type_counts[0] == 0) ++idle;
    }
    r.counters["seconds_without_units"] = idle;
  }
  r.workers_started = opts.threads;
  for (const auto& w : workers) {
    if (w->state.load() == WorkerState::kFailed) ++r.workers_failed;
  }
  workload::WindowFacts facts;
  facts.elapsed_sec = fin.et_sec;
  facts.unit_lastn_max_msec = fin.rt_tot_lastn_max_msec;
  facts.unit_sampled_msec = fin.rt_tot_sampled;
  r.figures = workload_.Figures(ToTotals(window, layout), ToTotals(final_snap, layout), facts);
  const uint64_t units = window.types[0].count();
  r.headline_name = shape.headline_name;
  r.headline_value = static_cast<double>(fin.opm);
  r.driver_cpu_sec = cpu;
  r.driver_cpu_sec_per_op = units > 0 ? cpu / static_cast<double>(units) : 0;
  r.driver_cpu_share = fin.et_sec > 0 ? cpu / fin.et_sec : 0;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  if (r.driver_cpu_share >= 0.9 * cores) {
    char buf[300];
    std::snprintf(buf, sizeof buf,
                  "the storebench process used %.0f %% of this machine's %u cores during the "
                  "measured window: the result may measure the client machine, not the server",
                  100.0 * r.driver_cpu_share / cores, cores);
    r.warnings.push_back(buf);
  }
  out.whole_run = ToTotals(whole, layout);
  return out;
}

}  // namespace sb::driver
