#include "driver/runner.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <thread>
#include <vector>

#include "base/random.h"
#include "driver/controller.h"
#include "driver/db_instance.h"
#include "driver/db_view.h"
#include "driver/server_check.h"
#include "driver/sut_cpu.h"
#include "metrics/recorder.h"

namespace sb::driver {
namespace {

// One instance's parts that live for the run: the instance, its op log, its server check.
struct InstanceRun {
  const DbInstanceSpec* spec = nullptr;
  std::unique_ptr<OpLog> op_log;
  std::unique_ptr<DbInstance> instance;
  std::unique_ptr<ServerCheck> check;
  ServerReading check_start, check_end;
  bool check_started = false;
};

DbInstanceOptions InstanceOptions(const RunOptions& o) {
  DbInstanceOptions io;
  io.threads = o.threads;
  io.ramp_rate = o.ramp_rate;
  io.seed = o.seed;
  io.think_time_sec = o.think_time_sec;
  io.rate_per_sec = o.rate_per_sec;
  io.poisson = o.poisson;
  io.limits.max_lag_nanos = o.max_lag_nanos;
  io.limits.latency_limit_nanos = o.latency_limit_nanos;
  io.limits.max_failures = o.max_failures;
  io.limits.max_units = o.units_per_thread;
  io.units_total = o.units_total;
  io.stall_nanos = o.stall_nanos;
  return io;
}

// A run in which the server left units unanswered: its figures count the silence as time
// without units, so it must not pass as a good run (docs/measurement.md#stalled-workers).
Status StalledStatus(const std::string& instance, int stalled, int64_t stall_nanos) {
  char buf[400];
  std::snprintf(buf, sizeof buf,
                "%s%d worker%s stalled: the server did not answer a unit within the stall "
                "timeout (%.1f s during the run, less after its end), so the connection was "
                "closed; the measured figures include the time without answers",
                instance.empty() ? "" : ("instance " + instance + ": ").c_str(), stalled,
                stalled == 1 ? "" : "s", static_cast<double>(stall_nanos) / 1e9);
  return Status::FailedPrecondition(buf);
}

// The process's CPU over the measured window, and a warning when the client was the bottleneck.
void SetDriverCpu(metrics::RunResult* r, double cpu) {
  const uint64_t units = r->latency.empty() ? 0 : r->latency[0].count;
  r->driver_cpu_sec = cpu;
  r->driver_cpu_sec_per_op = units > 0 ? cpu / static_cast<double>(units) : 0;
  r->driver_cpu_share = r->measured_sec > 0 ? cpu / r->measured_sec : 0;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  if (r->driver_cpu_share >= 0.9 * cores) {
    char buf[300];
    std::snprintf(buf, sizeof buf,
                  "the storebench process used %.0f %% of this machine's %u cores during the "
                  "measured window: the result may measure the client machine, not the server",
                  100.0 * r->driver_cpu_share / cores, cores);
    r->warnings.emplace_back(buf);
  }
}

// Whether DVD Store 3 prints a status line at this sample: every log_freq seconds from Start,
// the run's last second included (ds3xdriver.cs prints at every i_sec with i_sec % log_freq ==
// 0, up to warm-up plus run time, then the Final line). The last second's line carries the
// end sample's figures: a whole tick less than half a tick before the planned end leaves its
// line to the end sample (the reset came a little late), and a run stopped early (a signal,
// units done) prints none there, as DS3 has no such end.
bool StatusDue(const Sample& s, int64_t log_freq_sec) {
  if (log_freq_sec <= 0) return false;
  constexpr int64_t kTick = kNanosPerSecond;
  if (s.finished) {
    if (s.end_at == INT64_MAX || s.now < s.end_at) return false;
    const int64_t second = (s.now - s.t0 + kTick / 2) / kTick;
    return second > 0 && second % log_freq_sec == 0;
  }
  if (s.tick <= 0 || s.tick % log_freq_sec != 0) return false;
  return s.end_at == INT64_MAX || s.end_at - s.now >= kTick / 2;
}

// Each instance with its op log and server check, ready for the controller.
Status OpenInstances(const std::vector<DbInstanceSpec>& specs, const RunOptions& common,
                     Clock& clock, const std::function<void(const std::string&)>& message,
                     const RunCallbacks& cb, std::vector<InstanceRun>* runs,
                     std::vector<Instance*>* instances,
                     std::vector<const DbInstance*>* db_instances) {
  const bool several = specs.size() > 1;
  for (size_t i = 0; i < specs.size(); ++i) {
    const DbInstanceSpec& spec = specs[i];
    InstanceRun& ir = (*runs)[i];
    ir.spec = &spec;
    DbInstanceOptions io = InstanceOptions(spec.options);
    if (!spec.options.op_log_path.empty()) {
      auto opened = OpLog::Open(spec.options.op_log_path);
      if (!opened.ok()) return opened.status();
      ir.op_log = std::move(opened).value();
      io.limits.op_log = ir.op_log.get();
      io.limits.op_log_sampling = spec.options.op_log_sampling;
    }
    std::function<void(const std::string&)> instance_message = message;
    if (several) {
      instance_message = [message, name = spec.name](const std::string& m) {
        std::string line = "[" + name;
        line += "] ";
        line += m;
        message(line);
      };
    }
    ir.instance = std::make_unique<DbInstance>(spec.name, *spec.workload, *spec.backend, clock, io,
                                               instance_message);
    if (cb.on_thread) {
      // DVD Store 3 hands thread t to target t mod n; instances of unequal sizes (a plan) are
      // numbered one after the other.
      const bool even = std::all_of(specs.begin(), specs.end(), [&](const DbInstanceSpec& o) {
        return o.options.threads == spec.options.threads;
      });
      int64_t before = 0;
      for (size_t k = 0; k < i; ++k) before += specs[k].options.threads;
      const auto n = static_cast<int64_t>(specs.size());
      ir.instance->set_thread_event([&cb, &spec, even, before, n, i](int w, bool connected) {
        const int64_t t = even ? w * n + static_cast<int64_t>(i) : before + w;
        cb.on_thread(t, spec.target, connected);
      });
    }
    if (spec.options.server_check) {
      ir.check = std::make_unique<ServerCheck>(*spec.workload, *spec.backend, clock);
      if (common.warmup_nanos > 0) {
        ir.instance->set_warmup_reading([&ir] {
          ir.check_start = ir.check->Start();
          ir.check_started = true;
        });
      }
    }
    instances->push_back(ir.instance.get());
    db_instances->push_back(ir.instance.get());
  }
  return Status::Ok();
}

// The controller's settings for a database run: the run's times and every window measured once.
ControllerOptions ControllerOptionsFor(const RunOptions& common) {
  ControllerOptions co;
  co.warmup_nanos = common.warmup_nanos;
  co.run_nanos = common.run_nanos;
  co.connect_timeout_nanos = common.connect_timeout_nanos;
  co.stop = common.stop;
  co.peers = common.peers;
  co.end_on_tick = common.end_on_tick;
  co.system_cpu = false;
  co.realtime = true;
  // The user's windows and the baselines', each measured once.
  for (const auto& b : common.baselines) {
    if (b.window.label == metrics::kWholeRunWindow) continue;  // the measured window itself
    if (std::none_of(common.windows.begin(), common.windows.end(),
                     [&](const metrics::WindowSpec& w) { return w.label == b.window.label; })) {
      co.windows.push_back(b.window);
    }
  }
  co.windows.insert(co.windows.begin(), common.windows.begin(), common.windows.end());
  return co;
}

// Instance i's result after the run: its figures, its failures, the server cross-check.
metrics::RunResult FinishInstance(const std::vector<DbInstanceSpec>& specs, size_t i,
                                  InstanceRun& ir, DbView& view, const ControllerOutcome& run,
                                  const RunOptions& common, RunOutcome* out) {
  const bool several = specs.size() > 1;
  metrics::RunResult r = view.Finish(run);
  if (several) {
    r.name = specs[i].name;
    r.target = specs[i].target;
    r.workload = specs[i].workload->name();
  }
  if (const Activity a = ir.instance->Check(); a.all_failed) {
    // The workers' own "exiting" lines go to the console (DVD Store's); the result says why too.
    std::string m = several ? "every thread of instance " + specs[i].name + " stopped on an error"
                            : "every thread stopped on an error";
    if (!a.first_error.ok()) m += " (the first: " + a.first_error.message() + ")";
    const Status s = Status::FailedPrecondition(m);
    if (out->status.ok()) out->status = s;
    r.warnings.push_back(s.message());
  }
  if (const int stalled = ir.instance->workers_stalled(); stalled > 0) {
    const Status s =
        StalledStatus(several ? specs[i].name : "", stalled, ir.instance->StallNanos());
    if (out->status.ok()) out->status = s;
    r.warnings.push_back(s.message());
  }
  if (run.lagging_instance == static_cast<int>(i)) {
    char buf[260];
    std::snprintf(buf, sizeof buf,
                  "%sthe system fell %.1f s behind the requested rate of %g/s (max_lag %.1f s); "
                  "the run stopped instead of silently dropping work",
                  several ? ("instance " + specs[i].name + ": ").c_str() : "",
                  static_cast<double>(ir.instance->max_lag_seen()) / 1e9,
                  specs[i].options.rate_per_sec,
                  static_cast<double>(specs[i].options.max_lag_nanos) / 1e9);
    out->status = Status::FailedPrecondition(buf);
  }
  const bool at_once = common.at_once != nullptr && common.at_once->load();
  if (ir.check_started && at_once) {
    r.warnings.push_back("the server cross-check was skipped: a signal asked to stop at once");
  } else if (ir.check_started && ir.instance->workers_stalled() > 0) {
    r.warnings.push_back("the server cross-check was skipped: the server left units unanswered");
  } else if (ir.check_started) {
    // Close every worker's connection first: the span then ends after their last unit, and a
    // server that counts a session's work late has it by the time the session is gone.
    ir.instance->CloseSessions();
    bool settled = true;
    ir.check_end = ir.check->End(&settled);
    const bool exact = common.warmup_nanos <= 0 || ir.instance->reading_exact();
    r.server_check =
        CompareReadings(*specs[i].workload, ir.check_start, ir.check_end, view.SinceReset(run),
                        exact, &r.warnings, r.measured_sec, &r.figures);
    r.server_check.counters_settled = settled;
    r.server_check.hold_ms = ir.instance->hold_ms();
    r.server_check.span = common.warmup_nanos > 0
                              ? "from the end of warm-up to the end of the run, wind-down "
                                "included"
                              : "from before the workers began to the end of the run, "
                                "wind-down included";
  }
  if (ir.op_log) {
    if (Status s = ir.op_log->Close(); !s.ok() && out->status.ok()) out->status = s;
  }
  r.threads = ir.instance->ThreadShares();
  out->instance_whole_run.push_back(view.WholeRun(run));
  return r;
}

// The system under test's CPU points and their mean and maximum over the measured window.
void SetSutCpu(SutCpuProbe& probe, const ControllerOutcome& run, metrics::SutCpu* sc) {
  sc->source = probe.Source();
  sc->points = probe.Points(run.t0, &sc->error);
  const double from = static_cast<double>(run.reset_at - run.t0) / 1e9;
  const double to = static_cast<double>(run.end_at - run.t0) / 1e9;
  double sum = 0;
  int n = 0;
  for (const metrics::CpuPoint& p : sc->points) {
    if (p.t_sec <= from || p.t_sec > to + 0.5) continue;
    sum += p.utilization_pct;
    sc->measured_max_pct = std::max(sc->measured_max_pct, p.utilization_pct);
    ++n;
  }
  sc->measured_mean_pct = n > 0 ? sum / n : 0;
}

// The controller's question each second: an op log, a workload's own output or a caller's that
// failed during the run ends it, as what follows would be measured without being written.
std::function<Status()> OutputErrorCheck(std::vector<InstanceRun>& runs, const RunCallbacks& cb) {
  return [&runs, &cb]() -> Status {
    for (InstanceRun& ir : runs) {
      if (ir.op_log) SB_RETURN_IF_ERROR(ir.op_log->Error());
      SB_RETURN_IF_ERROR(ir.spec->workload->OutputError());
    }
    return cb.output_error ? cb.output_error() : Status::Ok();
  };
}

// What the whole run adds to the result: the driver's and the system's CPU, and why the
// measured window is shorter than asked when an output failed.
void FinishResult(const ControllerOutcome& run, SutCpuProbe* sut_cpu, metrics::RunResult* r) {
  SetDriverCpu(r, run.process_cpu_sec);
  if (sut_cpu != nullptr) SetSutCpu(*sut_cpu, run, &r->sut_cpu);
  if (!run.output_error.ok()) {
    r->warnings.push_back("the run ended early: " + run.output_error.message());
  }
}

// The aggregate's result of a run of several instances: the merged view's figures, the earliest
// first unit, every baseline judged per instance and combined, each instance's warnings and
// threads, and the instances' own results.
metrics::RunResult MergeInstanceResults(DbView& aggregate, const ControllerOutcome& run,
                                        const std::vector<DbInstanceSpec>& specs,
                                        const RunOptions& common,
                                        std::vector<metrics::RunResult> results) {
  metrics::RunResult r = aggregate.Finish(run);
  for (const metrics::RunResult& ir : results) {
    if (ir.first_unit_sec >= 0 && (r.first_unit_sec < 0 || ir.first_unit_sec < r.first_unit_sec)) {
      r.first_unit_sec = ir.first_unit_sec;
      r.first_unit_at = ir.first_unit_at;
    }
  }
  r.workload = specs[0].workload->name();
  // Every baseline is judged per instance; the run passes when every instance passes (the
  // minimum over instances, as TPC-VMS reports).
  std::vector<std::string> names;
  for (const auto& spec : specs) names.push_back(spec.name);
  r.baselines.clear();
  for (size_t b = 0; b < common.baselines.size(); ++b) {
    std::vector<metrics::BaselineResult> per;
    for (const auto& ir : results) {
      if (b < ir.baselines.size()) per.push_back(ir.baselines[b]);
    }
    r.baselines.push_back(metrics::CombineBaselines(per, names, common.baselines[b]));
  }
  for (const auto& ir : results) {
    for (const auto& w : ir.warnings) r.warnings.push_back("instance " + ir.name + ": " + w);
  }
  for (const auto& ir : results) {
    r.threads.insert(r.threads.end(), ir.threads.begin(), ir.threads.end());
  }
  r.instances = std::move(results);
  return r;
}

}  // namespace

int64_t DrawThinkTimeNanos(Random& rng, double think_time_sec) {
  const auto t_ms = static_cast<int64_t>(std::floor(1000 * think_time_sec));
  if (t_ms <= 0) return 0;
  return rng.Next(2 * t_ms) * kNanosPerMilli;
}

RunOutcome Runner::Run(const RunOptions& options, const RunCallbacks& callbacks) {
  DbInstanceSpec one;
  one.name = "1";
  one.workload = workload_;
  one.backend = backend_;
  one.options = options;
  return RunMany({one}, options, callbacks);
}

RunOutcome Runner::RunMany(const std::vector<DbInstanceSpec>& specs, const RunOptions& common,
                           const RunCallbacks& cb) {
  RunOutcome out;
  if (specs.empty()) {
    out.status = Status::InvalidArgument("a run needs at least one instance");
    return out;
  }
  const bool several = specs.size() > 1;
  const std::function<void(const std::string&)> message = [&](const std::string& m) {
    if (cb.on_message) cb.on_message(m);
  };
  std::vector<InstanceRun> runs(specs.size());
  std::vector<Instance*> instances;
  std::vector<const DbInstance*> db_instances;
  out.status =
      OpenInstances(specs, common, clock_, message, cb, &runs, &instances, &db_instances);
  if (!out.status.ok()) return out;

  const ControllerOptions co = ControllerOptionsFor(common);
  const RunOptions& view_options = common;

  // One view per instance, and the aggregate when there are several.
  const workload::Shape& shape = specs[0].workload->shape();
  std::vector<DbView> views;
  std::vector<int> all;
  for (size_t i = 0; i < specs.size(); ++i) {
    views.emplace_back(db_instances, std::vector<int>{static_cast<int>(i)},
                       specs[i].workload->shape(), view_options);
    // The aggregate merges histograms type by type, so it holds the instances of the first
    // instance's workload; instances of other workloads are in the result's instance list.
    if (specs[i].workload->name() == specs[0].workload->name()) all.push_back(static_cast<int>(i));
  }
  std::unique_ptr<DbView> aggregate;
  if (several) aggregate = std::make_unique<DbView>(db_instances, all, shape, view_options);
  DbView& main_view = several ? *aggregate : views[0];

  std::unique_ptr<SutCpuProbe> sut_cpu;
  if (common.sut_cpu) sut_cpu = std::make_unique<SutCpuProbe>(clock_, common.sut_cpu_cmd);
  ControllerCallbacks ccb;
  ccb.output_error = OutputErrorCheck(runs, cb);
  ccb.on_start = [&] {
    if (sut_cpu) sut_cpu->Start();
    if (cb.on_start) {
      cb.on_start();
    } else {
      message("Controller: all threads connected - issuing Start");
    }
    if (cb.on_phase) cb.on_phase(common.warmup_nanos > 0 ? "warmup" : "measure");
    if (common.warmup_nanos <= 0) {
      for (InstanceRun& ir : runs) {
        if (ir.check) {
          ir.check_start = ir.check->Start();
          ir.check_started = true;
        }
      }
    }
  };
  ccb.on_sample = [&](const Sample& s) {
    std::vector<metrics::StatusFigures> per;
    for (DbView& v : views) per.push_back(v.OnSample(s));
    const metrics::StatusFigures f = several ? aggregate->OnSample(s) : per[0];
    if (cb.on_interval_units) {
      metrics::Histogram units;
      for (int i : all) {
        const auto& types = (*s.interval)[static_cast<size_t>(i)].types;
        if (!types.empty()) units.Merge(types[0]);
      }
      cb.on_interval_units(units);
    }
    if (cb.on_live_totals) {
      std::vector<metrics::LiveTotals> live;
      for (size_t i = 0; i < views.size(); ++i) {
        live.push_back(views[i].Live());
        live.back().workload = specs[i].workload->name();
        live.back().instance = specs[i].name;
        live.back().elapsed_sec = per[i].et_sec;
      }
      cb.on_live_totals(std::move(live));
    }
    if (cb.on_interval) cb.on_interval(main_view.series(), f);
    if (cb.on_phase) {
      for (int w : s.windows_started) cb.on_phase("window " + co.windows[w].label + " start");
      for (int w : s.windows_ended) cb.on_phase("window " + co.windows[w].label + " end");
    }
    if (cb.on_status && StatusDue(s, common.log_freq_sec)) {
      cb.on_status(f);
      main_view.MarkStatus();
      if (several) {
        for (size_t i = 0; i < views.size(); ++i) {
          if (cb.on_instance_status) cb.on_instance_status(specs[i].name, per[i]);
          views[i].MarkStatus();
        }
      }
    }
  };
  ccb.on_reset = [&](const std::vector<metrics::RecorderSnapshot>& at_reset, int64_t reset_at) {
    for (DbView& v : views) v.OnReset(at_reset, reset_at);
    if (several) aggregate->OnReset(at_reset, reset_at);
    message("Stats reset");
    if (cb.on_phase) cb.on_phase("measure");
  };

  const std::string started_at = WallClockIsoUtc();
  Controller controller(clock_, co);
  ControllerOutcome run = controller.Run(instances, ccb);
  if (sut_cpu) sut_cpu->Stop();
  if (!run.status.ok()) {
    out.status = run.status;
    return out;
  }
  out.status = run.output_error;
  const std::string ended_at = WallClockIsoUtc();
  out.t0 = run.t0;
  out.reset_at = run.reset_at;
  out.end_at = run.end_at;

  std::vector<metrics::RunResult> results;
  for (size_t i = 0; i < specs.size(); ++i) {
    metrics::RunResult r = FinishInstance(specs, i, runs[i], views[i], run, common, &out);
    r.started_at = started_at;
    r.ended_at = ended_at;
    if (const int64_t first = runs[i].instance->FirstUnitCompleted(); first > 0) {
      r.first_unit_sec = static_cast<double>(first - run.t0) / 1e9;
      // How long ago it was, read just before the wall clock (not once for every instance:
      // finishing one, its cross-check and all, takes time).
      r.first_unit_at = WallClockIsoUtcAgo(clock_.NowNanos() - first);
    }
    results.push_back(std::move(r));
  }

  if (several) {
    out.result = MergeInstanceResults(*aggregate, run, specs, common, std::move(results));
    out.result.started_at = started_at;
    out.result.ended_at = ended_at;
    out.whole_run = aggregate->WholeRun(run);
  } else {
    out.result = std::move(results[0]);
    out.whole_run = out.instance_whole_run[0];
  }
  FinishResult(run, sut_cpu.get(), &out.result);
  return out;
}

}  // namespace sb::driver
