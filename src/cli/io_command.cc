// storebench io prepare|run: Iometer-style storage tests (docs/storage.md).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/file_lock.h"
#include "base/limits.h"
#include "base/units.h"
#include "cli/app.h"
#include "cli/builtins.h"
#include "cli/command_paths.h"
#include "cli/io_fs_commands.h"
#include "cli/io_run_live.h"
#include "cli/io_run_output.h"
#include "cli/io_run_plan.h"
#include "cli/io_targets.h"
#include "cli/metrics_server.h"
#include "cli/power_cli.h"
#include "cli/scale_out.h"
#include "cli/storage_options.h"
#include "config/options.h"
#include "dist/world.h"
#include "driver/io_runner.h"
#include "driver/io_verify.h"
#include "driver/run_options.h"
#include "metrics/headline.h"
#include "storebench/io_engine.h"
#include "workload/fs/target_extents.h"
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

void DeclareIoOptions(config::OptionSet* o, const std::string& command,
                      const io::EngineRegistry& engines) {
  using config::OptionSpec;
  using config::OptionType;
  if (command == "run") DeclareScaleOutOptions(o);
  const StorageOptionAdder add(o);
  o->Add(
      {.name = "target",
       .help =
           "test file (like Iometer's iobw.tst) or block device; several, repeated or "
           "comma-separated: io run runs every worker on all of them, prepare and verify do each",
       .group = "storage",
       .repeatable = true});
  add("direct", OptionType::kBool, "Y",
      "O_DIRECT with aligned buffers (N: through the page cache)");
  add("seed", OptionType::kInt, "1", "run seed: every random stream derives from it");
  add("force_destroy", OptionType::kBool, "N",
      "write to a target storebench did not create (destroys its data)");
  auto add_pattern = [&] {
    add("pattern", OptionType::kEnum, "full_random",
        "data written: repeating (one byte, compressible), pseudo_random (one buffer per worker) "
        "or full_random (a fresh random window per write)",
        {"repeating", "pseudo_random", "full_random"});
  };
  auto add_range = [&](const char* default_text) {
    add("max_size", OptionType::kString, "",
        (std::string("test range (Iometer \"Maximum Disk Size\"), e.g. 8GiB or 16000000s "
                     "(sectors); default: ") +
         default_text)
            .c_str());
    add.Ranged("start_sector", OptionType::kInt, "0", 0, INT64_MAX / storage::kSectorBytes,
               "first 512-byte sector of the test range");
  };
  if (command == "prepare") {
    add("size", OptionType::kString, "1GiB", "size of the test file's data area");
    add_pattern();
    add.Ranged("fragment", OptionType::kInt, "0", 0, INT64_MAX,
               "then fragment each target to about this many extents (as io fragment; 0: no)");
    return;
  }
  std::vector<std::string> names = engines.Names();
  if (command == "verify") {
    std::erase(names, "null");  // it transfers no data
    add("engine", OptionType::kEnum, "io_uring", "I/O engine", names);
    add.Ranged("outstanding", OptionType::kInt, "32", 1, limits::kMaxOutstanding, "I/Os in flight");
    add("block_size", OptionType::kString, "4KiB",
        "verify block size (a multiple of 512 B); each block carries its offset and a checksum");
    // Reading is the default: a check must not destroy what it checks (write only when asked).
    add("verify_phase", OptionType::kEnum, "read",
        "read (check the verify blocks a write phase left; never writes), write (fill the range "
        "with verify blocks) or both (write, then read back)",
        {"read", "write", "both"});
    add("readonly", OptionType::kBool, "N", "never write: only --verify_phase=read is allowed");
    add_range("the whole test file");
    return;
  }
  add_pattern();
  add("preset", OptionType::kString, "",
      "vmtn (the four VMTN thread specifications), database, fileserver, webserver, workstation");
  add("spec", OptionType::kString, "",
      "an access specification, e.g. \"8KiB,65%read,60%random\"; lines separated by ';' with "
      "\"40%of\" shares, delay=, burst=, align=sector|size|<bytes>");
  add("icf", OptionType::kString, "",
      "an Iometer configuration file: its access specifications (those assigned to its disk "
      "workers) and test setup (run time, ramp, workers, outstanding I/Os, test range, data "
      "pattern); options given on the command line override the file");
  add("engine", OptionType::kEnum, "io_uring", "I/O engine", names);
  add.Ranged("workers", OptionType::kInt, "1", 1, limits::kMaxIoWorkers,
             "worker threads (each with its own engine and cursor)");
  add.Ranged(
      "outstanding", OptionType::kInt, "1", 1, limits::kMaxOutstanding,
      "outstanding I/Os per worker and target (Iometer \"# of Outstanding I/Os\"; the presets "
      "use 64)");
  add.Ranged("submit_batch", OptionType::kInt, "1", 0, limits::kMaxOutstanding,
             "I/Os per submit call: 1 submits each I/O as soon as it is generated (Iometer, fio's "
             "default); N hands up to N to one call; 0 all free slots at once (fewer system calls, "
             "but the I/Os travel in waves)");
  o->Add(
      {.name = "rate",
       .type = OptionType::kDouble,
       .default_value = "0",
       .help =
           "open loop: start I/Os at this rate per second (over every worker and target), latency "
           "measured from each I/O's scheduled start, so waiting for a free slot counts; 0 = "
           "closed "
           "loop (Iometer's model: a new I/O as soon as one completes)",
       .group = "storage",
       .min_double = limits::kMinRatePerSec,
       .max_double = limits::kMaxRatePerSec,
       .zero_is_off = true});
  add("arrival", OptionType::kEnum, "constant", "open loop: evenly spaced or Poisson arrivals",
      {"constant", "poisson"});
  add.Ranged("max_lag", OptionType::kDuration, "10s", 0, limits::kMaxDurationNanos,
             "open loop: stop the test when the schedule falls this far behind");
  add.Ranged("run_time", OptionType::kDuration, "30s", 0, limits::kMaxDurationNanos,
             "measured time per specification (vmtn: 120s; --icf: the file's)");
  add.Ranged("ramp_time", OptionType::kDuration, "0s", 0, limits::kMaxDurationNanos,
             "time per specification before measuring");
  add("align", OptionType::kEnum, "sector",
      "preset alignment: sector (512 B, Iometer <= 1.0) or size (transfer size, Iometer 1.1.0)",
      {"sector", "size"});
  add_range("the preset's, else the whole test file");
  add("readonly", OptionType::kBool, "N", "never write: refuse specifications with writes");
  add("json", OptionType::kString, "",
      "result document path (default results/<timestamp>-io.json)");
  add("label", OptionType::kString, "",
      "a label recorded in the result (e.g. ft-on), by which storebench compare groups runs");
  add("window", OptionType::kString, "",
      "report windows measured from each test's start, e.g. 10s-20s: per-second IOPS "
      "min/mean/median/max, latency percentiles, iops, mib_per_sec");
  add("baseline", OptionType::kString, "",
      "pass/fail rules separated by ';', judged for every specification, e.g. "
      "iops>=50000@10s-20s, mib_per_sec>=200@run or p99_ms<=5@run (metrics: iops, read_iops, "
      "write_iops, mib_per_sec, units, p50_ms ... max_ms)");
  add("baseline_rule", OptionType::kEnum, "window_mean",
      "how a rate baseline is judged: window_mean, every_interval (every 10-s interval), "
      "ds_cumulative (the cumulative figure since the ramp at every second)",
      {"window_mean", "every_interval", "ds_cumulative"});
  add("progress", OptionType::kEnum, "human",
      "live output on stderr: human (the per-test lines), json (one JSON object per second), none",
      {"human", "json", "none"});
  add("metrics_addr", OptionType::kString, "",
      "serve live figures in the Prometheus text format, e.g. 127.0.0.1:9464 (off by default)");
  add("csv", OptionType::kString, "", "also write an Iometer 1.1.0 'Results CSV file");
  add("series_csv", OptionType::kString, "", "also write the per-second time series as CSV");
  add("description", OptionType::kString, "storebench io run",
      "test description in the CSV (--icf: the file's, when it has one)");
  DeclarePowerOption(o);
}

int Prepare(const config::OptionSet& o) {
  auto targets = TargetPaths(o);
  if (!targets.ok()) return Fail(targets.status());
  storage::PrepareOptions p;
  auto size = ParseBytes(o.GetString("size"));
  if (!size.ok()) return Fail(size.status());
  p.data_bytes = *size;
  p.pattern = storage::ParseDataPattern(o.GetString("pattern")).value();
  p.seed = static_cast<uint64_t>(o.GetInt("seed"));
  p.direct = o.GetBool("direct");
  p.force_destroy = o.GetBool("force_destroy");
  p.stop = InstallStopHandlers();
  // Every target is locked before any is written; a target is created (empty) to be locked.
  std::vector<std::unique_ptr<FileLock>> locks;
  std::vector<bool> new_file;
  for (const std::string& path : *targets) {
    std::error_code ec;
    const auto parent = std::filesystem::path(path).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    bool made = false;
    auto lock = LockTarget(path, /*write=*/true, /*create=*/true, &made);
    if (!lock.ok()) return Fail(lock.status());
    locks.push_back(std::move(lock).value());
    new_file.push_back(made);
  }
  for (size_t i = 0; i < targets->size(); ++i) {
    const std::string& path = (*targets)[i];
    p.path = path;
    p.new_file = new_file[i];
    bool created = false;
    const int64_t t0 = SteadyClock().NowNanos();
    if (Status s = storage::PrepareTestFile(p, Progress, &created); !s.ok()) {
      // A file created only to be locked, refused before anything was written, is not left
      // behind (an empty file would look like someone else's to the next prepare).
      std::error_code ec;
      if (p.new_file && std::filesystem::file_size(path, ec) == 0 && !ec) {
        std::filesystem::remove(path, ec);
      }
      return Fail(s);
    }
    if (o.GetInt("fragment") > 0) {
      StopAtOnceFlag(kBatchStillPutBack);
      auto r = FragmentTestFile(path, o.GetInt("fragment"), fs::FragmentMethod::kAuto, p.stop);
      if (!r.ok()) return Fail(r.status());
      if (r->new_lock) locks[i] = std::move(r->new_lock);
      if (Status s = fsload::FragmentShortfall(path, o.GetInt("fragment"), *r); !s.ok()) return Fail(s);
    }
    if (created) {
      const double sec = static_cast<double>(SteadyClock().NowNanos() - t0) / 1e9;
      std::printf("prepared %s: %llu bytes of %s data after a 1 MiB header (%.1f s, %.0f MiB/s)\n",
                  p.path.c_str(), static_cast<unsigned long long>(p.data_bytes),
                  storage::DataPatternName(p.pattern), sec,
                  sec > 0 ? static_cast<double>(p.data_bytes) / sec / 1048576.0 : 0);
    }
  }
  return kExitOk;
}

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
  auto plan = PlanIoRun(o);
  if (!plan.ok()) return Fail(plan.status());
  auto settings = IoRunSettings(o, *plan);
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
  auto locks = OpenRunTargets(o, *plan, /*lock=*/speaks, &c);
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
  return IoRunExitCode(rec.result, WriteIoRunFiles(o, *plan, rec, *rc));
}

int Verify(const config::OptionSet& o, const io::EngineRegistry& engines) {
  auto targets = TargetPaths(o);
  if (!targets.ok()) return Fail(targets.status());
  const std::string phase = o.GetString("verify_phase");
  const bool write = phase != "read", read = phase != "write";
  if (write && o.GetBool("readonly")) {
    return Fail(Status::InvalidArgument(
        "--readonly: the write phase writes; use --verify_phase=read to check blocks written "
        "before"));
  }
  auto block = ParseBytes(o.GetString("block_size"));
  if (!block.ok()) return Fail(block.status());
  if (*block < 512 || *block % 512 != 0 || *block > (64u << 20)) {
    return Fail(Status::InvalidArgument("block_size must be a multiple of 512 B up to 64 MiB"));
  }
  uint64_t wanted = 0;
  if (!o.GetString("max_size").empty()) {
    auto r = ParseMaxSize(o.GetString("max_size"));
    if (!r.ok()) return Fail(r.status());
    wanted = *r;
  }
  const uint64_t start = static_cast<uint64_t>(o.GetInt("start_sector")) * storage::kSectorBytes;
  driver::VerifyConfig c;
  c.engine = o.GetString("engine");
  c.block = static_cast<uint32_t>(*block);
  c.seed = static_cast<uint64_t>(o.GetInt("seed"));
  c.depth = static_cast<int>(std::clamp<int64_t>(o.GetInt("outstanding"), 1, 65536));
  c.direct = o.GetBool("direct");
  c.stop = InstallStopHandlers();
  // Every target is locked and checked for writing before any is written.
  std::vector<std::unique_ptr<FileLock>> locks;
  for (const std::string& path : *targets) {
    auto lock = LockTarget(path, write, /*create=*/false);
    if (!lock.ok()) return Fail(lock.status());
    locks.push_back(std::move(lock).value());
  }
  std::vector<driver::IoTarget> ranges;
  for (const std::string& path : *targets) {
    auto info = storage::InspectTarget(path);
    if (!info.ok()) return Fail(info.status());
    if (write) {
      if (Status s = storage::CheckWritable(*info, o.GetBool("force_destroy")); !s.ok()) {
        return Fail(s);
      }
    }
    auto range = TestRange(*info, start, wanted);
    if (!range.ok()) return Fail(range.status());
    if (range->range_bytes < c.block) {
      return Fail(Status::InvalidArgument("the test range of '" + path + "' is smaller than one " +
                                          std::to_string(c.block) + "-byte block"));
    }
    ranges.push_back(*range);
  }
  SteadyClock clock;
  uint64_t mismatches = 0;
  uint64_t headerless = 0;  // mismatches of blocks without a verify header
  for (const driver::IoTarget& t : ranges) {
    c.path = t.path;
    c.range_start = t.range_start;
    c.range_bytes = t.range_bytes;
    const uint64_t blocks = t.range_bytes / c.block;
    std::printf("verify %s: %llu blocks of %u B from byte %llu, seed %llu, engine %s, %s\n",
                t.path.c_str(), static_cast<unsigned long long>(blocks), c.block,
                static_cast<unsigned long long>(t.range_start),
                static_cast<unsigned long long>(c.seed), c.engine.c_str(),
                c.direct ? "O_DIRECT" : "buffered");
    std::fflush(stdout);
    auto rate = [](const driver::VerifyPhase& p, uint32_t block) {
      return p.seconds > 0 ? static_cast<double>(p.blocks) * block / p.seconds / 1048576.0 : 0;
    };
    if (write) {
      auto w = driver::WriteVerifyBlocks(engines, c, clock, Progress);
      if (!w.ok()) return Fail(w.status());
      std::printf("  write: %llu blocks written in %.1f s (%.0f MiB/s)\n",
                  static_cast<unsigned long long>(w->blocks), w->seconds, rate(*w, c.block));
      if (w->interrupted) return kExitInterrupted;
    }
    if (read) {
      auto r = driver::ReadVerifyBlocks(engines, c, clock, Progress);
      if (!r.ok()) return Fail(r.status());
      for (const std::string& m : r->mismatches) std::printf("  mismatch: %s\n", m.c_str());
      std::printf("  read: %llu blocks checked in %.1f s (%.0f MiB/s): %zu mismatch%s\n",
                  static_cast<unsigned long long>(r->blocks), r->seconds, rate(*r, c.block),
                  r->mismatches.size(), r->mismatches.size() == 1 ? "" : "es");
      mismatches += r->mismatches.size();
      headerless += static_cast<uint64_t>(std::count_if(
          r->mismatches.begin(), r->mismatches.end(),
          [](const std::string& m) { return m.find("no verify header") != std::string::npos; }));
      if (r->interrupted) return kExitInterrupted;
    }
    std::fflush(stdout);
  }
  if (read) std::printf("verify: %s\n", mismatches == 0 ? "all blocks intact" : "FAILED");
  if (read && !write && mismatches > 0 && headerless == mismatches) {
    std::printf(
        "verify: no block carries a verify header: the range was never written by io verify; "
        "write it first with --verify_phase=write (or --verify_phase=both)\n");
  }
  return mismatches == 0 ? kExitOk : kExitFailure;
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
  if (args[0] == "prepare") return Prepare(o);
  return args[0] == "verify" ? Verify(o, engines) : Run(o, engines);
}

}  // namespace sb::cli
