#include "driver/io_runner.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "backend/io/aligned_buffer.h"
#include "base/random.h"
#include "driver/proc_stat.h"
#include "metrics/recorder.h"
#include "workload/storage/access_generator.h"

namespace sb::driver {
namespace {

// Recorder types: one per target, spec line and direction (type = 2·(target·lines + line) +
// write), so bytes are count × the line's size, exactly consistent with the I/O counts in any
// snapshot.
int TypeOf(int target, int lines, int line, bool read) {
  return 2 * (target * lines + line) + (read ? 0 : 1);
}
// Counters: failed I/Os per target and direction.
int ErrorCounter(int target, bool read) { return 2 * target + (read ? 0 : 1); }
constexpr size_t kRandomPool = 4 << 20;  // full_random writes take windows of this buffer
constexpr int64_t kPollNanos = 100 * kNanosPerMilli;

struct Worker {
  Worker(int i, int types, int counters) : index(i), recorder(types, counters) {}
  int index;
  metrics::Recorder recorder;
  Status error;
  std::string first_io_error;  // written by the worker before it ends
  std::atomic<bool> ready{false}, failed{false};
  std::thread thread;
};

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
  WorkerLoop(Worker& w, const io::EngineRegistry& engines, const storage::AccessSpec& spec,
             int spec_index, const IoRunConfig& c, Clock& clock, const std::atomic<bool>& start,
             const std::atomic<bool>& end)
      : w_(w),
        engines_(engines),
        spec_(spec),
        c_(c),
        clock_(clock),
        start_(start),
        end_(end),
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
    while (!start_.load() && !end_.load()) std::this_thread::sleep_for(std::chrono::microseconds(200));
    s = Loop();
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
    while (!end_.load(std::memory_order_relaxed)) {
      if (in_flight_ > 0) {
        SB_RETURN_IF_ERROR(ReapSome(0));
      }
      const int64_t now = clock_.NowNanos();
      if (now >= until) break;
      clock_.SleepUntil(std::min(until, now + std::min<int64_t>(kPollNanos, kNanosPerMilli)));
    }
    return Status::Ok();
  }

  Status ReapSome(int min) {
    auto got = engine_->Reap(comps_.data(), min, depth_);
    if (!got.ok()) return got.status();
    if (*got == 0) return Status::Ok();
    const int64_t now = clock_.NowNanos();
    for (int i = 0; i < *got; ++i) {
      const int slot = static_cast<int>(comps_[i].tag);
      const Slot& sl = slots_[slot];
      if (comps_[i].result == static_cast<int64_t>(sl.size)) {
        w_.recorder.Record(TypeOf(sl.target, lines_, sl.line, sl.read), now - sl.start);
      } else {
        w_.recorder.Add(ErrorCounter(sl.target, sl.read));
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
    while (!end_.load(std::memory_order_relaxed)) {
      int n = 0;
      while (free_count_ > 0) {
        const int slot = PopFree();
        Slot& sl = slots_[slot];
        const storage::IoDecision d = gen_.Next(sl.target);
        if (d.delay_ms > 0) {
          SB_RETURN_IF_ERROR(SubmitBatch(n));
          n = 0;
          SB_RETURN_IF_ERROR(Delay(d.delay_ms));
          if (end_.load(std::memory_order_relaxed)) break;
        }
        sl.size = d.size;
        sl.read = d.read;
        sl.line = d.line;
        io::IoRequest& r = batch_[n++];
        r.op = d.read ? io::IoOp::kRead : io::IoOp::kWrite;
        r.file = files_[sl.target];
        r.offset = d.offset;
        r.length = d.size;
        r.buffer = d.read ? buffers_[slot].data() : WriteBuffer(slot, d.size);
        r.tag = static_cast<uint64_t>(slot);
        if (n == c_.submit_batch) {
          SB_RETURN_IF_ERROR(SubmitBatch(n));
          n = 0;
        }
      }
      SB_RETURN_IF_ERROR(SubmitBatch(n));
      if (in_flight_ > 0) SB_RETURN_IF_ERROR(ReapSome(1));
    }
    while (in_flight_ > 0) SB_RETURN_IF_ERROR(ReapSome(1));  // drain, not counted
    // Failed I/Os are counted (Iometer's error columns); the first one's reason is kept.
    w_.first_io_error = first_error_;
    return Status::Ok();
  }

  Status SubmitBatch(int n) {
    if (n == 0) return Status::Ok();
    const int64_t now = clock_.NowNanos();
    for (int i = 0; i < n; ++i) slots_[batch_[i].tag].start = now;
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

  Worker& w_;
  const io::EngineRegistry& engines_;
  const storage::AccessSpec& spec_;
  const IoRunConfig& c_;
  Clock& clock_;
  const std::atomic<bool>& start_;
  const std::atomic<bool>& end_;
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

// The read and write histograms of a snapshot, and the bytes they moved.
struct Directions {
  metrics::Histogram read, write;
  uint64_t read_bytes = 0, write_bytes = 0;
};

// The shape of the recorders: types per target, line and direction; error counters per target
// and direction.
struct Shape {
  int targets, lines;
  int Types() const { return 2 * targets * lines; }
  int Counters() const { return 2 * targets; }
};

// Over one target, or over all of them (target = -1).
Directions Split(const metrics::RecorderSnapshot& s, const storage::AccessSpec& spec, Shape shape,
                 int target) {
  Directions d;
  for (int t = 0; t < shape.targets; ++t) {
    if (target >= 0 && t != target) continue;
    for (int line = 0; line < shape.lines; ++line) {
      const metrics::Histogram& r = s.types[TypeOf(t, shape.lines, line, true)];
      const metrics::Histogram& w = s.types[TypeOf(t, shape.lines, line, false)];
      d.read.Merge(r);
      d.write.Merge(w);
      d.read_bytes += r.count() * spec.lines[line].size;
      d.write_bytes += w.count() * spec.lines[line].size;
    }
  }
  return d;
}

metrics::IoCounts CountsOf(const metrics::RecorderSnapshot& s, const storage::AccessSpec& spec,
                           Shape shape, int target) {
  metrics::IoCounts c;
  const Directions d = Split(s, spec, shape, target);
  const metrics::Histogram& r = d.read;
  const metrics::Histogram& w = d.write;
  c.read_ios = r.count();
  c.write_ios = w.count();
  c.read_latency_sum_ns = r.sum();
  c.write_latency_sum_ns = w.sum();
  c.read_latency_max_ns = r.max();
  c.write_latency_max_ns = w.max();
  c.read_bytes = d.read_bytes;
  c.write_bytes = d.write_bytes;
  for (int t = 0; t < shape.targets; ++t) {
    if (target >= 0 && t != target) continue;
    c.read_errors += static_cast<uint64_t>(s.counters[ErrorCounter(t, true)]);
    c.write_errors += static_cast<uint64_t>(s.counters[ErrorCounter(t, false)]);
  }
  metrics::Histogram all = r;
  all.Merge(w);
  c.latency_bins = metrics::IometerLatencyBins(all);
  return c;
}

double Ms(int64_t nanos) { return static_cast<double>(nanos) / 1e6; }

}  // namespace

Result<metrics::StorageTest> RunStorageTest(const io::EngineRegistry& engines,
                                            const storage::AccessSpec& spec, int spec_index,
                                            const IoRunConfig& c, Clock& clock,
                                            const std::function<void(const std::string&)>& progress) {
  if (c.workers < 1 || c.outstanding < 1) {
    return Status::InvalidArgument("workers and outstanding I/Os must be at least 1");
  }
  if (c.submit_batch < 0) {
    return Status::InvalidArgument("submit_batch must be 0 (every free slot) or positive");
  }
  if (c.targets.empty()) return Status::InvalidArgument("no target");
  for (const IoTarget& t : c.targets) {
    if (t.range_bytes < static_cast<uint64_t>(spec.MaxTransfer()) + (1 << 20)) {
      return Status::InvalidArgument(
          "the test range of '" + t.path + "' (" + std::to_string(t.range_bytes) +
          " B) is too small for transfers of " + std::to_string(spec.MaxTransfer()) + " B");
    }
  }
  if (spec.HasWrites() && !c.allow_write) {
    return Status::FailedPrecondition("access specification '" + spec.name +
                                      "' writes, but writing to the target is not allowed");
  }
  std::atomic<bool> start{false}, end{false};
  std::vector<std::unique_ptr<Worker>> workers;
  const Shape shape{static_cast<int>(c.targets.size()), static_cast<int>(spec.lines.size())};
  for (int i = 0; i < c.workers; ++i) {
    workers.push_back(std::make_unique<Worker>(i, shape.Types(), shape.Counters()));
  }
  for (auto& w : workers) {
    w->thread = std::thread([&, wp = w.get()] {
      WorkerLoop loop(*wp, engines, spec, spec_index, c, clock, start, end);
      loop.Run();
    });
  }
  auto join_all = [&] {
    end = true;
    for (auto& w : workers) w->thread.join();
  };
  for (auto& w : workers) {
    while (!w->ready.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (w->failed.load()) {
      join_all();
      return Status(w->error.code(), "worker " + std::to_string(w->index) + ": " + w->error.message());
    }
  }

  auto snapshot = [&](std::vector<metrics::RecorderSnapshot>* per, metrics::RecorderSnapshot* all) {
    per->resize(workers.size());
    *all = metrics::RecorderSnapshot();
    for (size_t i = 0; i < workers.size(); ++i) {
      workers[i]->recorder.Snapshot(&(*per)[i]);
      all->Merge((*per)[i]);
    }
  };
  metrics::StorageTest t;
  std::vector<metrics::RecorderSnapshot> base_per, now_per;
  metrics::RecorderSnapshot base, prev, now_all;
  snapshot(&base_per, &base);
  prev = base;
  const int64_t t0 = clock.NowNanos();
  const int64_t ramp_end = t0 + c.ramp_nanos;
  const int64_t end_at = ramp_end + c.run_nanos;
  ProcStat cpu0 = ReadProcStat();
  double proc0 = ProcessCpuSeconds();
  int64_t measure_start = t0;
  bool ramped = c.ramp_nanos == 0;
  start = true;
  bool stopped = false;
  for (int64_t tick = 1;; ++tick) {
    int64_t tick_at = std::min(t0 + tick * kNanosPerSecond, end_at);
    if (!ramped) tick_at = std::min(tick_at, ramp_end);
    while (clock.NowNanos() < tick_at) {
      if (c.stop != nullptr && c.stop->load()) {
        stopped = true;
        break;
      }
      clock.SleepUntil(std::min(tick_at, clock.NowNanos() + kPollNanos));
    }
    const int64_t now = clock.NowNanos();
    snapshot(&now_per, &now_all);
    metrics::RecorderSnapshot iv = now_all;
    iv.Subtract(prev);
    metrics::StorageInterval p;
    p.t_sec = static_cast<double>(now - t0) / 1e9;
    p.phase = ramped ? "measure" : "ramp";
    const Directions d = Split(iv, spec, shape, -1);
    p.read_ios = d.read.count();
    p.write_ios = d.write.count();
    p.read_bytes = d.read_bytes;
    p.write_bytes = d.write_bytes;
    metrics::Histogram h = d.read;
    h.Merge(d.write);
    p.mean_ms = h.mean() / 1e6;
    p.p99_ms = Ms(h.ValueAtPercentile(99));
    p.max_ms = Ms(h.max());
    t.series.push_back(p);
    prev = now_all;
    if (!ramped && now >= ramp_end) {
      ramped = true;
      base = now_all;
      base_per = now_per;
      cpu0 = ReadProcStat();
      proc0 = ProcessCpuSeconds();
      measure_start = now;
    }
    const bool all_failed = std::all_of(workers.begin(), workers.end(),
                                        [](const auto& w) { return w->failed.load(); });
    if (stopped || all_failed || (ramped && now >= end_at)) {
      t.measured_sec = ramped ? static_cast<double>(now - measure_start) / 1e9 : 0;
      break;
    }
  }
  const ProcStat cpu1 = ReadProcStat();
  t.driver_cpu_sec = ProcessCpuSeconds() - proc0;
  join_all();
  for (const auto& w : workers) {
    if (w->failed.load()) {
      return Status(w->error.code(), "worker " + std::to_string(w->index) + ": " + w->error.message());
    }
  }
  t.interrupted = stopped;
  t.cpu = CpuBetween(cpu0, cpu1, t.measured_sec);
  metrics::RecorderSnapshot window = now_all;
  window.Subtract(base);
  t.totals = CountsOf(window, spec, shape, -1);
  for (size_t i = 0; i < workers.size(); ++i) {
    metrics::RecorderSnapshot wi = now_per[i];
    wi.Subtract(base_per[i]);
    t.per_worker.push_back(CountsOf(wi, spec, shape, -1));
    t.per_worker_target.emplace_back();
    for (int target = 0; target < shape.targets; ++target) {
      t.per_worker_target.back().push_back(CountsOf(wi, spec, shape, target));
    }
  }
  const Directions dirs = Split(window, spec, shape, -1);
  const metrics::Histogram& rh = dirs.read;
  const metrics::Histogram& wh = dirs.write;
  metrics::Histogram all = rh;
  all.Merge(wh);
  t.read_p50_ms = Ms(rh.ValueAtPercentile(50));
  t.read_p99_ms = Ms(rh.ValueAtPercentile(99));
  t.read_p999_ms = Ms(rh.ValueAtPercentile(99.9));
  t.write_p50_ms = Ms(wh.ValueAtPercentile(50));
  t.write_p99_ms = Ms(wh.ValueAtPercentile(99));
  t.write_p999_ms = Ms(wh.ValueAtPercentile(99.9));
  t.all_p50_ms = Ms(all.ValueAtPercentile(50));
  t.all_p90_ms = Ms(all.ValueAtPercentile(90));
  t.all_p99_ms = Ms(all.ValueAtPercentile(99));
  t.all_p999_ms = Ms(all.ValueAtPercentile(99.9));
  t.all_p9999_ms = Ms(all.ValueAtPercentile(99.99));

  t.name = spec.name;
  for (const auto& l : spec.lines) t.spec_lines.push_back(l.ToIcfLine());
  for (const IoTarget& target : c.targets) {
    t.targets.push_back({target.path, target.range_start, target.range_bytes});
  }
  t.engine = c.engine;
  t.workers = c.workers;
  t.outstanding = c.outstanding;
  t.submit_batch = c.submit_batch;
  t.direct = c.direct;
  t.data_pattern = storage::DataPatternName(c.pattern);
  t.ramp_sec = static_cast<double>(c.ramp_nanos) / 1e9;
  if (t.totals.read_errors + t.totals.write_errors > 0 && progress) {
    progress("warning: " + std::to_string(t.totals.read_errors + t.totals.write_errors) +
             " I/O errors in '" + spec.name + "', e.g. " + workers[0]->first_io_error);
  }
  return t;
}

}  // namespace sb::driver
