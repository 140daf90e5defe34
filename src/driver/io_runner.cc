#include "driver/io_runner.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "driver/controller.h"
#include "driver/io_instance.h"
#include "driver/proc_net.h"
#include "driver/proc_stat.h"
#include "metrics/headline.h"
#include "metrics/recorder.h"
#include "metrics/windows.h"

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

// A test's totals since its Start for the live endpoint: latency by direction, bytes and
// errors (the counters' names say the direction, which the endpoint makes a label).
metrics::LiveTotals LiveOf(const metrics::RecorderSnapshot& cumulative,
                           const storage::AccessSpec& spec, const IoLayout& shape) {
  const Directions d = Split(cumulative, spec, shape, -1);
  int64_t read_errors = 0, write_errors = 0;
  for (int target = 0; target < shape.targets; ++target) {
    read_errors += cumulative.counters[IoLayout::ErrorCounter(target, true)];
    write_errors += cumulative.counters[IoLayout::ErrorCounter(target, false)];
  }
  metrics::LiveTotals t;
  t.workload = "storage";
  t.instance = "1";
  t.spec = spec.name;
  t.unit = "io";
  t.unit_ops = {"read", "write"};
  t.units = {d.read, d.write};
  t.counter_names = {"read_bytes", "write_bytes", "read_errors", "write_errors"};
  t.counters = {static_cast<int64_t>(d.read_bytes), static_cast<int64_t>(d.write_bytes),
                read_errors, write_errors};
  return t;
}

// The windows and baselines of one storage test, from the controller's window snapshots and the
// test's series.
void StorageWindows(const ControllerOutcome& run, const storage::AccessSpec& spec,
                    const IoLayout& shape, const IoRunConfig& c, const metrics::TimeSeries& series,
                    metrics::StorageTest* t) {
  const std::vector<metrics::HeadlineSpec> headlines = metrics::StorageHeadlines();
  auto window_of = [&](const metrics::RecorderSnapshot& d, const std::string& label, double start,
                       double end, double secs, bool complete) {
    metrics::WindowResult w;
    w.label = label;
    w.start_sec = start;
    w.end_sec = end;
    w.complete = complete;
    const Directions dirs = Split(d, spec, shape, -1);
    metrics::Histogram all = dirs.read;
    all.Merge(dirs.write);
    w.latency = {metrics::LatencySummary::From(all), metrics::LatencySummary::From(dirs.read),
                 metrics::LatencySummary::From(dirs.write)};
    const double ios = static_cast<double>(all.count());
    w.per_minute = secs > 0 ? 60 * ios / secs : 0;
    auto per_sec = [&](double n) { return secs > 0 ? n / secs : 0; };
    w.headlines = {{"iops", per_sec(ios)},
                   {"read_iops", per_sec(static_cast<double>(dirs.read.count()))},
                   {"write_iops", per_sec(static_cast<double>(dirs.write.count()))},
                   {"mib_per_sec",
                    per_sec(static_cast<double>(dirs.read_bytes + dirs.write_bytes)) / 1048576}};
    const metrics::Spread sp = metrics::SpreadOf(metrics::PerSecond(series, 0, start, end));
    w.per_sec_min = sp.min;
    w.per_sec_mean = sp.mean;
    w.per_sec_median = sp.median;
    w.per_sec_max = sp.max;
    return w;
  };
  std::vector<metrics::WindowResult> windows;
  for (const WindowMeasure& m : run.windows) {
    if (!m.started) {
      windows.push_back(window_of(metrics::RecorderSnapshot(), m.spec.label, m.spec.start_sec,
                                  m.spec.end_sec, 0, false));
      continue;
    }
    const double secs = static_cast<double>(m.end_at - run.t0) / 1e9 - m.spec.start_sec;
    windows.push_back(
        window_of(m.delta[0], m.spec.label, m.spec.start_sec, m.spec.end_sec, secs, m.complete));
  }
  metrics::RecorderSnapshot measured = run.at_end[0];
  measured.Subtract(run.at_reset[0]);
  const double reset_sec = static_cast<double>(run.reset_at - run.t0) / 1e9;
  windows.push_back(window_of(measured, metrics::kWholeRunWindow, reset_sec,
                              static_cast<double>(run.end_at - run.t0) / 1e9,
                              run.warmed_up ? run.measured_sec() : 0, !run.interrupted));
  for (const auto& w : c.windows) {
    for (const auto& o : windows) {
      if (o.label == w.label) t->windows.push_back(o);
    }
  }
  metrics::BaselineContext context;
  context.series = &series;
  context.reset_sec = reset_sec;
  context.headlines = &headlines;
  for (const auto& b : c.baselines) {
    for (const auto& o : windows) {
      if (o.label == b.window.label) {
        t->baselines.push_back(metrics::EvaluateBaseline(b, o, "I/Os", context));
        break;
      }
    }
  }
}

// Refuses a run the engines cannot do: no workers, targets or room for a transfer, or writes
// where writing is not allowed.
Status CheckIoRun(const storage::AccessSpec& spec, const IoRunConfig& c) {
  if (c.workers < 1 || c.outstanding < 1) {
    return Status::InvalidArgument("workers and outstanding I/Os must be at least 1");
  }
  if (c.submit_batch < 0) {
    return Status::InvalidArgument("submit_batch must be 0 (every free slot) or positive");
  }
  if (c.targets.empty()) return Status::InvalidArgument("no target");
  // Iometer accepts any maximum disk size (ICFs with a small one are valid); what an I/O needs
  // is room for its transfer from the range's first aligned offset, where the generator wraps
  // (access_generator.h).
  for (const IoTarget& t : c.targets) {
    for (const storage::AccessLine& l : spec.lines) {
      const uint64_t align = l.align != 0 ? l.align : storage::kSectorBytes;
      const uint64_t first = (t.range_start + align - 1) / align * align;
      if (first + l.size > t.range_start + t.range_bytes) {
        return Status::InvalidArgument(
            "the test range of '" + t.path + "' (" + std::to_string(t.range_bytes) +
            " B) holds no aligned " + std::to_string(l.size) + " B transfer of '" + spec.name +
            "' (alignment " + std::to_string(align) +
            " B); give a larger --max_size (or the ICF's maximum disk size) or a smaller transfer");
      }
    }
  }
  if (spec.HasWrites() && !c.allow_write) {
    return Status::FailedPrecondition("access specification '" + spec.name +
                                      "' writes, but writing to the target is not allowed");
  }
  return Status::Ok();
}

// The controller's settings for a test: ramp, run time and every window measured once.
ControllerOptions IoControllerOptions(const IoRunConfig& c) {
  ControllerOptions co;
  co.warmup_nanos = c.ramp_nanos;
  co.run_nanos = c.run_nanos;
  co.stop = c.stop;
  co.peers = c.peers;
  co.end_on_tick = c.end_on_tick;
  co.realtime = true;
  co.windows = c.windows;
  for (const auto& b : c.baselines) {
    if (b.window.label == metrics::kWholeRunWindow) continue;  // the measured window itself
    if (std::none_of(co.windows.begin(), co.windows.end(),
                     [&](const metrics::WindowSpec& w) { return w.label == b.window.label; })) {
      co.windows.push_back(b.window);
    }
  }
  return co;
}

// Read, write and overall latency percentiles over the measured window.
void SetPercentiles(const Directions& dirs, metrics::StorageTest* t) {
  const metrics::Histogram& rh = dirs.read;
  const metrics::Histogram& wh = dirs.write;
  metrics::Histogram all = rh;
  all.Merge(wh);
  t->read_p50_ms = Ms(rh.ValueAtPercentile(50));
  t->read_p99_ms = Ms(rh.ValueAtPercentile(99));
  t->read_p999_ms = Ms(rh.ValueAtPercentile(99.9));
  t->write_p50_ms = Ms(wh.ValueAtPercentile(50));
  t->write_p99_ms = Ms(wh.ValueAtPercentile(99));
  t->write_p999_ms = Ms(wh.ValueAtPercentile(99.9));
  t->all_p50_ms = Ms(all.ValueAtPercentile(50));
  t->all_p90_ms = Ms(all.ValueAtPercentile(90));
  t->all_p99_ms = Ms(all.ValueAtPercentile(99));
  t->all_p999_ms = Ms(all.ValueAtPercentile(99.9));
  t->all_p9999_ms = Ms(all.ValueAtPercentile(99.99));
}

// What ran: the specification, the targets and the engine's settings.
void DescribeTest(const storage::AccessSpec& spec, const IoRunConfig& c, metrics::StorageTest* t) {
  t->name = spec.name;
  for (const auto& l : spec.lines) t->spec_lines.push_back(l.ToIcfLine());
  for (const IoTarget& target : c.targets) {
    t->targets.push_back({target.path, target.range_start, target.range_bytes, target.extents,
                          target.extents_note, target.filesystem});
  }
  t->engine = c.engine;
  t->workers = c.workers;
  t->outstanding = c.outstanding;
  t->submit_batch = c.submit_batch;
  t->direct = c.direct;
  t->data_pattern = storage::DataPatternName(c.pattern);
  t->ramp_sec = static_cast<double>(c.ramp_nanos) / 1e9;
}

}  // namespace

Result<metrics::StorageTest> RunStorageTest(
    const io::EngineRegistry& engines, const storage::AccessSpec& spec, int spec_index,
    const IoRunConfig& c, Clock& clock, const std::function<void(const std::string&)>& progress) {
  SB_RETURN_IF_ERROR(CheckIoRun(spec, c));
  IoInstance instance("1", engines, spec, spec_index, c, clock);
  const IoLayout& shape = instance.layout();
  metrics::StorageTest t;
  const ControllerOptions co = IoControllerOptions(c);
  // The series windows, baselines and live outputs read (types io, read, write; bytes).
  metrics::TimeSeries generic;
  generic.type_names = {"io", "read", "write"};
  generic.counter_names = {"read_bytes", "write_bytes"};
  uint64_t ios_at_reset = 0;
  int64_t reset_at = 0;
  ControllerCallbacks cb;
  cb.on_reset = [&](const std::vector<metrics::RecorderSnapshot>& at_reset, int64_t at) {
    const Directions d = Split(at_reset[0], spec, shape, -1);
    ios_at_reset = d.read.count() + d.write.count();
    reset_at = at;
  };
  cb.on_sample = [&](const Sample& s) {
    if (reset_at == 0) reset_at = s.reset_at;
    // One split of the interval feeds both series: the Iometer-style one and the generic one
    // windows, baselines and live outputs read.
    const Directions d = Split((*s.interval)[0], spec, shape, -1);
    metrics::Histogram all = d.read;
    all.Merge(d.write);
    metrics::StorageInterval p;
    p.t_sec = s.t_sec;
    p.phase = s.warmup ? "ramp" : "measure";
    p.read_ios = d.read.count();
    p.write_ios = d.write.count();
    p.read_bytes = d.read_bytes;
    p.write_bytes = d.write_bytes;
    p.mean_ms = all.mean() / 1e6;
    p.p99_ms = Ms(all.ValueAtPercentile(99));
    p.max_ms = Ms(all.max());
    t.series.push_back(p);
    metrics::IntervalPoint g;
    g.t_sec = s.t_sec;
    g.phase = p.phase;
    for (const metrics::Histogram* h :
         std::initializer_list<const metrics::Histogram*>{&all, &d.read, &d.write}) {
      g.type_counts.push_back(h->count());
      g.type_mean_ms.push_back(h->mean() / 1e6);
      g.type_p99_ms.push_back(Ms(h->ValueAtPercentile(99)));
    }
    g.counters = {static_cast<int64_t>(d.read_bytes), static_cast<int64_t>(d.write_bytes)};
    generic.points.push_back(std::move(g));
    if (c.on_interval) {
      const Directions cum = Split((*s.cumulative)[0], spec, shape, -1);
      metrics::StatusFigures f;
      f.et_sec = static_cast<double>(s.now - reset_at) / 1e9;
      f.n_overall = static_cast<int64_t>(cum.read.count() + cum.write.count() - ios_at_reset);
      f.opm = f.et_sec > 0
                  ? static_cast<int64_t>(60.0 * static_cast<double>(f.n_overall) / f.et_sec)
                  : 0;
      c.on_interval(generic, f);
    }
    if (c.on_live_totals) {
      metrics::LiveTotals live = LiveOf((*s.cumulative)[0], spec, shape);
      live.elapsed_sec = static_cast<double>(s.now - reset_at) / 1e9;
      c.on_live_totals(spec_index, live);
    }
  };
  Controller controller(clock, co);
  ControllerOutcome run = controller.Run({&instance}, cb);
  if (!run.status.ok()) return run.status;
  if (c.on_times) c.on_times(run.t0, run.reset_at, run.end_at);
  if (Status s = instance.FirstFailure(); !s.ok()) return s;
  t.measured_sec = run.warmed_up ? run.measured_sec() : 0;
  t.driver_cpu_sec = run.process_cpu_sec;
  t.interrupted = run.interrupted;
  if (c.rate_iops > 0) {
    t.rate_iops = c.rate_iops;
    t.arrival = c.poisson ? "poisson" : "constant";
  }
  if (run.lagging_instance >= 0) {
    char buf[260];
    std::snprintf(buf, sizeof buf,
                  "the target fell %.1f s behind the requested rate of %g I/Os per second "
                  "(max_lag %.1f s); the test stopped instead of silently dropping I/Os",
                  static_cast<double>(instance.max_lag_seen()) / 1e9, c.rate_iops,
                  static_cast<double>(c.max_lag_nanos) / 1e9);
    t.stopped = buf;
  }
  t.cpu = CpuBetween(run.system_at_reset, run.system_at_end, t.measured_sec);
  t.per_cpu = PerCpuBetween(run.system_at_reset, run.system_at_end, t.measured_sec);
  t.net = NetBetween(run.net_at_reset, run.net_at_end, t.measured_sec);
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
  StorageWindows(run, spec, shape, c, generic, &t);
  SetPercentiles(Split(window, spec, shape, -1), &t);

  DescribeTest(spec, c, &t);
  if (t.totals.read_errors + t.totals.write_errors > 0 && progress) {
    progress("warning: " + std::to_string(t.totals.read_errors + t.totals.write_errors) +
             " I/O errors in '" + spec.name + "', e.g. " + instance.FirstIoError());
  }
  return t;
}

}  // namespace sb::driver
