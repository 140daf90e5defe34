#include "driver/worker.h"

#include <algorithm>
#include <chrono>
#include <thread>

namespace sb::driver {
namespace {

// The OpContext a worker hands its session: the retry policy, pauses and messages. The unit's
// steps, counts and time are kept by the OpContext itself (UnitRecord) and recorded here.
class WorkerContext final : public workload::OpContext {
 public:
  WorkerContext(Worker& w, Clock& clock, const Layout& layout, const LoopLimits& limits,
                const RunSignals& signals, const std::function<void(const std::string&)>& message)
      : OpContext(clock, w.index),
        w_(w),
        sleep_clock_(clock),
        layout_(layout),
        limits_(limits),
        signals_(signals),
        message_(message) {}

  int64_t terminal() const override { return w_.pacer ? w_.pacer->terminal() : -1; }
  int64_t queued_nanos() const override { return w_.pacer ? w_.pacer->queued_nanos() : 0; }
  // The unit's first step type, or -1 when it recorded none (a failed unit).
  int first_step() const {
    int first = -1;
    unit().steps.ForEach([&](const workload::UnitRecord::Item& s) {
      if (first < 0) first = s.first;
    });
    return first;
  }
  bool rolled_back(int rollback_counter) const {
    bool found = false;
    unit().counts.ForEach([&](const workload::UnitRecord::Item& c) {
      if (c.first == rollback_counter && c.second > 0) found = true;
    });
    return found;
  }
  // Records what stays whatever becomes of the unit (CountNow): called after every unit, also
  // one that failed or was abandoned.
  void RecordCountsNow() {
    const auto& now = unit().counts_now;
    if (now.empty()) [[likely]] {
      return;
    }
    now.ForEach(
        [this](const workload::UnitRecord::Item& c) { w_.recorder.Add(c.first, c.second); });
  }
  // Records the unit and everything it did at once, as DVD Store adds an order's counts and
  // times together when the order completes: per-step counts then always add up to the units
  // completed in any window (n_login + n_newcust = n_overall).
  void EndUnit(int64_t unit_latency) {
    EndBackgroundWork();
    w_.recorder.Record(0, unit_latency);
  }
  // A background worker's call: its steps and counters, no unit.
  void EndBackgroundWork() {
    unit().steps.ForEach(
        [this](const workload::UnitRecord::Item& s) { w_.recorder.Record(1 + s.first, s.second); });
    unit().counts.ForEach(
        [this](const workload::UnitRecord::Item& c) { w_.recorder.Add(c.first, c.second); });
  }

  int64_t Pause(int64_t nanos) override {
    const int64_t start = Now();
    NapUntil(sleep_clock_, start + nanos, signals_);
    const int64_t end = Now();
    NoteClockRead(end);
    return end - start;
  }
  void Message(const std::string& text) override {
    if (message_) message_("Thread " + std::to_string(w_.index) + ": " + text);
  }

 private:
  // Timed's failure path: `s` is the first try's failure. Returns the last try's status.
  [[gnu::noinline]] Status Retry(FunctionRef<Status()> fn, Status s) override {
    for (int failure = 1;; ++failure) {
      if (failure > 1) {
        s = fn();
        if (s.ok()) break;
      }
      // The end's watchdog takes the server's error as an answer (DbInstance::LastAnswerNanos):
      // a unit that retries through a chain of deadlocks waits on a working server.
      if (s.code() == StatusCode::kDbError && s.category() != ErrorCategory::kConnectionLost) {
        w_.last_failed_call.store(sleep_clock_.NowNanos(), std::memory_order_relaxed);
      }
      w_.recorder.Add(layout_.ErrorIndex(s.category()));
      // A lost connection is not retried here: the worker reconnects and starts a new unit.
      const bool fatal = s.category() == ErrorCategory::kSyntax ||
                         s.category() == ErrorCategory::kConnectionLost ||
                         s.code() != StatusCode::kDbError;
      if (fatal || failure >= limits_.max_failures) {
        if (!fatal) {
          Message("error: " + s.message() + "; failure " + std::to_string(failure) + ", exiting");
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
        sleep_clock_.SleepFor(w_.retry_rng.Uniform(0, 999) * kNanosPerMilli);
      }
    }
    return s;
  }

  Worker& w_;
  Clock& sleep_clock_;  // the timing clock, for sleeping on
  const Layout& layout_;
  const LoopLimits& limits_;
  const RunSignals& signals_;
  const std::function<void(const std::string&)>& message_;
};

}  // namespace

Worker::Worker(int idx, const Layout& layout, uint64_t seed)
    : index(idx),
      recorder(layout.num_types(), layout.num_counters()),
      retry_rng(DeriveSeed(seed, {0, static_cast<uint64_t>(idx), 3})),
      ramp_rng(DeriveSeed(seed, {0, static_cast<uint64_t>(idx), 4})),
      op_log_rng(DeriveSeed(seed, {0, static_cast<uint64_t>(idx), 5})) {}

void NapUntil(Clock& clock, int64_t deadline, const RunSignals& signals) {
  while (!signals.Ended()) {
    const int64_t now = clock.NowNanos();
    if (now >= deadline) return;
    clock.SleepUntil(std::min(deadline, now + kPollNanos));
  }
}

void RunUnits(Worker& w, const Layout& layout, const LoopLimits& limits, Clock& clock,
              const RunSignals& signals, const std::function<void(const std::string&)>& message) {
  WorkerContext ctx(w, clock, layout, limits, signals, message);
  // What the loop checks per unit, read once: after the unit's virtual calls the compiler would
  // otherwise load each from `limits` and `w` again (callgrind, docs/driver-cost.md).
  Pacer& pacer = *w.pacer;
  const bool open = pacer.open_loop();
  const bool at_once = pacer.due_at_once();  // no virtual call per unit to learn "now"
  const bool background = w.background;
  const std::atomic<bool>* const hold = open ? nullptr : limits.hold;
  std::atomic<int64_t>* const units_left = background ? nullptr : limits.units_left;
  const bool need_start = open || limits.op_log != nullptr;
  const int64_t latency_limit = limits.latency_limit_nanos;
  const int64_t max_units = limits.max_units;
  const bool op_log = limits.op_log != nullptr;
  int64_t now = clock.NowNanos();
  int64_t units_done = 0;
  bool completed_one = false;  // first_completed is set
  std::string log_buf;
  auto log_unit = [&](int64_t intended, int64_t start, int64_t latency, const char* outcome,
                      int step) {
    if (limits.op_log == nullptr || w.op_log_rng.NextDouble() >= limits.op_log_sampling) return;
    const std::string& name =
        layout.unit_named_by_step && step >= 0 && step < static_cast<int>(layout.step_names.size())
            ? layout.step_names[static_cast<size_t>(step)]
            : layout.unit_name;
    char line[160];
    std::snprintf(line, sizeof line, "%d %s %lld %lld %lld %s\n", w.index, name.c_str(),
                  static_cast<long long>((intended - limits.t0) / 1000),
                  static_cast<long long>((start - limits.t0) / 1000),
                  static_cast<long long>(latency / 1000), outcome);
    log_buf += line;
    if (log_buf.size() >= size_t{64} * 1024) {
      limits.op_log->Write(log_buf);
      log_buf.clear();
    }
  };
  auto flush_log = [&] {
    if (limits.op_log != nullptr && !log_buf.empty()) limits.op_log->Write(log_buf);
  };
  while (!signals.Ended()) {
    const int64_t intended = at_once ? now : pacer.NextIntendedStart(now);
    // A unit due already (closed loop without think time) needs no reading to know it, and
    // the loop's condition has just looked at the end.
    if (intended > now) {
      NapUntil(clock, intended, signals);
      if (signals.Ended()) break;
    }
    if (hold != nullptr && hold->load(std::memory_order_acquire)) {
      w.held.store(true, std::memory_order_release);
      while (hold->load(std::memory_order_acquire) && !signals.Ended()) {
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
      w.held.store(false, std::memory_order_release);
      if (signals.Ended()) break;
    }
    if (units_left != nullptr && units_left->fetch_sub(1) <= 0) {
      break;
    }
    // The unit's start is only needed for the open loop's lag and the op log; the closed loop's
    // latency is the sum of the steps, each timed by its own readings (Timed). One clock
    // reading fewer per unit.
    const int64_t start = need_start ? clock.NowNanos() : intended;
    const int64_t lag = std::max<int64_t>(0, start - intended);
    if (open && lag > limits.max_lag_nanos) {
      w.max_lag_seen = lag;
      flush_log();
      w.state = WorkerState::kLagExceeded;
      return;
    }
    ctx.BeginUnit();
    w.unit_since.store(std::max<int64_t>(start, 1), std::memory_order_relaxed);
    Status unit = w.session->RunUnit(ctx);
    w.unit_since.store(0, std::memory_order_relaxed);
    ctx.RecordCountsNow();  // kept whatever becomes of the unit
    if (!unit.ok() && unit.category() == ErrorCategory::kConnectionLost && w.reconnect) {
      // The unit is abandoned (its steps are not recorded); reconnect with backoff until the
      // server answers or the run ends. The outage shows as seconds without units.
      ctx.Message("connection lost (" + unit.message() + "); reconnecting");
      w.session.reset();
      int64_t backoff = kReconnectFirstNanos;
      while (!signals.Ended()) {
        auto fresh = w.reconnect();
        if (fresh.ok()) {
          w.session = std::move(fresh).value();
          w.recorder.Add(layout.reconnects());
          ctx.Message("reconnected");
          break;
        }
        NapUntil(clock, clock.NowNanos() + backoff, signals);
        backoff = std::min<int64_t>(backoff * 2, kReconnectCapNanos);
      }
      if (!w.session) break;  // the run ended while the server was away
      now = clock.NowNanos();
      continue;
    }
    if (!unit.ok()) {
      log_unit(intended, start, clock.NowNanos() - (open ? intended : start), "error", -1);
      flush_log();
      w.error = unit;
      ctx.Message("exiting: " + unit.message());
      w.state = WorkerState::kFailed;
      return;
    }
    // The open loop's latency ends with a reading after the unit; the closed loop's completion
    // instant (the last units' window, the next think time's start) is the end of the unit's
    // last step when it had one.
    now = !open && ctx.unit().read_clock ? ctx.unit().last_read : clock.NowNanos();
    if (background) {
      w.recorder.BeginBatch();
      ctx.EndBackgroundWork();
      w.recorder.EndBatch();
      continue;
    }
    // Closed loop: DVD Store's rt_tot. Open loop: from the intended start, queueing included.
    const int64_t latency = open ? now - intended : ctx.unit().nanos;
    w.recorder.BeginBatch();  // a snapshot sees the whole unit or none of it
    ctx.EndUnit(latency);
    if (open) w.recorder.Record(layout.lag_type(), lag);
    if (latency_limit > 0 && latency > latency_limit) {
      w.recorder.Add(layout.late());
    }
    w.recorder.EndBatch();
    w.PushLast(now, latency);
    if (!completed_one) {
      completed_one = true;
      w.first_completed.store(now, std::memory_order_relaxed);
    }
    if (op_log) {  // rolled_back() scans the unit's counts
      log_unit(intended, start, latency,
               ctx.rolled_back(layout.rollback_counter) ? "rollback" : "ok", ctx.first_step());
    }
    if (max_units > 0 && ++units_done >= max_units) break;
  }
  flush_log();
  if (w.state.load() != WorkerState::kFailed) w.state = WorkerState::kDone;
}

}  // namespace sb::driver
