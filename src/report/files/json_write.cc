// The result document written from a RunResult (docs/output-schema.md describes every key).
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "report/files/json_document.h"
#include "report/files/json_report.h"
#include "version/version.h"

namespace sb::report::internal {

namespace {

using metrics::RunResult;

// 2^53: doubles below this that are whole numbers convert to int64 exactly.
constexpr double kMaxExactInteger = 9007199254740992.0;

// A measured quantity; non-finite values (never produced on purpose) become null.

// A figure or headline: whole numbers are written as integers ("opm": 12345), NaN as null.
Json Figure(double v) {
  if (!std::isfinite(v)) return Json(nullptr);
  if (v == std::floor(v) && std::fabs(v) < kMaxExactInteger) return Json(static_cast<int64_t>(v));
  return Json(v);
}

Json ConfigObject(const std::string& text) {
  if (text.empty()) return Json::object();
  Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    Json wrapped = Json::object();
    wrapped["unparsed"] = text;
    return wrapped;
  }
  return j;
}

}  // namespace

Json PointToJson(const metrics::IntervalPoint& p) {
  Json j = Json::object();
  j["t"] = Num(p.t_sec);
  j["phase"] = p.phase;
  Json counts = Json::array();
  for (uint64_t c : p.type_counts) counts.push_back(c);
  j["counts"] = std::move(counts);
  Json means = Json::array();
  for (double m : p.type_mean_ms) means.push_back(Num(m));
  j["mean_ms"] = std::move(means);
  Json p99 = Json::array();
  for (double m : p.type_p99_ms) p99.push_back(Num(m));
  j["p99_ms"] = std::move(p99);
  Json counters = Json::array();
  for (int64_t c : p.counters) counters.push_back(c);
  j["counters"] = std::move(counters);
  return j;
}

namespace {

template <typename Map>
Json MapToJson(const Map& m) {
  Json j = Json::object();
  for (const auto& [k, v] : m) j[k] = v;
  return j;
}

Json StringsToJson(const std::vector<std::string>& v) {
  Json j = Json::array();
  for (const auto& s : v) j.push_back(s);
  return j;
}

// The compact histogram (metrics/histogram_buckets.h): non-empty buckets as [low_ns, count].
Json HistogramToJson(const metrics::HistogramData& h) {
  Json j = Json::object();
  j["sub_bits"] = h.sub_bits;
  j["sum_ns"] = h.sum_ns;
  j["min_ns"] = h.min_ns;
  j["max_ns"] = h.max_ns;
  j["saturated"] = h.saturated;
  Json buckets = Json::array();
  for (const metrics::HistogramBucket& b : h.buckets) {
    buckets.push_back(Json::array({b.low_ns, b.count}));
  }
  j["buckets"] = std::move(buckets);
  return j;
}

// One entry per operation type, in `type_names` order; a missing summary is written as zeros.
// `with_histogram`: each entry's "histogram" too (the run's measured window; not the windows').
Json OperationsToJson(const std::vector<std::string>& type_names,
                      const std::vector<metrics::LatencySummary>& latency,
                      bool with_histogram = false) {
  Json operations = Json::array();
  const metrics::LatencySummary none;
  for (size_t i = 0; i < type_names.size(); ++i) {
    const metrics::LatencySummary& s = i < latency.size() ? latency[i] : none;
    Json op = Json::object();
    op["type"] = type_names[i];
    op["count"] = s.count;
    op["mean_ms"] = Num(s.mean_ms);
    op["min_ms"] = Num(s.min_ms);
    op["p50_ms"] = Num(s.p50_ms);
    op["p90_ms"] = Num(s.p90_ms);
    op["p95_ms"] = Num(s.p95_ms);
    op["p99_ms"] = Num(s.p99_ms);
    op["p999_ms"] = Num(s.p999_ms);
    op["max_ms"] = Num(s.max_ms);
    // A result read from a file without histograms has none to write back.
    if (with_histogram && s.histogram.count() == s.count) {
      op["histogram"] = HistogramToJson(s.histogram);
    }
    operations.push_back(std::move(op));
  }
  return operations;
}

// Headline name → value, in the workload's order; whole numbers as integers, like figures.
Json HeadlinesToJson(const std::vector<std::pair<std::string, double>>& headlines) {
  Json j = Json::object();
  for (const auto& [name, value] : headlines) j[name] = Figure(value);
  return j;
}

// A spec's (index, weight) terms; `names` (the series' type or counter names) give each index a
// name for human readers. Readers use the index.
Json TermsToJson(const std::vector<std::pair<int, double>>& terms,
                 const std::vector<std::string>& names) {
  Json out = Json::array();
  for (const auto& [index, weight] : terms) {
    Json t = Json::object();
    t["index"] = index;
    t["name"] = index >= 0 && static_cast<size_t>(index) < names.size() ? names[index] : "";
    t["weight"] = Num(weight);
    out.push_back(std::move(t));
  }
  return out;
}

Json HeadlineSpecsToJson(const std::vector<metrics::HeadlineSpec>& specs,
                         const metrics::TimeSeries& series) {
  Json out = Json::array();
  for (const auto& h : specs) {
    Json j = Json::object();
    j["name"] = h.name;
    j["words"] = h.words;
    j["per_second"] = Num(h.per_second);
    j["types"] = TermsToJson(h.types, series.type_names);
    j["counters"] = TermsToJson(h.counters, series.counter_names);
    out.push_back(std::move(j));
  }
  return out;
}

Json WindowToJson(const metrics::WindowResult& w, const std::vector<std::string>& type_names) {
  Json j = Json::object();
  j["label"] = w.label;
  j["start_sec"] = Num(w.start_sec);
  j["end_sec"] = Num(w.end_sec);
  j["complete"] = w.complete;
  Json per_sec = Json::object();
  per_sec["min"] = Num(w.per_sec_min);
  per_sec["mean"] = Num(w.per_sec_mean);
  per_sec["median"] = Num(w.per_sec_median);
  per_sec["max"] = Num(w.per_sec_max);
  j["per_sec"] = std::move(per_sec);
  j["per_minute"] = Num(w.per_minute);
  Json running = Json::object();
  running["start"] = Num(w.running_start);
  running["end"] = Num(w.running_end);
  j["running_opm"] = std::move(running);
  j["headlines"] = HeadlinesToJson(w.headlines);
  j["operations"] = OperationsToJson(type_names, w.latency);
  return j;
}

Json BaselineToJson(const metrics::BaselineResult& b) {
  Json j = Json::object();
  j["rule"] = b.rule;
  j["kind"] = b.kind;
  j["words"] = b.words;
  j["measured"] = Num(b.measured);
  j["passed"] = b.passed;
  if (!b.decided_by.empty()) j["decided_by"] = b.decided_by;
  return j;
}

Json SteadyStateToJson(const metrics::SteadyStateResult& s) {
  Json j = Json::object();
  j["evaluated"] = s.evaluated;
  j["steady"] = s.steady;
  j["slope_pct"] = Num(s.slope_pct);
  j["cv_pct"] = Num(s.cv_pct);
  j["max_slope_pct"] = Num(s.max_slope_pct);
  j["max_cv_pct"] = Num(s.max_cv_pct);
  j["detail"] = s.detail;
  return j;
}

// ---- Storage tests (optional key "storage", storage runs only) ---------------------------

Json IoCountsToJson(const metrics::IoCounts& c) {
  Json j = Json::object();
  j["read_ios"] = c.read_ios;
  j["write_ios"] = c.write_ios;
  j["read_bytes"] = c.read_bytes;
  j["write_bytes"] = c.write_bytes;
  j["read_errors"] = c.read_errors;
  j["write_errors"] = c.write_errors;
  j["read_latency_sum_ns"] = c.read_latency_sum_ns;
  j["write_latency_sum_ns"] = c.write_latency_sum_ns;
  j["read_latency_max_ns"] = c.read_latency_max_ns;
  j["write_latency_max_ns"] = c.write_latency_max_ns;
  Json bins = Json::array();
  for (uint64_t b : c.latency_bins) bins.push_back(b);
  j["iometer_latency_bins"] = std::move(bins);
  return j;
}

const std::vector<std::string> kStorageWindowTypes = {"io", "read", "write"};

Json StorageTestToJson(const metrics::StorageTest& t) {
  Json j = Json::object();
  j["name"] = t.name;
  j["spec_lines"] = StringsToJson(t.spec_lines);
  // "target" and "range_*" as before multi-target runs: the targets comma-separated, the first
  // target's range; "targets" has each target's.
  std::string names;
  for (const auto& target : t.targets) names += (names.empty() ? "" : ",") + target.path;
  j["target"] = names;
  j["engine"] = t.engine;
  j["workers"] = t.workers;
  j["outstanding"] = t.outstanding;
  j["submit_batch"] = t.submit_batch;
  j["direct"] = t.direct;
  j["data_pattern"] = t.data_pattern;
  j["range_start_bytes"] = t.targets.empty() ? 0 : t.targets[0].range_start_bytes;
  j["range_bytes"] = t.targets.empty() ? 0 : t.targets[0].range_bytes;
  j["ramp_sec"] = Num(t.ramp_sec);
  j["measured_sec"] = Num(t.measured_sec);
  j["interrupted"] = t.interrupted;
  if (t.rate_iops > 0) {
    j["rate_iops"] = Figure(t.rate_iops);
    j["arrival"] = t.arrival;
  }
  if (!t.stopped.empty()) j["stopped"] = t.stopped;
  // Derived figures for readers; a reader rebuilds them from the counts.
  j["iops"] = Num(t.Iops());
  j["read_iops"] = Num(t.ReadIops());
  j["write_iops"] = Num(t.WriteIops());
  j["mib_per_sec"] = Num(t.MibPerSec());
  j["avg_response_ms"] = Num(t.AvgResponseMs());
  Json pct = Json::object();
  pct["read_p50_ms"] = Num(t.read_p50_ms);
  pct["read_p99_ms"] = Num(t.read_p99_ms);
  pct["read_p999_ms"] = Num(t.read_p999_ms);
  pct["write_p50_ms"] = Num(t.write_p50_ms);
  pct["write_p99_ms"] = Num(t.write_p99_ms);
  pct["write_p999_ms"] = Num(t.write_p999_ms);
  pct["p50_ms"] = Num(t.all_p50_ms);
  pct["p90_ms"] = Num(t.all_p90_ms);
  pct["p99_ms"] = Num(t.all_p99_ms);
  pct["p999_ms"] = Num(t.all_p999_ms);
  pct["p9999_ms"] = Num(t.all_p9999_ms);
  j["percentiles"] = std::move(pct);
  j["totals"] = IoCountsToJson(t.totals);
  Json workers = Json::array();
  for (const auto& w : t.per_worker) workers.push_back(IoCountsToJson(w));
  j["per_worker"] = std::move(workers);
  Json targets = Json::array();
  for (const auto& target : t.targets) {
    Json tj = Json::object();
    tj["path"] = target.path;
    tj["range_start_bytes"] = target.range_start_bytes;
    tj["range_bytes"] = target.range_bytes;
    if (target.extents >= 0) {
      tj["extents"] = target.extents;
    } else {
      tj["extents"] = nullptr;
    }
    if (!target.extents_note.empty()) tj["extents_note"] = target.extents_note;
    if (!target.filesystem.empty()) tj["filesystem"] = target.filesystem;
    targets.push_back(std::move(tj));
  }
  j["targets"] = std::move(targets);
  Json per_target = Json::array();
  for (const auto& c : t.PerTarget()) per_target.push_back(IoCountsToJson(c));
  j["per_target"] = std::move(per_target);
  Json per_wt = Json::array();
  for (const auto& w : t.per_worker_target) {
    Json row = Json::array();
    for (const auto& c : w) row.push_back(IoCountsToJson(c));
    per_wt.push_back(std::move(row));
  }
  j["per_worker_target"] = std::move(per_wt);
  Json cpu = Json::object();
  cpu["cpus"] = t.cpu.cpus;
  cpu["utilization_pct"] = Num(t.cpu.utilization_pct);
  cpu["user_pct"] = Num(t.cpu.user_pct);
  cpu["system_pct"] = Num(t.cpu.system_pct);
  cpu["irq_pct"] = Num(t.cpu.irq_pct);
  cpu["softirq_pct"] = Num(t.cpu.softirq_pct);
  cpu["steal_pct"] = Num(t.cpu.steal_pct);
  cpu["iowait_pct"] = Num(t.cpu.iowait_pct);
  cpu["interrupts_per_sec"] = Num(t.cpu.interrupts_per_sec);
  j["cpu"] = std::move(cpu);
  j["driver_cpu_sec"] = Num(t.driver_cpu_sec);
  j["driver_cpu_us_per_io"] = Num(t.DriverCpuUsPerIo());
  // Windows and baselines of this test: latency of all I/Os, reads and writes.
  if (!t.windows.empty()) {
    Json windows = Json::array();
    for (const auto& w : t.windows) windows.push_back(WindowToJson(w, kStorageWindowTypes));
    j["windows"] = std::move(windows);
  }
  if (!t.baselines.empty()) {
    Json baselines = Json::array();
    for (const auto& b : t.baselines) baselines.push_back(BaselineToJson(b));
    j["baselines"] = std::move(baselines);
  }
  // The per-second series, one array per column (compact for long runs).
  Json series = Json::object();
  Json ts = Json::array(), ph = Json::array(), ri = Json::array(), wi = Json::array(),
       rb = Json::array(), wb = Json::array(), mean = Json::array(), p99 = Json::array(),
       mx = Json::array();
  for (const auto& p : t.series) {
    ts.push_back(Num(p.t_sec));
    ph.push_back(p.phase);
    ri.push_back(p.read_ios);
    wi.push_back(p.write_ios);
    rb.push_back(p.read_bytes);
    wb.push_back(p.write_bytes);
    mean.push_back(Num(p.mean_ms));
    p99.push_back(Num(p.p99_ms));
    mx.push_back(Num(p.max_ms));
  }
  series["t"] = std::move(ts);
  series["phase"] = std::move(ph);
  series["read_ios"] = std::move(ri);
  series["write_ios"] = std::move(wi);
  series["read_bytes"] = std::move(rb);
  series["write_bytes"] = std::move(wb);
  series["mean_ms"] = std::move(mean);
  series["p99_ms"] = std::move(p99);
  series["max_ms"] = std::move(mx);
  j["series"] = std::move(series);
  return j;
}

Json ReadingsToJson(const std::vector<metrics::ServerCheckResult::Reading>& readings,
                    bool with_meaning) {
  Json out = Json::array();
  for (const auto& x : readings) {
    Json j = Json::object();
    j["name"] = x.name;
    if (with_meaning) j["meaning"] = x.meaning;
    if (!x.source.empty()) j["source"] = x.source;
    j["before"] = x.before;
    j["after"] = x.after;
    j["delta"] = x.delta();
    out.push_back(std::move(j));
  }
  return out;
}

Json ServerCheckToJson(const metrics::ServerCheckResult& c) {
  Json j = Json::object();
  j["span"] = c.span;
  j["start_exact"] = c.start_exact;
  j["hold_ms"] = Num(c.hold_ms);
  j["counters_settled"] = c.counters_settled;
  if (!c.error.empty()) j["error"] = c.error;
  j["client_units"] = c.client_units;
  j["server_counters"] = ReadingsToJson(c.server_counters, true);
  j["probe"] = ReadingsToJson(c.probe, false);
  Json comparisons = Json::array();
  for (const auto& m : c.comparisons) {
    Json mj = Json::object();
    mj["name"] = m.name;
    mj["client"] = m.client;
    mj["server"] = m.server;
    mj["relation"] = m.relation;
    mj["passed"] = m.passed;
    mj["detail"] = m.detail;
    comparisons.push_back(std::move(mj));
  }
  j["comparisons"] = std::move(comparisons);
  return j;
}

// The worker counts and, per worker, its units and busy time.
Json WorkersToJson(const RunResult& r) {
  Json workers = Json::object();
  workers["started"] = r.workers_started;
  workers["failed"] = r.workers_failed;
  if (r.workers_stalled > 0) workers["stalled"] = r.workers_stalled;
  if (r.connect_sec >= 0) workers["connect_sec"] = Num(r.connect_sec);
  if (!r.threads.empty()) {
    Json units = Json::array(), busy = Json::array();
    for (const metrics::ThreadShare& t : r.threads) {
      units.push_back(t.units);
      busy.push_back(Num(t.busy_sec));
    }
    workers["units"] = std::move(units);
    workers["busy_sec"] = std::move(busy);
  }
  return workers;
}

// DVD Store's figures of the last status line.
Json FinalStatusToJson(const metrics::StatusFigures& f) {
  Json status = Json::object();
  status["et_sec"] = Num(f.et_sec);
  status["n_overall"] = f.n_overall;
  status["opm"] = f.opm;
  status["rt_tot_lastn_max_msec"] = f.rt_tot_lastn_max_msec;
  status["rt_tot_avg_msec"] = f.rt_tot_avg_msec;
  status["rt_tot_sampled"] = f.rt_tot_sampled;
  status["n_rollbacks"] = f.n_rollbacks;
  status["rollback_pct"] = Num(f.rollback_pct);
  return status;
}

// The verification's checks.
Json VerifyToJson(const std::vector<RunResult::Check>& checks) {
  Json verify = Json::array();
  for (const auto& c : checks) {
    Json check = Json::object();
    check["name"] = c.name;
    check["passed"] = c.passed;
    check["detail"] = c.detail;
    verify.push_back(std::move(check));
  }
  return verify;
}

Json SutCpuToJson(const metrics::SutCpu& c) {
  // The system under test's CPU, one array per column (compact for long runs).
  Json sut = Json::object();
  sut["source"] = c.source;
  if (!c.error.empty()) sut["error"] = c.error;
  sut["measured_mean_pct"] = Num(c.measured_mean_pct);
  sut["measured_max_pct"] = Num(c.measured_max_pct);
  Json t = Json::array(), util = Json::array(), user = Json::array(), sys = Json::array(),
       iowait = Json::array(), steal = Json::array();
  for (const auto& p : c.points) {
    t.push_back(Num(p.t_sec));
    util.push_back(Num(p.utilization_pct));
    user.push_back(Num(p.user_pct));
    sys.push_back(Num(p.system_pct));
    iowait.push_back(Num(p.iowait_pct));
    steal.push_back(Num(p.steal_pct));
  }
  Json points = Json::object();
  points["t"] = std::move(t);
  points["utilization_pct"] = std::move(util);
  points["user_pct"] = std::move(user);
  points["system_pct"] = std::move(sys);
  points["iowait_pct"] = std::move(iowait);
  points["steal_pct"] = std::move(steal);
  sut["points"] = std::move(points);
  return sut;
}

}  // namespace

Json ToDocument(const RunResult& r, const std::string& salt, std::vector<PointsSplice>* splices) {
  Json doc = Json::object();
  doc["schema_version"] = kResultSchemaVersion;
  Json tool = Json::object();
  tool["name"] = "storebench";
  tool["version"] = ToolVersion();
  // The code that ran, beside the version: two builds of one version can measure differently.
  tool["commit"] = version::GitCommit();
  tool["build_type"] = version::BuildType();
  doc["tool"] = std::move(tool);
  // An instance's result in a run of several (see "instances").
  if (!r.name.empty() || !r.target.empty()) {
    doc["name"] = r.name;
    doc["target"] = r.target;
  }
  doc["workload"] = r.workload;
  // The run's label (--label), which storebench compare groups by; absent when none was given.
  if (!r.label.empty()) doc["label"] = r.label;
  doc["started_at"] = r.started_at;
  if (r.first_unit_sec >= 0) {
    doc["first_unit_at"] = r.first_unit_at;
    doc["first_unit_sec"] = Figure(r.first_unit_sec);
  }
  doc["ended_at"] = r.ended_at;
  doc["interrupted"] = r.interrupted;
  doc["loop_model"] = r.loop_model;
  if (!r.scale_out_json.empty()) doc["scale_out"] = Json::parse(r.scale_out_json);
  if (r.restore_seconds >= 0) {
    doc["restore"] = {{"method", r.restore_method}, {"seconds", Figure(r.restore_seconds)}};
  }
  Json headline = Json::object();
  headline["name"] = r.headline_name;
  headline["value"] = Figure(r.headline_value);
  doc["headline"] = std::move(headline);
  doc["headlines"] = HeadlinesToJson(r.headlines);
  doc["headline_specs"] = HeadlineSpecsToJson(r.headline_specs, r.series);
  doc["config"] = ConfigObject(r.config_json);
  doc["environment"] = MapToJson(r.environment);
  doc["choices"] = MapToJson(r.choices);
  doc["measured_sec"] = Num(r.measured_sec);

  doc["operations"] = OperationsToJson(r.type_names, r.latency, /*with_histogram=*/true);
  doc["counters"] = MapToJson(r.counters);
  doc["errors"] = MapToJson(r.errors);
  doc["retries"] = r.retries;
  doc["workers"] = WorkersToJson(r);

  Json figures = Json::object();
  for (const auto& [name, value] : r.figures) figures[name] = Figure(value);
  doc["figures"] = std::move(figures);

  doc["final_status"] = FinalStatusToJson(r.final_status);

  Json driver = Json::object();
  driver["cpu_sec"] = Num(r.driver_cpu_sec);
  driver["cpu_sec_per_op"] = Num(r.driver_cpu_sec_per_op);
  driver["cpu_share_of_core"] = Num(r.driver_cpu_share);
  doc["driver"] = std::move(driver);

  Json windows = Json::array();
  for (const auto& w : r.windows) windows.push_back(WindowToJson(w, r.type_names));
  doc["windows"] = std::move(windows);
  Json baselines = Json::array();
  for (const auto& b : r.baselines) baselines.push_back(BaselineToJson(b));
  doc["baselines"] = std::move(baselines);
  doc["steady_state"] = SteadyStateToJson(r.steady_state);
  doc["warnings"] = StringsToJson(r.warnings);

  doc["verify"] = VerifyToJson(r.verify);
  if (r.server_check.present) doc["server_check"] = ServerCheckToJson(r.server_check);
  if (!r.sut_cpu.source.empty()) doc["sut_cpu"] = SutCpuToJson(r.sut_cpu);
  if (r.power.present()) doc["power"] = PowerToJson(r.power);
  if (!r.storage.empty()) {
    Json storage = Json::array();
    for (const auto& t : r.storage) storage.push_back(StorageTestToJson(t));
    doc["storage"] = std::move(storage);
  }

  // Each instance's own result, as a complete document of its own. Written before the
  // enclosing document's time series, so "time_series" stays the last key.
  if (!r.instances.empty()) {
    Json instances = Json::array();
    for (const auto& one : r.instances) instances.push_back(ToDocument(one, salt, splices));
    doc["instances"] = std::move(instances);
  }

  Json series = Json::object();
  series["interval_sec"] = Num(r.series.interval_sec);
  series["type_names"] = StringsToJson(r.series.type_names);
  series["counter_names"] = StringsToJson(r.series.counter_names);
  if (r.series.points.empty() || splices == nullptr) {
    Json points = Json::array();
    for (const auto& p : r.series.points) points.push_back(PointToJson(p));
    series["points"] = std::move(points);
  } else {
    PointsSplice splice;
    splice.placeholder = kPointsPlaceholder + salt + std::to_string(splices->size());
    splice.series = &r.series;
    series["points"] = splice.placeholder;
    splices->push_back(std::move(splice));
  }
  doc["time_series"] = std::move(series);
  return doc;
}

}  // namespace sb::report::internal
