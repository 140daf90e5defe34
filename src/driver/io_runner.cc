#include "driver/io_runner.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "driver/controller.h"
#include "driver/io_instance.h"
#include "driver/proc_stat.h"
#include "metrics/recorder.h"

namespace sb::driver {
namespace {

// The read and write histograms of a snapshot, and the bytes they moved.
struct Directions {
  metrics::Histogram read, write;
  uint64_t read_bytes = 0, write_bytes = 0;
};

// Over one target, or over all of them (target = -1).
Directions Split(const metrics::RecorderSnapshot& s, const storage::AccessSpec& spec,
                 const IoLayout& shape, int target) {
  Directions d;
  for (int t = 0; t < shape.targets; ++t) {
    if (target >= 0 && t != target) continue;
    for (int line = 0; line < shape.lines; ++line) {
      const metrics::Histogram& r = s.types[IoLayout::TypeOf(t, shape.lines, line, true)];
      const metrics::Histogram& w = s.types[IoLayout::TypeOf(t, shape.lines, line, false)];
      d.read.Merge(r);
      d.write.Merge(w);
      d.read_bytes += r.count() * spec.lines[line].size;
      d.write_bytes += w.count() * spec.lines[line].size;
    }
  }
  return d;
}

metrics::IoCounts CountsOf(const metrics::RecorderSnapshot& s, const storage::AccessSpec& spec,
                           const IoLayout& shape, int target) {
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
    c.read_errors += static_cast<uint64_t>(s.counters[IoLayout::ErrorCounter(t, true)]);
    c.write_errors += static_cast<uint64_t>(s.counters[IoLayout::ErrorCounter(t, false)]);
  }
  metrics::Histogram all = r;
  all.Merge(w);
  c.latency_bins = metrics::IometerLatencyBins(all);
  return c;
}

double Ms(int64_t nanos) { return static_cast<double>(nanos) / 1e6; }

}  // namespace

Result<metrics::StorageTest> RunStorageTest(
    const io::EngineRegistry& engines, const storage::AccessSpec& spec, int spec_index,
    const IoRunConfig& c, Clock& clock, const std::function<void(const std::string&)>& progress) {
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
  IoInstance instance("1", engines, spec, spec_index, c, clock);
  const IoLayout& shape = instance.layout();
  metrics::StorageTest t;
  ControllerOptions co;
  co.warmup_nanos = c.ramp_nanos;
  co.run_nanos = c.run_nanos;
  co.stop = c.stop;
  ControllerCallbacks cb;
  cb.on_sample = [&](const Sample& s) {
    const metrics::RecorderSnapshot& iv = (*s.interval)[0];
    metrics::StorageInterval p;
    p.t_sec = s.t_sec;
    p.phase = s.warmup ? "ramp" : "measure";
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
  };
  Controller controller(clock, co);
  ControllerOutcome run = controller.Run({&instance}, cb);
  if (!run.status.ok()) return run.status;
  if (Status s = instance.FirstFailure(); !s.ok()) return s;
  t.measured_sec = run.warmed_up ? run.measured_sec() : 0;
  t.driver_cpu_sec = run.process_cpu_sec;
  t.interrupted = run.interrupted;
  t.cpu = CpuBetween(run.system_at_reset, run.system_at_end, t.measured_sec);
  metrics::RecorderSnapshot window = run.at_end[0];
  window.Subtract(run.at_reset[0]);
  t.totals = CountsOf(window, spec, shape, -1);
  const auto& base_per = instance.per_worker_at_reset();
  const auto& now_per = instance.per_worker_at_end();
  for (size_t i = 0; i < now_per.size(); ++i) {
    metrics::RecorderSnapshot wi = now_per[i];
    if (i < base_per.size()) wi.Subtract(base_per[i]);
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
             " I/O errors in '" + spec.name + "', e.g. " + instance.FirstIoError());
  }
  return t;
}

}  // namespace sb::driver
