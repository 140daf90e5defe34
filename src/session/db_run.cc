#include <utility>

#include "driver/run_options.h"
#include "power/summary.h"
#include "session/db_run_result.h"
#include "session/rank_notes.h"
#include "session/rank_share.h"
#include "session/scale_out_result.h"
#include "storebench/session.h"

namespace sb::session {
namespace {

// Under mpirun: a seed drawn for the run (no --seed) is rank 0's on every rank, as one given
// would be. Each rank drew its own, and the run is one run (the ranks derive their streams from
// it, docs/scale-out.md).
Status UseRankZeroSeeds(const RunRequest& req) {
  for (DbSetup& s : *req.setups) {
    if (!s.options->Has("seed")) continue;
    auto seed = req.group->FromRankZero(std::to_string(s.options->GetInt("seed")));
    if (!seed.ok()) return seed.status();
    SB_RETURN_IF_ERROR(s.options->Set("seed", *seed, "rank 0's seed"));
  }
  return Status::Ok();
}

// Under mpirun: the same effective configuration everywhere, then this rank's share.
Status JoinRanks(const RunRequest& req, std::vector<driver::DbInstanceSpec>* specs,
                 driver::RunOptions* ro) {
  dist::Group* const group = req.group;
  const config::OptionSet& common = *req.common;
  group->BeginRun();
  group->set_stop(ro->stop);
  group->set_timeout_nanos(common.GetDurationNanos("rank_timeout"));
  group->set_ready_timeout_nanos(ro->connect_timeout_nanos +
                                 common.GetDurationNanos("rank_timeout"));
  std::string effective = common.ToJson();
  for (const DbSetup& s : *req.setups) effective += s.options->ToJson();
  SB_RETURN_IF_ERROR(group->CheckSame(effective, "effective configuration"));
  for (size_t i = 0; i < specs->size(); ++i) {
    driver::DbInstanceSpec& spec = (*specs)[i];
    auto share =
        ShareOf(common.GetString("rank_split"), group->rank(), group->size(), spec.options.threads,
                "threads", static_cast<int>(i), static_cast<int>(specs->size()));
    if (!share.ok()) return share.status();
    ScaleToRankShare(&spec, *share, group->rank());
  }
  ro->peers = group;
  return Status::Ok();
}

// The driver's specs and run options of the request, this rank's share when scaled out.
Status PlanRun(const RunRequest& req, std::vector<driver::DbInstanceSpec>* specs,
               driver::RunOptions* ro) {
  std::vector<DbSetup>& setups = *req.setups;
  if (req.group != nullptr) SB_RETURN_IF_ERROR(UseRankZeroSeeds(req));
  auto built = InstanceSpecs(setups);
  if (!built.ok()) return built.status();
  *specs = std::move(built).value();
  auto parsed = driver::RunOptionsFrom(*req.common, setups[0].workload->max_failures(),
                                       setups[0].workload->shape().headlines);
  if (!parsed.ok()) return parsed.status();
  *ro = std::move(parsed).value();
  ro->stop = req.stop;
  ro->at_once = req.at_once;
  for (auto& spec : *specs) spec.options.stop = ro->stop;
  if (req.group != nullptr) return JoinRanks(req, specs, ro);
  return Status::Ok();
}

driver::RunCallbacks ReporterCallbacks(RunReporter& rep, power::PowerSampler* sampler) {
  driver::RunCallbacks cb;
  cb.on_message = [&rep](const std::string& line) { rep.OnMessage(line); };
  cb.on_start = [&rep] { rep.OnStart(); };
  cb.on_thread = [&rep](int64_t thread, const std::string& target, bool connected) {
    rep.OnThread(thread, target, connected);
  };
  cb.on_status = [&rep](const metrics::StatusFigures& f) { rep.OnStatus(f); };
  cb.output_error = [&rep] { return rep.OutputError(); };
  cb.on_instance_status = [&rep](const std::string& name, const metrics::StatusFigures& f) {
    rep.OnInstanceStatus(name, f);
  };
  if (rep.WantsIntervalUnits()) {
    cb.on_interval_units = [&rep](const metrics::Histogram& h) { rep.OnIntervalUnits(h); };
  }
  if (rep.WantsLiveTotals()) {
    cb.on_live_totals = [&rep](std::vector<metrics::LiveTotals> t) {
      rep.OnLiveTotals(std::move(t));
    };
  }
  cb.on_interval = [&rep](const metrics::TimeSeries& series,
                          const metrics::StatusFigures& running) {
    rep.OnInterval(series, running);
  };
  if (sampler != nullptr) {
    cb.on_phase = [sampler](const std::string& mark) { sampler->Mark(mark); };
  }
  return cb;
}

// The run itself, with the power sampler (if any) beside it.
driver::RunOutcome RunMeasured(Clock& clock, const std::vector<driver::DbInstanceSpec>& specs,
                               const driver::RunOptions& ro, RunReporter& reporter,
                               power::PowerSampler* sampler) {
  driver::RunCallbacks cb = ReporterCallbacks(reporter, sampler);
  if (sampler != nullptr) sampler->Start();
  driver::Runner runner(clock);
  driver::RunOutcome out = runner.RunMany(specs, ro, cb);
  if (sampler != nullptr) {
    sampler->Mark("stop");
    sampler->Stop();
  }
  return out;
}

void AddPower(const power::PowerSampler& sampler, const driver::RunOutcome& out,
              const workload::Workload& first, metrics::RunResult* r) {
  const auto sec = [&](int64_t at) { return static_cast<double>(at - out.t0) / 1e9; };
  r->power = power::SummarizePower(sampler.Recording(), out.t0,
                                   power::RunWindows(*r, sec(out.reset_at), sec(out.end_at)),
                                   first.shape().headlines);
  r->choices["power"] =
      "each source read once a second on its own thread; a second's sum needs every source; "
      "a window's average is the mean of its complete seconds, its energy that average times "
      "its length";
}

// Under mpirun: every rank's figures to rank 0; false in *complete when a rank was lost.
void FinishRanks(const RunRequest& req, const std::vector<driver::DbInstanceSpec>& specs,
                 RunOutcome* o) {
  int64_t threads_here = 0;
  for (const auto& spec : specs) threads_here += spec.options.threads;
  std::vector<std::string> names;
  names.reserve(req.setups->size());
  for (const DbSetup& s : *req.setups) names.push_back(s.name);
  std::vector<std::string> notes;
  o->complete = FinishScaleOut(*req.group, *req.common, threads_here, o->result.measured_sec, names,
                               &o->result, RankNote(*req.setups, o->result), &notes);
  if (req.group->coordinator()) AddRankNotes(notes, req.setups, &o->result);
  if (!o->complete) o->lost = req.group->LostSummary();
  // Rank 0 verifies and reports the whole run; the others are done.
  o->speaks = req.group->coordinator();
}

}  // namespace

Result<RunOutcome> RunDatabases(const RunRequest& req, RunReporter& reporter) {
  std::vector<driver::DbInstanceSpec> specs;
  driver::RunOptions ro;
  SB_RETURN_IF_ERROR(PlanRun(req, &specs, &ro));
  // Under mpirun rank 0 alone reads the power sources, writes the run's files and serves its
  // metrics: it has the whole run's figures, and ranks on one host would share a path or a port.
  const bool speaks = req.group == nullptr || req.group->coordinator();
  // Power sources are opened before anything is reported or run: one that cannot be used ends
  // the request here.
  SteadyClock clock;
  std::unique_ptr<power::PowerSampler> sampler;
  if (speaks && req.open_power) {
    auto power = req.open_power(clock);
    if (!power.ok()) return power.status();
    sampler = std::move(power).value();
  }
  // Power's windows average whole seconds: a run that finishes early keeps to them.
  ro.end_on_tick = sampler != nullptr;
  SB_RETURN_IF_ERROR(reporter.Begin(specs, ro, speaks));
  driver::RunOutcome out = RunMeasured(clock, specs, ro, reporter, sampler.get());
  RunOutcome o;
  o.result = std::move(out.result);
  if (!out.status.ok() && o.result.series.points.empty()) return out.status;
  o.run_status = out.status;
  o.whole_run = out.whole_run;
  o.instance_whole_run = out.instance_whole_run;
  if (req.group != nullptr) {
    FinishRanks(req, specs, &o);
    if (!o.speaks) return o;
  }
  const workload::Workload& first = *(*req.setups)[0].workload;
  if (sampler) AddPower(*sampler, out, first, &o.result);
  DescribeRun(*req.setups, specs, *req.common, ro, &o.result);
  o.stopped_at_once = ro.at_once != nullptr && ro.at_once->load();
  VerifyInstances(*req.setups, out.instance_whole_run, o.stopped_at_once, &o.result);
  return o;
}

}  // namespace sb::session
