#include "driver/io_instance.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "backend/io/aligned_buffer.h"
#include "base/random.h"
#include "driver/pacer.h"
#include "workload/storage/access_generator.h"

namespace sb::driver {
namespace {

constexpr size_t kRandomPool = 4 << 20;  // full_random writes take windows of this buffer

struct Slot {
  int64_t start = 0;
  uint32_t size = 0;
  int target = 0;  // fixed: the slot belongs to this target
  int line = 0;
  bool read = true;
};

std::vector<storage::GeneratorTarget> GeneratorTargets(const IoRunConfig& c, int spec_index,
                                                       int worker) {
  std::vector<storage::GeneratorTarget> out;
  for (size_t t = 0; t < c.targets.size(); ++t) {
    out.push_back({c.targets[t].range_start, c.targets[t].range_bytes,
                   DeriveSeed(c.seed, {static_cast<uint64_t>(spec_index),
                                       static_cast<uint64_t>(worker), 2, t})});
  }
  return out;
}

class WorkerLoop {
 public:
  WorkerLoop(IoWorker& w, const io::EngineRegistry& engines, const storage::AccessSpec& spec,
             int spec_index, const IoRunConfig& c, Clock& clock, const RunSignals& signals,
             const int64_t& t0)
      : w_(w),
        engines_(engines),
        spec_(spec),
        c_(c),
        clock_(clock),
        signals_(signals),
        t0_(t0),
        lines_(static_cast<int>(spec.lines.size())),
        gen_(spec,
             DeriveSeed(c.seed,
                        {static_cast<uint64_t>(spec_index), static_cast<uint64_t>(w.index), 1}),
             GeneratorTargets(c, spec_index, w.index)),
        rng_(DeriveSeed(c.seed,
                        {static_cast<uint64_t>(spec_index), static_cast<uint64_t>(w.index), 3})) {}

  void Run() {
    Status s = Setup();
    if (!s.ok()) {
      w_.error = s;
      w_.failed = true;
      w_.ready = true;
      return;
    }
    w_.ready = true;
    if (!signals_.WaitForStart()) {
      engine_->Close();
      return;
    }
    s = c_.rate_iops > 0 ? OpenLoop() : Loop();
    if (!s.ok()) {
      w_.error = s;
      w_.failed = true;
    }
    engine_->Close();
  }

 private:
  Status Setup() {
    const int targets = static_cast<int>(c_.targets.size());
    auto e = engines_.Create(c_.engine, {.queue_depth = c_.outstanding * targets});
    if (!e.ok()) return e.status();
    engine_ = std::move(e).value();
    // A synchronous engine has one I/O in flight: one slot per target, taken in turn.
    depth_ = (engine_->is_async() ? c_.outstanding : 1) * targets;
    for (const IoTarget& t : c_.targets) {
      auto f = engine_->Open(t.path, {.direct = c_.direct, .write = c_.allow_write});
      if (!f.ok()) return f.status();
      files_.push_back(*f);
    }
    const size_t max = spec_.MaxTransfer();
    slots_.resize(depth_);
    free_.resize(depth_);
    for (int i = 0; i < depth_; ++i) {
      buffers_.emplace_back(max);
      slots_[i].target = i % targets;  // Iometer: round-robin over the targets, depth by depth
      free_[i] = i;
    }
    free_count_ = depth_;
    batch_.resize(depth_);
    comps_.resize(depth_);
    if (c_.pattern == storage::DataPattern::kPseudoRandom) {
      for (auto& b : buffers_) storage::FillPattern(c_.pattern, rng_, 0, b.data(), b.size());
    } else if (c_.pattern == storage::DataPattern::kFullRandom && spec_.HasWrites()) {
      pool_ = io::AlignedBuffer(kRandomPool + max);
      storage::FillPattern(c_.pattern, rng_, 0, pool_.data(), pool_.size());
    }
    return Status::Ok();
  }

  // The free slots, first freed first (Iometer's available-transaction queue).
  int PopFree() {
    const int slot = free_[free_head_];
    if (++free_head_ == depth_) free_head_ = 0;
    --free_count_;
    return slot;
  }
  void PushFree(int slot) {
    int at = free_head_ + free_count_;
    if (at >= depth_) at -= depth_;
    free_[at] = slot;
    ++free_count_;
  }

  void* WriteBuffer(int slot, uint32_t size) {
    switch (c_.pattern) {
      case storage::DataPattern::kRepeating:
        // Iometer: memset(write_data, rand(), size) for each write.
        std::memset(buffers_[slot].data(), static_cast<int>(rng_.Next64() & 0xff), size);
        return buffers_[slot].data();
      case storage::DataPattern::kPseudoRandom:
        return buffers_[slot].data();
      case storage::DataPattern::kFullRandom:
        return pool_.data() + rng_.Next(kRandomPool / io::kDirectAlignment) * io::kDirectAlignment;
    }
    return buffers_[slot].data();
  }

  // Sleeps for a burst delay while the run goes on, completing I/Os meanwhile.
  Status Delay(int ms) {
    const int64_t until = clock_.NowNanos() + ms * kNanosPerMilli;
    while (!signals_.Ended()) {
      if (in_flight_ > 0) {
        SB_RETURN_IF_ERROR(ReapSome(0));
      }
      const int64_t now = clock_.NowNanos();
      if (now >= until) break;
      clock_.SleepUntil(std::min(until, now + std::min<int64_t>(kPollNanos, kNanosPerMilli)));
    }
    return Status::Ok();
  }

  // `timeout_nanos` >= 0: wait at most that long for `min` completions.
  Status ReapSome(int min, int64_t timeout_nanos = -1) {
    auto got = timeout_nanos >= 0 ? engine_->ReapWithin(comps_.data(), min, depth_, timeout_nanos)
                                  : engine_->Reap(comps_.data(), min, depth_);
    if (!got.ok()) return got.status();
    if (*got == 0) return Status::Ok();
    const int64_t now = clock_.NowNanos();
    for (int i = 0; i < *got; ++i) {
      const int slot = static_cast<int>(comps_[i].tag);
      const Slot& sl = slots_[slot];
      if (comps_[i].result == static_cast<int64_t>(sl.size)) {
        w_.recorder.Record(IoLayout::TypeOf(sl.target, lines_, sl.line, sl.read), now - sl.start);
      } else {
        w_.recorder.Add(IoLayout::ErrorCounter(sl.target, sl.read));
        if (comps_[i].result < 0 && first_error_.empty()) {
          first_error_ = io::ErrnoMessage(static_cast<int>(-comps_[i].result));
        }
      }
      PushFree(slot);
    }
    in_flight_ -= *got;
    return Status::Ok();
  }

  Status Loop() {
    while (!signals_.Ended()) {
      int n = 0;
      while (free_count_ > 0) {
        const int slot = PopFree();
        Slot& sl = slots_[slot];
        const storage::IoDecision d = gen_.Next(sl.target);
        if (d.delay_ms > 0) {
          SB_RETURN_IF_ERROR(SubmitBatch(n));
          n = 0;
          SB_RETURN_IF_ERROR(Delay(d.delay_ms));
          if (signals_.Ended()) break;
        }
        sl.size = d.size;
        sl.read = d.read;
        sl.line = d.line;
        Prepare(n++, slot, d);
        if (n == c_.submit_batch) {
          SB_RETURN_IF_ERROR(SubmitBatch(n));
          n = 0;
        }
      }
      SB_RETURN_IF_ERROR(SubmitBatch(n));
      if (in_flight_ > 0) SB_RETURN_IF_ERROR(ReapSome(1));
    }
    return Drain();
  }

  // Open loop: each I/O is due at its scheduled start (the pacer's, as the database open loop's),
  // and its latency runs from there, so the time it waited for a free slot counts (no
  // coordinated omission). Due I/Os are submitted as slots free up; between them the worker
  // waits for a completion or the next scheduled start, whichever comes first
  // (IoEngine::ReapWithin), so completions are timed as they arrive. A worker that falls more
  // than max_lag behind stops the run, as the database open loop does. Iometer's burst delays
  // set a pace of their own and are refused with a rate (cli/).
  Status OpenLoop() {
    auto pacer = NewOpenLoopPacer(c_.rate_iops, c_.workers, w_.index,
                                  c_.poisson ? Arrival::kPoisson : Arrival::kConstant, t0_,
                                  DeriveSeed(c_.seed, {static_cast<uint64_t>(w_.index), 4}));
    int64_t due = pacer->NextIntendedStart(t0_);
    while (!signals_.Ended()) {
      int64_t now = clock_.NowNanos();
      int n = 0;
      while (free_count_ > 0 && due <= now) {
        const int64_t lag = now - due;
        if (lag > w_.max_lag) w_.max_lag = lag;
        if (lag > c_.max_lag_nanos) {
          SB_RETURN_IF_ERROR(SubmitBatch(n, /*stamp_now=*/false));
          w_.lagging = true;
          return Drain();
        }
        const int slot = PopFree();
        Slot& sl = slots_[slot];
        const storage::IoDecision d = gen_.Next(sl.target);
        sl.size = d.size;
        sl.read = d.read;
        sl.line = d.line;
        sl.start = due;
        Prepare(n++, slot, d);
        if (n == c_.submit_batch) {
          SB_RETURN_IF_ERROR(SubmitBatch(n, /*stamp_now=*/false));
          n = 0;
        }
        due = pacer->NextIntendedStart(now);
      }
      SB_RETURN_IF_ERROR(SubmitBatch(n, /*stamp_now=*/false));
      now = clock_.NowNanos();
      // Wait for the next due I/O (when a slot is free for it) or a completion; never longer
      // than the poll interval, so the end of the run is seen.
      const int64_t until = std::min(free_count_ > 0 ? due : INT64_MAX, now + kPollNanos);
      if (until <= now) continue;
      if (in_flight_ > 0) {
        SB_RETURN_IF_ERROR(ReapSome(1, until - now));
      } else {
        clock_.SleepUntil(until);
      }
    }
    return Drain();
  }

  void Prepare(int at, int slot, const storage::IoDecision& d) {
    io::IoRequest& r = batch_[at];
    r.op = d.read ? io::IoOp::kRead : io::IoOp::kWrite;
    r.file = files_[slots_[slot].target];
    r.offset = d.offset;
    r.length = d.size;
    r.buffer = d.read ? buffers_[slot].data() : WriteBuffer(slot, d.size);
    r.tag = static_cast<uint64_t>(slot);
  }

  Status Drain() {
    while (in_flight_ > 0) SB_RETURN_IF_ERROR(ReapSome(1));  // not counted
    // Failed I/Os are counted (Iometer's error columns); the first one's reason is kept.
    w_.first_io_error = first_error_;
    return Status::Ok();
  }

  // `stamp_now`: the I/Os start now (closed loop); else each keeps its scheduled start.
  Status SubmitBatch(int n, bool stamp_now = true) {
    if (n == 0) return Status::Ok();
    if (stamp_now) {
      const int64_t now = clock_.NowNanos();
      for (int i = 0; i < n; ++i) slots_[batch_[i].tag].start = now;
    }
    int done = 0;
    while (done < n) {
      auto got = engine_->Submit(&batch_[done], n - done);
      if (!got.ok()) return got.status();
      done += *got;
      in_flight_ += *got;
      if (done < n) SB_RETURN_IF_ERROR(ReapSome(1));  // the engine is full: make room
    }
    return Status::Ok();
  }

  IoWorker& w_;
  const io::EngineRegistry& engines_;
  const storage::AccessSpec& spec_;
  const IoRunConfig& c_;
  Clock& clock_;
  const RunSignals& signals_;
  const int64_t& t0_;  // the instance's, set before the start gate opens
  int lines_;
  storage::AccessGenerator gen_;
  Random rng_;
  std::unique_ptr<io::IoEngine> engine_;
  std::vector<int> files_;  // per target
  int depth_ = 1;
  int in_flight_ = 0;
  std::vector<io::AlignedBuffer> buffers_;
  io::AlignedBuffer pool_;
  std::vector<int> free_;  // ring of free slots
  int free_head_ = 0, free_count_ = 0;
  std::vector<Slot> slots_;
  std::vector<io::IoRequest> batch_;
  std::vector<io::IoCompletion> comps_;
  std::string first_error_;
};

}  // namespace

IoInstance::IoInstance(std::string name, const io::EngineRegistry& engines,
                       const storage::AccessSpec& spec, int spec_index, const IoRunConfig& config,
                       Clock& clock)
    : name_(std::move(name)),
      engines_(engines),
      spec_(spec),
      spec_index_(spec_index),
      config_(config),
      clock_(clock),
      layout_{static_cast<int>(config.targets.size()), static_cast<int>(spec.lines.size())} {
  for (int i = 0; i < config.workers; ++i) {
    workers_.push_back(std::make_unique<IoWorker>(i, layout_.Types(), layout_.Counters()));
  }
}

IoInstance::~IoInstance() { Join(); }

void IoInstance::Launch(RunSignals& signals) {
  for (auto& w : workers_) {
    w->thread = std::thread([this, &signals, wp = w.get()] {
      WorkerLoop loop(*wp, engines_, spec_, spec_index_, config_, clock_, signals, t0_);
      loop.Run();
    });
  }
}

Readiness IoInstance::Ready() const {
  Readiness r;
  r.total = static_cast<int>(workers_.size());
  for (const auto& w : workers_) {
    if (!w->ready.load()) continue;
    if (w->failed.load()) {
      if (r.failed++ == 0) {
        r.first_error = Status(w->error.code(),
                               "worker " + std::to_string(w->index) + ": " + w->error.message());
      }
    } else {
      ++r.ready;
    }
  }
  return r;
}

std::vector<const metrics::Recorder*> IoInstance::Recorders() const {
  std::vector<const metrics::Recorder*> r;
  for (const auto& w : workers_) r.push_back(&w->recorder);
  return r;
}

void IoInstance::KeepSnapshots(SnapshotPoint point,
                               const std::vector<metrics::RecorderSnapshot>& per_worker) {
  if (point == SnapshotPoint::kReset) at_reset_ = per_worker;
  if (point == SnapshotPoint::kEnd) at_end_ = per_worker;
}

Activity IoInstance::Check() const {
  Activity a;
  a.all_failed =
      std::all_of(workers_.begin(), workers_.end(), [](const auto& w) { return w->failed.load(); });
  a.finished = a.all_failed;
  a.lagging = std::any_of(workers_.begin(), workers_.end(),
                          [](const auto& w) { return w->lagging.load(); });
  return a;
}

void IoInstance::Join() {
  for (auto& w : workers_) {
    if (w->thread.joinable()) w->thread.join();
  }
}

Status IoInstance::FirstFailure() const {
  for (const auto& w : workers_) {
    if (w->failed.load()) {
      return Status(w->error.code(),
                    "worker " + std::to_string(w->index) + ": " + w->error.message());
    }
  }
  return Status::Ok();
}

int64_t IoInstance::max_lag_seen() const {
  for (const auto& w : workers_) {
    if (w->lagging.load()) return w->max_lag;
  }
  return 0;
}

std::string IoInstance::FirstIoError() const {
  for (const auto& w : workers_) {
    if (!w->first_io_error.empty()) return w->first_io_error;
  }
  return "";
}

}  // namespace sb::driver
