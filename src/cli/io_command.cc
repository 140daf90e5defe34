// storebench io: the subcommands' dispatch, and io run, Iometer-style storage tests
// (docs/storage.md); prepare and verify are in io_prepare.cc and io_verify.cc, the file
// commands behind io_fs_commands.h.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/units.h"
#include "cli/app.h"
#include "cli/builtins.h"
#include "cli/command_paths.h"
#include "cli/io_fs_commands.h"
#include "cli/io_internal.h"
#include "cli/io_run_live.h"
#include "cli/io_run_output.h"
#include "cli/metrics_server.h"
#include "cli/power_cli.h"
#include "cli/scale_out.h"
#include "config/options.h"
#include "dist/world.h"
#include "driver/io_runner.h"
#include "driver/run_options.h"
#include "metrics/headline.h"
#include "session/io_run_plan.h"
#include "storebench/io_engine.h"
#include "workload/storage/access_spec.h"
#include "workload/storage/test_file.h"

namespace sb::cli {
namespace {

constexpr const char* kIoUsage =
    "usage: storebench io prepare --target PATH --size 1GiB [--pattern full_random]\n"
    "       storebench io run --target PATH (--preset vmtn|database|fileserver|webserver|"
    "workstation\n"
    "                     | --spec \"8KiB,65%read,60%random\" | --icf FILE.icf) [options]\n"
    "       storebench io verify --target PATH [--verify_phase read|write|both]   (reads by "
    "default)\n"
    "       storebench io extents PATH... [--recursive]    (FIEMAP extent map)\n"
    "       storebench io fragment --target PATH --extents N\n"
    "       storebench io defrag PATH... [--method auto|online|copy]\n"
    "       storebench io copy SRC DST     (timed, with extent counts)\n"
    "       storebench io read PATH        (timed, with extent counts)\n"
    "       storebench io churn --dir DIR [--writers 3] [--duration 10m]\n"
    "       storebench io fragtest --target PATH --extents N --preset vmtn [--rounds 3]\n"
    "       storebench io SUBCOMMAND --help     (all its options)\n";

// Under mpirun: the same effective configuration everywhere, then this rank's share of the
// workers, its own random streams, and its share of an open loop's rate.
Status JoinRankGroup(const config::OptionSet& o, dist::Group* group, driver::IoRunConfig* c) {
  group->set_stop(c->stop);
  group->set_timeout_nanos(o.GetDurationNanos("rank_timeout"));
  group->set_ready_timeout_nanos(2 * o.GetDurationNanos("rank_timeout"));
  SB_RETURN_IF_ERROR(group->CheckSame(o.ToJson(), "effective configuration"));
  auto share = RankShare(o, c->workers, "workers", 0, 1);
  if (!share.ok()) return share.status();
  c->rate_iops *= static_cast<double>(*share) / c->workers;
  c->workers = static_cast<int>(*share);
  c->seed += 7919 * static_cast<uint64_t>(group->rank());
  c->peers = group;
  return Status::Ok();
}

// Runs the preset's tests in order into `rec`, with `sampler` (or null) recording power from
// the first test's start to the last one's end. A stopped test (or, under mpirun, a lost rank)
// ends the run with kExitFailure, an interrupted one with kExitInterrupted; the figures so far
// are kept for the outputs either way. Returns that exit code, or the error that ended a test.
Result<int> RunTests(const config::OptionSet& o, const io::EngineRegistry& engines,
                     const storage::Preset& preset, dist::Group* group, Clock& clock,
                     power::PowerSampler* sampler, driver::IoRunConfig* c, IoRunRecord* rec) {
  metrics::RunResult& r = rec->result;
  r.workload = "storage";
  r.started_at = WallClockIsoUtc();
  rec->start_stamp = WallClockIometer();
  int rc = kExitOk;
  c->end_on_tick = sampler != nullptr;  // power's windows average whole seconds
  c->on_times = [rec](int64_t t0, int64_t reset_at, int64_t end_at) {
    rec->times.push_back({t0, reset_at, end_at});
  };
  if (sampler) sampler->Start();
  for (size_t i = 0; i < preset.specs.size(); ++i) {
    const auto& spec = preset.specs[i];
    Progress("running '" + spec.name + "' for " + FormatDuration(c->ramp_nanos + c->run_nanos));
    if (sampler) sampler->Mark("test " + spec.name);
    auto t = driver::RunStorageTest(engines, spec, static_cast<int>(i), *c, clock, Progress);
    if (!t.ok()) return t.status();
    rec->stamps.push_back(WallClockIometer());
    // Every rank's figures of the test; the result's per-rank section is the first test's.
    if (group != nullptr && !FinishScaleOut(*group, o, c->workers, t->measured_sec, {}, &r)) {
      if (group->coordinator()) Progress("the run is incomplete: " + group->LostSummary());
      rc = kExitFailure;
    }
    r.storage.push_back(*t);
    r.measured_sec += t->measured_sec;
    if (t->interrupted) {
      r.interrupted = true;
      rc = kExitInterrupted;
      break;
    }
    if (!t->stopped.empty()) {
      Progress("'" + spec.name + "': " + t->stopped);
      r.warnings.push_back("'" + spec.name + "': " + t->stopped);
      rc = kExitFailure;
      break;
    }
  }
  r.ended_at = WallClockIsoUtc();
  if (sampler) {
    sampler->Mark("stop");
    sampler->Stop();
    r.power = StoragePower(sampler->Recording(), r.storage, rec->times);
  }
  return rc;
}

int Run(const config::OptionSet& o, const io::EngineRegistry& engines) {
  auto plan = session::PlanIoRun(o);
  if (!plan.ok()) return Fail(plan.status());
  auto settings = session::IoRunSettings(o, *plan);
  if (!settings.ok()) return Fail(settings.status());
  driver::IoRunConfig c = std::move(settings).value();
  c.stop = InstallStopHandlers();
  StopAtOnceFlag(kResultStillWritten);
  dist::Group* const group = dist::World();
  if (group != nullptr) {
    if (Status s = JoinRankGroup(o, group, &c); !s.ok()) return Fail(s);
  }
  if (Status s =
          driver::WindowsAndBaselinesFrom(o, metrics::StorageHeadlines(), &c.windows, &c.baselines);
      !s.ok()) {
    return Fail(s);
  }
  // Each test lasts ramp + run from its start, where its windows count from: a window past
  // that is refused before any target is opened.
  if (Status s = driver::CheckWindowsWithinRun(c.windows, c.baselines, c.ramp_nanos, c.run_nanos,
                                               "ramp_time", "the test's start");
      !s.ok()) {
    return Fail(s);
  }
  // Under mpirun rank 0 alone serves the metrics, reads the power sources, locks the targets
  // and reports: it has the whole run's figures, and ranks on one host would share a port and
  // the targets.
  const bool speaks = group == nullptr || group->coordinator();
  MetricsServer metrics_server;
  const std::string metrics_addr = speaks ? o.GetString("metrics_addr") : std::string();
  if (!metrics_addr.empty()) {
    if (Status s = metrics_server.Start(metrics_addr); !s.ok()) return Fail(s);
    Progress("serving Prometheus metrics on port " + std::to_string(metrics_server.port()));
  }
  IoRunLive live(o.GetString("progress"), metrics_addr.empty() ? nullptr : &metrics_server);
  c.on_interval = [&live](const metrics::TimeSeries& series,
                          const metrics::StatusFigures& running) { live.Update(series, running); };
  if (!metrics_addr.empty()) {
    c.on_live_totals = [&live](int spec_index, const metrics::LiveTotals& t) {
      live.UpdateTotals(spec_index, t);
    };
  }
  std::vector<std::string> warnings;
  auto locks = session::OpenRunTargets(o, *plan, /*lock=*/speaks, &c, &warnings);
  for (const std::string& w : warnings) Progress(w);
  if (!locks.ok()) return Fail(locks.status());
  // Power sources are opened before the tests: one that cannot be used ends the command here.
  SteadyClock clock;
  auto sampler =
      speaks ? OpenPower(o, clock) : Result<std::unique_ptr<power::PowerSampler>>(nullptr);
  if (!sampler.ok()) return Fail(sampler.status());
  if (c.engine == "psync" && c.outstanding > 1) {
    Progress(
        "note: psync is synchronous: each worker has 1 I/O in flight (use --workers for "
        "concurrency, or libaio/io_uring for outstanding I/Os)");
  }
  const std::string settings_text = IoRunSettingsText(o, c);
  PrintIoRunHeader(*plan, settings_text);

  IoRunRecord rec;
  auto rc = RunTests(o, engines, plan->preset, group, clock, sampler->get(), &c, &rec);
  if (!rc.ok()) return Fail(rc.status());
  if (!speaks) return *rc;  // rank 0 reports the whole run
  PrintIoRunReport(rec.result);
  DescribeIoRun(o, *plan, c, settings_text, &rec.result);
  const int code = IoRunExitCode(rec.result, WriteIoRunFiles(o, *plan, rec, *rc));
  // After every output is written: a scraper still gets the final counts meanwhile.
  if (!metrics_addr.empty()) metrics_server.Linger(o.GetDurationNanos("metrics_linger"), *c.stop);
  return code;
}

}  // namespace

int RunIoCommand(const std::vector<std::string>& args) {
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h" || args[0] == "help")) {
    std::fputs(kIoUsage, stdout);  // asked for: stdout, exit 0
    return kExitOk;
  }
  const io::EngineRegistry engines = MakeEngines();
  if (!args.empty() && IsIoFsCommand(args[0])) return RunIoFsCommand(args, engines);
  if (args.empty() || (args[0] != "prepare" && args[0] != "run" && args[0] != "verify")) {
    std::fprintf(stderr,
                 "storebench: 'io' needs one of prepare, run, verify, extents, fragment, defrag, "
                 "copy, read, churn, fragtest\n%s",
                 kIoUsage);
    return kExitBadInput;
  }
  config::OptionSet o;
  o.set_help_command("storebench io " + args[0] + " --help");
  DeclareIoOptions(&o, args[0], engines);
  std::vector<std::string> rest(args.begin() + 1, args.end());
  for (const auto& a : rest) {
    if (a == "--help" || a == "-h") {
      std::printf("usage: storebench io %s --target PATH [options]\n\n%s", args[0].c_str(),
                  o.HelpText().c_str());
      return kExitOk;
    }
  }
  if (Status s = config::ParseCommandLine(rest, &o); !s.ok()) return Fail(s);
  if (Status s = CheckIoPaths(args[0], o, rest); !s.ok()) return Fail(s);
  if (args[0] == "prepare") return IoPrepare(o);
  return args[0] == "verify" ? IoVerify(o, engines) : Run(o, engines);
}

}  // namespace sb::cli
