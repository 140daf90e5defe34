#include "driver/db_instance.h"

#include <algorithm>
#include <chrono>
#include <thread>
#include <utility>

#include "base/random.h"
#include "driver/pacer.h"

namespace sb::driver {

DbInstance::DbInstance(std::string name, workload::Workload& workload, db::DbBackend& backend,
                       Clock& clock, DbInstanceOptions options,
                       std::function<void(const std::string&)> message)
    : name_(std::move(name)),
      workload_(workload),
      backend_(backend),
      clock_(clock),
      options_(options),
      message_(std::move(message)) {
  const workload::Shape& shape = workload.shape();
  layout_.steps = static_cast<int>(shape.step_types.size());
  layout_.workload_counters = static_cast<int>(shape.counters.size());
  layout_.rollback_counter = shape.rollback_counter;
  layout_.unit_name = shape.unit_name;
  layout_.unit_named_by_step = shape.unit_named_by_step;
  layout_.step_names = shape.step_types;
  options_.limits.hold = &hold_;
  if (options_.units_total > 0) {
    units_left_.store(options_.units_total);
    options_.limits.units_left = &units_left_;
  }
  for (int i = 0; i < options_.threads; ++i) {
    workers_.push_back(std::make_unique<Worker>(i, layout_, options_.seed));
  }
  // No threads (another rank of a scaled-out run runs this instance): one never-written
  // recorder gives the snapshots their shape (zeros), and no thread is reported; the ranks
  // that run the instance's threads run its background workers too.
  if (options_.threads == 0) {
    idle_ = std::make_unique<Worker>(0, layout_, options_.seed);
    return;
  }
  // Background workers come last, numbered on from the workers.
  for (int i = 0; i < workload.background_workers(); ++i) {
    workers_.push_back(std::make_unique<Worker>(options_.threads + i, layout_, options_.seed));
    workers_.back()->background = true;
  }
}

DbInstance::~DbInstance() {
  for (auto& w : workers_) {
    if (w->thread.joinable()) w->thread.join();
  }
}

void DbInstance::WorkerMain(Worker& w, RunSignals& signals) {
  WorkerBody(w, signals);
  w.returned_at.store(clock_.NowNanos(), std::memory_order_relaxed);
  w.returned.store(true, std::memory_order_release);
}

void DbInstance::WorkerBody(Worker& w, RunSignals& signals) {
  const uint64_t seed = options_.seed;
  const auto index = static_cast<uint64_t>(w.index);
  const bool tell = thread_event_ && !w.background;
  if (tell) thread_event_(w.index, false);
  // Connection ramp (DVD Store): a random stagger so ramp_rate connections open per second.
  if (options_.threads > 1 && options_.ramp_rate > 0) {
    const auto spread_ms = static_cast<int64_t>(1000.0 * options_.threads / options_.ramp_rate);
    NapUntil(clock_, clock_.NowNanos() + w.ramp_rng.Next(spread_ms) * kNanosPerMilli, signals);
  }
  auto conn = backend_.Connect();
  Status s = conn.ok() ? Status::Ok() : conn.status();
  if (s.ok()) {
    w.SetInterrupt((*conn)->Interrupter());
    auto session =
        workload_.NewSession(std::move(conn).value(), DeriveSeed(seed, {0, index, 1}), w.index);
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
  w.reconnect = [this, &w, seed, index]() -> Result<std::unique_ptr<workload::Session>> {
    auto c = backend_.Connect();
    if (!c.ok()) return c.status();
    w.SetInterrupt((*c)->Interrupter());
    return workload_.NewSession(std::move(c).value(), DeriveSeed(seed, {0, index, 6}),
                                static_cast<int>(index));
  };
  if (tell) thread_event_(w.index, true);
  w.state = WorkerState::kConnected;
  if (!signals.WaitForStart() || signals.Ended()) return;
  const uint64_t pace_seed = DeriveSeed(seed, {0, index, 2});
  if (w.background) {  // back to back: its session waits for work itself
    w.pacer = NewClosedLoopPacer(0, pace_seed);
    RunUnits(w, layout_, options_.limits, clock_, signals, message_);
    return;
  }
  if (workload_.terminals() > 0) {
    std::call_once(terminals_once_, [&] {
      terminals_ =
          std::make_shared<TerminalQueue>(workload_, workload_.terminals(), options_.limits.t0);
    });
    w.pacer = NewTerminalPacer(terminals_);
    RunUnits(w, layout_, options_.limits, clock_, signals, message_);
    return;
  }
  w.pacer = open_loop()
                ? NewOpenLoopPacer(options_.rate_per_sec, options_.threads, w.index,
                                   options_.poisson ? Arrival::kPoisson : Arrival::kConstant,
                                   options_.limits.t0, pace_seed)
                : NewClosedLoopPacer(options_.think_time_sec, pace_seed);
  RunUnits(w, layout_, options_.limits, clock_, signals, message_);
}

void DbInstance::Launch(RunSignals& signals) {
  for (auto& w : workers_) {
    w->thread = std::thread([this, &signals, wp = w.get()] { WorkerMain(*wp, signals); });
  }
}

Readiness DbInstance::Ready() const {
  Readiness r;
  r.total = static_cast<int>(workers_.size());
  for (const auto& w : workers_) {
    const WorkerState st = w->state.load();
    if (st == WorkerState::kConnected) ++r.ready;
    if (st == WorkerState::kFailed) {
      if (r.failed++ == 0) {
        r.first_error = Status(w->error.code(), "thread " + std::to_string(w->index) +
                                                    " could not start: " + w->error.message());
      }
    }
  }
  return r;
}

std::vector<const metrics::Recorder*> DbInstance::Recorders() const {
  std::vector<const metrics::Recorder*> r;
  for (const auto& w : workers_) r.push_back(&w->recorder);
  if (idle_ != nullptr) r.push_back(&idle_->recorder);
  return r;
}

Activity DbInstance::Check() const {
  int failed = 0, done = 0;
  Activity a;
  for (const auto& w : workers_) {
    if (w->background) continue;  // it works as long as the run: the workers decide the end
    const WorkerState st = w->state.load();
    if (st == WorkerState::kFailed) {
      // Its error was written before its state became kFailed.
      if (failed++ == 0) a.first_error = w->error;
    }
    if (st == WorkerState::kDone) ++done;
    if (st == WorkerState::kLagExceeded) a.lagging = true;
  }
  // An instance with no threads (a scaled-out run's instance that another rank runs:
  // docs/scale-out.md) has nothing to do, and nothing failed.
  a.all_failed = options_.threads > 0 && failed == options_.threads;
  // Every worker reached units_per_thread (or failed).
  a.finished =
      a.all_failed || options_.threads == 0 || (done > 0 && done + failed == options_.threads);
  return a;
}

// Asks every worker to pause between units and waits until each running one has (workers that
// ended do not count). Gives up after about 30 s (a unit stuck on a lock): false then, and the
// reading may see units in flight.
bool DbInstance::HoldWorkers() {
  hold_ = true;
  for (int waited = 0; waited < 30000; ++waited) {
    bool all = true;
    for (const auto& w : workers_) {
      const WorkerState st = w->state.load();
      if (st == WorkerState::kConnected && !w->held.load(std::memory_order_acquire)) all = false;
    }
    if (all) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

bool DbInstance::OnWarmupEnd() {
  if (!warmup_reading_) return false;
  // Closed loop: pause the workers between units so that no unit straddles the reading; the
  // measured window begins when they resume. The open loop cannot pause without distorting its
  // schedule, so its reading is taken on the fly.
  const int64_t hold_from = clock_.NowNanos();
  reading_exact_ = !open_loop() && workload_.terminals() == 0 && HoldWorkers();
  warmup_reading_();
  hold_from_ = hold_from;
  return true;
}

void DbInstance::AfterReset() {
  if (hold_from_ < 0) return;
  hold_ = false;
  hold_ms_ = static_cast<double>(clock_.NowNanos() - hold_from_) / 1e6;
  hold_from_ = -1;
}

void DbInstance::Join() {
  for (auto& w : workers_) {
    if (w->thread.joinable()) w->thread.join();
  }
}

int64_t DbInstance::LastNMaxNanos(int64_t since) const {
  std::vector<std::pair<int64_t, int64_t>> recent;
  for (const auto& w : workers_) {
    const uint64_t n = std::min<uint64_t>(w->last_pos.load(std::memory_order_acquire), kLastN);
    for (uint64_t i = 0; i < n; ++i) {
      const int64_t done = w->last_completed[i].load(std::memory_order_relaxed);
      if (done >= since) recent.emplace_back(done, w->last_rt[i].load(std::memory_order_relaxed));
    }
  }
  // The kLastN latest completions (ties broken as a full sort would); only needed when there are
  // more (one worker never has more): the controller asks once a second.
  if (recent.size() > static_cast<size_t>(kLastN)) {
    std::nth_element(recent.begin(), recent.begin() + (kLastN - 1), recent.end(), std::greater<>());
  }
  int64_t mx = 0;
  for (size_t i = 0; i < recent.size() && i < kLastN; ++i) mx = std::max(mx, recent[i].second);
  return mx;
}

int64_t DbInstance::StallNanos() const {
  if (options_.stall_nanos > 0) return options_.stall_nanos;
  const int64_t recent = LastNMaxNanos(0);
  return std::max(kMinStallNanos,
                  recent > INT64_MAX / kStallFactor ? INT64_MAX : recent * kStallFactor);
}

int64_t DbInstance::EndGraceNanos() const {
  const int64_t recent = LastNMaxNanos(0);
  return std::min(StallNanos(),
                  std::max(kMinEndGraceNanos, recent > INT64_MAX / 2 ? INT64_MAX : 2 * recent));
}

int64_t DbInstance::LastAnswerNanos() const {
  int64_t last = 0;
  for (const auto& w : workers_) {
    last = std::max(last, w->returned_at.load(std::memory_order_relaxed));
    last = std::max(last, w->last_failed_call.load(std::memory_order_relaxed));
    const uint64_t pos = w->last_pos.load(std::memory_order_acquire);
    if (pos > 0) {
      last = std::max(last, w->last_completed[(pos - 1) % kLastN].load(std::memory_order_relaxed));
    }
  }
  return last;
}

int DbInstance::InterruptStalled(int64_t now, bool ended) {
  // An embedded engine has no server to freeze: a unit waits on its own lock timeout (SQLite's
  // busy timeout) or on the local disk, which an interrupt would not shorten, so only a run that
  // asked for a stall timeout watches it.
  if (!backend_.capabilities().server && options_.stall_nanos == 0) return 0;
  // A unit waits since it began or since the server last answered one of its calls with an
  // error the driver retries (a deadlock found, a duplicate key): a unit retrying through a
  // chain of lock conflicts, 10 tries with back-offs, may take far longer than the stall timeout
  // on a server that answers all along.
  // After the end, units still in flight are waited for while the server answers any of them
  // (a chain of lock waits resolving one by one, PostgreSQL's deadlock detection taking a
  // second a link): cutting one would leave a statement the server completes and the client
  // never counts. Once nothing has answered for the end's grace, the server is taken for frozen
  // and every unit waiting longer than the grace is ended. A unit waiting as long as the stall
  // timeout is ended either way, as during the run.
  const bool silent = ended && now - LastAnswerNanos() >= EndGraceNanos();
  const int64_t waiting_before = now - (silent ? EndGraceNanos() : StallNanos());
  int n = 0;
  for (const auto& w : workers_) {
    int64_t since = w->unit_since.load(std::memory_order_relaxed);
    if (since == 0 || w->returned.load(std::memory_order_acquire) ||
        std::max(since, w->last_failed_call.load(std::memory_order_relaxed)) >= waiting_before) {
      continue;
    }
    // Once per unit: the unit's call returns with a lost connection, and a new unit has a new
    // start.
    if (w->unit_since.compare_exchange_strong(since, 0)) {
      std::lock_guard<std::mutex> lock(w->interrupt_mu);
      if (w->interrupt) w->interrupt();
      w->stalls.fetch_add(1);
      ++n;
    }
  }
  return n;
}

bool DbInstance::Returned() const {
  for (const auto& w : workers_) {
    if (w->thread.joinable() && !w->returned.load(std::memory_order_acquire)) return false;
  }
  return true;
}

int DbInstance::workers_stalled() const {
  int n = 0;
  for (const auto& w : workers_) {
    if (w->stalls.load() > 0) ++n;
  }
  return n;
}

int DbInstance::workers_failed() const {
  int n = 0;
  for (const auto& w : workers_) {
    if (w->state.load() == WorkerState::kFailed) ++n;
  }
  return n;
}

int64_t DbInstance::FirstUnitCompleted() const {
  int64_t first = 0;
  for (const auto& w : workers_) {
    const int64_t t = w->first_completed.load(std::memory_order_relaxed);
    if (t > 0 && (first == 0 || t < first)) first = t;
  }
  return first;
}

int64_t DbInstance::max_lag_seen() const {
  for (const auto& w : workers_) {
    if (w->state.load() == WorkerState::kLagExceeded) return w->max_lag_seen;
  }
  return 0;
}

void DbInstance::CloseSessions() {
  for (auto& w : workers_) w->session.reset();
}

void DbInstance::KeepSnapshots(SnapshotPoint point,
                               const std::vector<metrics::RecorderSnapshot>& per_worker) {
  auto& kept = point == SnapshotPoint::kReset ? units_at_reset_ : units_at_end_;
  kept.clear();
  if (idle_ != nullptr) return;
  // Background workers (last) have no units to share.
  for (size_t w = 0; w < per_worker.size() && w < static_cast<size_t>(options_.threads); ++w) {
    const metrics::RecorderSnapshot& s = per_worker[w];
    kept.emplace_back(s.types.empty() ? 0 : s.types[0].count(),
                      s.types.empty() ? 0 : s.types[0].sum());
  }
}

std::vector<metrics::ThreadShare> DbInstance::ThreadShares() const {
  std::vector<metrics::ThreadShare> out;
  for (size_t w = 0; w < units_at_end_.size(); ++w) {
    const std::pair<uint64_t, int64_t> base =
        w < units_at_reset_.size() ? units_at_reset_[w] : std::pair<uint64_t, int64_t>{0, 0};
    metrics::ThreadShare t;
    t.units = units_at_end_[w].first - base.first;
    t.busy_sec = static_cast<double>(units_at_end_[w].second - base.second) / 1e9;
    out.push_back(t);
  }
  return out;
}

}  // namespace sb::driver
