#include "session/plan_instances.h"

#include <algorithm>
#include <map>
#include <memory>

#include "backend/db/connect_error.h"
#include "base/clock.h"
#include "driver/load.h"
#include "driver/run_options.h"
#include "session/db_prepare.h"
#include "session/op_log_paths.h"
#include "session/rank_share.h"

namespace sb::session {
namespace {

// The options that shape the run as a whole (its phases, windows, verdicts and outputs): one
// value for every instance. One a line, so that options added side by side merge.
// clang-format off
constexpr const char* kRunWide[] = {
    "warmup_time",
    "run_time",
    "window",
    "baseline",
    "baseline_rule",
    "log_freq",
    "steady_slope",
    "steady_cv",
    "json",
    "out_filename",
    "progress",
    "metrics_addr",
    "log_timestamp",
    "series_csv",
    "sut_cpu",
    "sut_cpu_cmd",
    "restore",
    "power",
    "label",
    "rank_split",
    "rank_timeout",
    "results_xml",
    "metrics_linger",
};
// clang-format on

Status Apply(config::OptionSet* o, const config::Plan& plan,
             const std::vector<config::PlanValue>& values, bool skip_undeclared) {
  for (const config::PlanValue& v : values) {
    if (skip_undeclared && !o->Has(v.key)) continue;
    SB_RETURN_IF_ERROR(o->Set(v.key, v.value, plan.Where(v.line)));
  }
  return Status::Ok();
}

// Loads the instance's database with the options that `load` knows, as the run has them: the
// plan's [run], the group's options, then the command line and its config files, so that the
// database holds what the run is about to ask for (`--db_size=1MB` loads 1MB). The run's seed
// is its own (drawn for each run unless given); the load's is the plan's or its default.
Status LoadInstance(const config::Plan& plan, const config::PlanGroup& g, const DbSetup& setup,
                    const db::BackendRegistry& backends,
                    const workload::WorkloadRegistry& workloads, const PlanHost& host) {
  auto wl = workloads.Create(g.workload);
  if (!wl.ok()) return wl.status();
  config::OptionSet o;
  host.DeclareOptions(&o, "load", **wl);
  SB_RETURN_IF_ERROR(Apply(&o, plan, plan.run, /*skip_undeclared=*/true));
  SB_RETURN_IF_ERROR(Apply(&o, plan, g.options, /*skip_undeclared=*/true));
  SB_RETURN_IF_ERROR(o.SetFrom(*setup.options, {"db", "workload", "seed"}, "the run's options"));
  SB_RETURN_IF_ERROR(o.Set("db", setup.url, plan.Where(g.line)));
  SB_RETURN_IF_ERROR((*wl)->Configure(o));
  auto backend = OpenDatabase(backends, **wl, setup.url, /*create=*/true, 30000);
  if (!backend.ok()) return backend.status();
  workload::LoadContext ctx;
  ctx.threads = static_cast<int>(o.GetInt("load_threads"));
  ctx.index_threads = static_cast<int>(o.GetInt("index_threads"));
  ctx.seed = static_cast<uint64_t>(o.GetInt("seed"));
  ctx.stop = host.StopFlag();
  ctx.progress = [&host, name = setup.name](const std::string& m) {
    host.Progress("[" + name + "] " + m);
  };
  host.Progress("instance " + setup.name + ": loading " + (*wl)->Describe() + " into " + setup.url +
                " (the plan's group '" + g.name + "' has load = true)");
  SteadyClock clock;
  driver::LoadOutcome out = driver::RunLoad(**wl, **backend, ctx, clock);
  if (!out.status.ok()) return out.status;
  host.Progress("instance " + setup.name + ": loaded " + std::to_string(out.rows) + " rows in " +
                std::to_string(static_cast<int>(out.seconds)) + " s");
  return Status::Ok();
}

// Whether the run can start on the instance's database without taking its lock or changing
// it: it answers and holds the workload at the instance's size, or, when the group loads a
// missing database, at least it answers (the load decides the rest).
Status ProbeDatabase(const db::BackendRegistry& backends, DbSetup& s, bool load) {
  auto backend = OpenDatabase(backends, *s.workload, s.url, /*create=*/false, 2000);
  Status st = backend.ok() ? Status::Ok() : backend.status();
  if (st.ok()) {
    auto conn = (*backend)->Connect();
    st = conn.ok() ? s.workload->CheckReady(**conn) : conn.status();
  }
  if (st.ok() || (load && !db::IsConnectError(st))) return Status::Ok();
  return Named(st, s, /*several=*/true);
}

// Instance `i` (from 1) of group `g`, its `count` instances: its workload and its options as a
// run has them (the plan's [run], the group's options, the command line), checked.
Result<DbSetup> BuildInstance(const config::Plan& plan, const config::PlanGroup& g, int i,
                              int count, const PlanBuild& build, uint64_t seed,
                              const workload::WorkloadRegistry& workloads, const PlanHost& host) {
  DbSetup s;
  s.name = g.name + "_" + std::to_string(i);
  auto url = config::InstanceDatabase(plan, g, i);
  if (!url.ok()) return url.status();
  s.url = std::move(url).value();
  auto wl = workloads.Create(g.workload);
  if (!wl.ok()) {
    return Status::InvalidArgument(plan.Where(g.line) + ": " + wl.status().message());
  }
  s.workload = std::move(wl).value();
  s.options = std::make_unique<config::OptionSet>();
  config::OptionSet& o = *s.options;
  o.set_help_command("storebench run --help");
  host.DeclareOptions(&o, "run", *s.workload);
  SB_RETURN_IF_ERROR(Apply(&o, plan, plan.run, /*skip_undeclared=*/false));
  for (const config::PlanValue& v : g.options) {
    const config::OptionSpec* spec = o.FindSpec(v.key);
    if (spec != nullptr &&
        (IsRunWideOption(spec->name) || spec->name == "db" || spec->name == "workload")) {
      return Status::InvalidArgument(
          plan.Where(v.line) + ": key '" + v.key + "' applies to the whole run" +
          (spec->name == "db" || spec->name == "workload"
               ? std::string(" of the group; set it as the group's own key")
               : std::string("; set it in [run]")));
    }
  }
  SB_RETURN_IF_ERROR(Apply(&o, plan, g.options, /*skip_undeclared=*/false));
  SB_RETURN_IF_ERROR(config::ParseCommandLine(build.extra_args, &o));
  if (const std::string op_log = o.GetString("op_log");
      !op_log.empty() && !build.op_log_tag.empty()) {
    SB_RETURN_IF_ERROR(
        o.Set("op_log", WithBeforeExtension(op_log, build.op_log_tag), "the run's op_log"));
  }
  // Each instance its own streams (its workload's too: TPC-C-like's terminals).
  driver::UseDrawnSeedUnlessGiven(&o, seed);
  if (g.spread_threads > 0) {
    const int64_t threads = RoundRobinShare(g.spread_threads, count, i - 1);
    if (threads < 1) {
      return Status::InvalidArgument(plan.Where(g.line) + ": group '" + g.name + "' spreads " +
                                     std::to_string(g.spread_threads) + " threads over " +
                                     std::to_string(count) + " instances: each needs at least one");
    }
    SB_RETURN_IF_ERROR(o.Set("n_threads", std::to_string(threads), plan.Where(g.line)));
  }
  SB_RETURN_IF_ERROR(o.Set("db", s.url, plan.Where(g.line)));
  SB_RETURN_IF_ERROR(o.Set("workload", g.workload, plan.Where(g.line)));
  if (Status st = s.workload->Configure(o); !st.ok()) {
    return Status(st.code(), "instance " + s.name + ": " + st.message());
  }
  if (Status st = host.CheckPaths(o, plan.path); !st.ok()) {
    return Status(st.code(), "instance " + s.name + ": " + st.message());
  }
  return s;
}

// Locks the instance's database, restores it when the run asks, loads it when its group asks
// and it is missing, and prepares it for the run.
Status ReadyInstance(const config::Plan& plan, const config::PlanGroup& g, const PlanBuild& build,
                     const db::BackendRegistry& backends,
                     const workload::WorkloadRegistry& workloads, const PlanHost& host,
                     DbSetup& s) {
  // Locked before it is loaded or checked, and held until the run has verified it.
  auto lock = LockDatabase(backends, s.url, build.command);
  if (!lock.ok()) {
    return Status(lock.status().code(),
                  plan.Where(g.line) + ": instance " + s.name + ": " + lock.status().message());
  }
  s.lock = std::move(lock).value();
  const bool restore = s.options->GetBool("restore");
  Status restored = Status::Ok();
  if (restore) {
    restored = RestoreDatabase(backends, &s, build.command, /*several=*/true);
    if (restored.ok()) host.Progress(RestoredWords(s, /*several=*/true));
  }
  Status ready = PrepareDatabase(backends, &s, /*several=*/true);
  // A load never replaces a database storebench did not create, nor (without --force) one
  // it did: only a missing or empty one is loaded here. Loaded for a restoring run, it is
  // in its loaded state already, and its pristine copy is taken from it.
  if (!ready.ok() && g.load && build.allow_load && ready.code() != StatusCode::kCancelled) {
    if (Status l = LoadInstance(plan, g, s, backends, workloads, host); !l.ok()) {
      return Status(l.code(), "instance " + s.name + " (" + s.url + "): " + l.message());
    }
    if (restore) {
      auto copy = SavePristineCopy(backends, s.url, &s.lock, build.command);
      if (!copy.ok()) {
        return Status(copy.status().code(),
                      "instance " + s.name + " (" + s.url + "): " + copy.status().message());
      }
      host.Progress(PristineWords(s.url, *copy));
      restored = Status::Ok();
    }
    ready = PrepareDatabase(backends, &s, /*several=*/true);
  }
  SB_RETURN_IF_ERROR(ready);
  return restored;
}

}  // namespace

bool IsRunWideOption(const std::string& canonical_name) {
  return std::find(std::begin(kRunWide), std::end(kRunWide), canonical_name) != std::end(kRunWide);
}

Result<std::vector<DbSetup>> BuildPlanInstances(const config::Plan& plan, const PlanBuild& build,
                                                const db::BackendRegistry& backends,
                                                const workload::WorkloadRegistry& workloads,
                                                const PlanHost& host) {
  const uint64_t plan_seed = driver::DrawSeed();  // one for the plan's instances
  std::vector<DbSetup> setups;
  std::vector<const config::PlanGroup*> group_of;      // each instance's group
  std::map<std::string, std::string> instance_of_url;  // URL -> the first instance naming it
  const int scale_group = plan.ScaleGroup();
  for (size_t gi = 0; gi < plan.groups.size(); ++gi) {
    const config::PlanGroup& g = plan.groups[gi];
    const int count =
        static_cast<int>(gi) == scale_group && build.scale_count > 0 ? build.scale_count : g.count;
    for (int i = 1; i <= count; ++i) {
      auto s = BuildInstance(plan, g, i, count, build, plan_seed + setups.size(), workloads, host);
      if (!s.ok()) return s.status();
      if (auto [it, added] = instance_of_url.emplace(s->url, s->name); !added) {
        return Status::InvalidArgument(plan.Where(g.line) + ": instance " + s->name +
                                       " names the database " + s->url + " of instance " +
                                       it->second + "; each instance needs a database of its own");
      }
      setups.push_back(std::move(s).value());
      group_of.push_back(&g);
    }
  }
  // Before any database is locked or loaded: a plan whose runs can only fail (a window past
  // the run's end) is refused now.
  SB_RETURN_IF_ERROR(CheckRunOptions(setups));
  const int count = static_cast<int>(setups.size());
  if (build.check) {
    for (int i = 0; i < count; ++i) SB_RETURN_IF_ERROR(build.check(i, count, *setups[i].options));
  }
  for (int i = 0; i < count; ++i) {
    if (build.owns && !build.owns(i)) continue;
    DbSetup& s = setups[static_cast<size_t>(i)];
    const config::PlanGroup& g = *group_of[static_cast<size_t>(i)];
    if (build.probe_only) {
      SB_RETURN_IF_ERROR(ProbeDatabase(backends, s, g.load && build.allow_load));
    } else {
      SB_RETURN_IF_ERROR(ReadyInstance(plan, g, build, backends, workloads, host, s));
    }
  }
  return setups;
}

Status PrepareOthers(const PlanBuild& build, const db::BackendRegistry& backends,
                     std::vector<DbSetup>* setups) {
  for (size_t i = 0; i < setups->size(); ++i) {
    if (!build.owns || build.owns(static_cast<int>(i))) continue;
    SB_RETURN_IF_ERROR(PrepareDatabase(backends, &(*setups)[i], /*several=*/true));
  }
  return Status::Ok();
}

}  // namespace sb::session
