#include "cli/app.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <thread>

#include "backend/db/registry.h"
#include "base/clock.h"
#include "base/strings.h"
#include "cli/command_paths.h"
#include "cli/db_run.h"
#include "cli/result_path.h"
#include "cli/status_line.h"
#include "config/options.h"
#include "driver/load.h"
#include "driver/run_options.h"
#include "report/json_report.h"
#include "report/load_progress.h"
#include "workload/registry.h"

namespace sb::cli {
namespace {

constexpr const char* kUsage =
    "usage: storebench oltp load|run|verify|pristine|restore --db URL [options]\n"
    "       storebench oltp run --help     (all options)\n"
    "       storebench run --plan FILE.toml [options]   (many instances at once)\n"
    "       storebench consolidate --plan FILE.toml --instances 1..16 --runs 3 [options]\n"
    "       storebench io prepare|run|verify --target PATH [options]\n"
    "       storebench power log|idle --power SPEC [options]   (power alone; --power on runs)\n"
    "       storebench version\n"
    "\n"
    "  load    generate a DVD Store database and load it (--db_size=S|M|L|<n>MB|<n>GB)\n"
    "  run     run the DVD Store order loop and print DS3 status and Final lines\n"
    "  verify  check the database's consistency after runs\n"
    "  pristine  keep a copy of the loaded database that run --restore brings back\n"
    "  restore   bring the database back to that copy now\n"
    "\n"
    "Databases: sqlite:///path/to/file.db\n";

struct Context {
  config::OptionSet options;
  std::unique_ptr<workload::Workload> owned_workload;
  workload::Workload& workload() { return *owned_workload; }
  db::BackendRegistry registry = MakeBackends();
  std::string command;
};

Result<std::unique_ptr<db::DbBackend>> OpenDb(Context& c, bool create, int busy_timeout_ms) {
  return OpenDatabase(c.registry, c.workload(), c.options.GetString("db"), create, busy_timeout_ms);
}

int Load(Context& c) {
  // Before anything looks at the database: a load under way must not be replaced (--force) or
  // be told to be redone.
  auto lock = LockDatabase(c.registry, c.options.GetString("db"), "oltp load");
  if (!lock.ok()) return Fail(lock.status());
  auto backend = OpenDb(c, /*create=*/true, 30000);
  if (!backend.ok()) return Fail(backend.status());
  workload::LoadContext ctx;
  ctx.threads = static_cast<int>(c.options.GetInt("load_threads"));
  ctx.force = c.options.GetBool("force");
  ctx.csv_dir = c.options.GetString("csv_dir");
  ctx.seed = static_cast<uint64_t>(c.options.GetInt("seed"));
  ctx.stop = InstallStopHandlers();
  // Rewritten each second on a terminal; a plain line every 10 s in a log.
  StatusLine line(stderr, isatty(STDERR_FILENO) == 1, 10);
  ctx.progress = [&line](const std::string& m) { line.Message(m); };
  driver::LoadProgress progress;
  progress.on_sample = [&line](const metrics::LoadSample& s) {
    line.Update(report::FormatLoadProgress(s), /*force=*/s.data_done);
  };
  SteadyClock clock;
  driver::LoadOutcome out = driver::RunLoad(c.workload(), **backend, ctx, clock, progress);
  line.End();
  if (!out.status.ok()) return FailDuringWork(out.status);
  backend->reset();  // no session of ours may stay open on a database being copied
  if (c.options.GetBool("pristine")) {
    if (Status s = SavePristineCopy(c.registry, c.options.GetString("db"), &lock.value(),
                                    "oltp load");
        !s.ok()) {
      return Fail(s);
    }
  }
  const double secs = out.seconds > 0 ? out.seconds : 1;
  std::printf(
      "loaded %s into %s: %lld rows in %.1f s (%.0f rows/s; %.1f MB of row text, %.1f MB/s)\n",
      c.workload().Describe().c_str(), c.options.GetString("db").c_str(),
      static_cast<long long>(out.rows), out.seconds, static_cast<double>(out.rows) / secs,
      static_cast<double>(out.bytes) / 1e6, static_cast<double>(out.bytes) / 1e6 / secs);
  return kExitOk;
}

Status CheckDatabase(Context& c, db::DbBackend& backend, std::unique_ptr<db::Connection>* conn) {
  auto opened = backend.Connect();
  if (!opened.ok()) return opened.status();
  *conn = std::move(opened).value();
  return c.workload().CheckReady(**conn);
}

int Verify(Context& c) {
  // Counts taken during a load or a run would not add up.
  auto lock = LockDatabase(c.registry, c.options.GetString("db"), "oltp verify");
  if (!lock.ok()) return Fail(lock.status());
  auto backend = OpenDb(c, false, 3000);
  if (!backend.ok()) return Fail(backend.status());
  std::unique_ptr<db::Connection> conn;
  if (Status s = CheckDatabase(c, **backend, &conn); !s.ok()) return Fail(s);
  auto checks = c.workload().Verify(*conn, {}, nullptr);
  if (!checks.ok()) return Fail(checks.status());
  bool all = true;
  for (const auto& ch : *checks) {
    std::printf("verify %-24s %s  %s\n", ch.name.c_str(), ch.passed ? "PASS" : "FAIL",
                ch.detail.c_str());
    all = all && ch.passed;
  }
  std::printf("verify: %s\n", all ? "all checks passed" : "FAILED");
  return all ? kExitOk : kExitFailure;
}

// `oltp pristine`: a copy of the database as it is now, which `run --restore` brings back.
// Only a database that holds the workload at the size asked for is copied.
int Pristine(Context& c) {
  auto lock = LockDatabase(c.registry, c.options.GetString("db"), "oltp pristine");
  if (!lock.ok()) return Fail(lock.status());
  {
    auto backend = OpenDb(c, false, 3000);
    if (!backend.ok()) return Fail(backend.status());
    std::unique_ptr<db::Connection> conn;
    if (Status s = CheckDatabase(c, **backend, &conn); !s.ok()) return Fail(s);
  }
  if (Status s = SavePristineCopy(c.registry, c.options.GetString("db"), &lock.value(),
                                  "oltp pristine");
      !s.ok()) {
    return Fail(s);
  }
  return kExitOk;
}

// `oltp restore`: the database brought back to its pristine copy now (as run --restore does
// before a run).
int Restore(Context& c) {
  DbSetup setup;
  setup.url = c.options.GetString("db");
  auto lock = LockDatabase(c.registry, setup.url, "oltp restore");
  if (!lock.ok()) return Fail(lock.status());
  setup.lock = std::move(lock).value();
  if (Status s = RestoreDatabase(c.registry, &setup, "oltp restore", false); !s.ok()) {
    return Fail(s);
  }
  return kExitOk;
}

// The options of `command` for `workload`, parsed from `args`.
Status ParseOptions(const std::string& command, const workload::WorkloadRegistry& workloads,
                    workload::Workload& workload, const std::vector<std::string>& args,
                    config::OptionSet* options) {
  DeclareCliOptions(options, command, workloads);
  workload.DeclareOptions(options);
  if (command == "run") driver::DeclareRunOptions(options);
  SB_RETURN_IF_ERROR(config::ParseCommandLine(args, options));
  return workload.Configure(*options);
}

// `oltp run`: one database, or several as DVD Store 3's target list ("URL1;URL2"): one instance
// per database, the threads spread over them round robin (thread t drives target t mod n).
int Run(Context& c, const workload::WorkloadRegistry& workloads, const std::string& workload_name,
        const std::vector<std::string>& args) {
  if (c.options.GetDouble("think_time") < 0) {
    return Fail(Status::InvalidArgument("option think_time must not be negative"));
  }
  if (c.options.GetDouble("rate") < 0) {
    return Fail(Status::InvalidArgument("option rate must not be negative"));
  }
  std::vector<std::string> urls;
  for (const std::string& u : SplitTrimmed(c.options.GetString("db"), ';')) {
    if (!u.empty()) urls.push_back(u);
  }
  if (urls.size() <= 1) {
    auto targets = ExpandTargets(c.options.GetString("db"), c.options.GetString("target"));
    if (!targets.ok()) return Fail(targets.status());
    if (targets->size() > 1) urls = std::move(targets).value();
  } else if (Status s = ExpandTargets(c.options.GetString("db"), c.options.GetString("target"))
                            .status();
             !s.ok()) {
    return Fail(s);
  }
  if (urls.size() > 1024) {
    return Fail(Status::InvalidArgument("--db names " + std::to_string(urls.size()) +
                                        " databases; at most 1024 instances are supported"));
  }
  std::vector<DbSetup> setups;
  if (urls.size() <= 1) {
    DbSetup one;
    one.url = c.options.GetString("db");
    one.workload = std::move(c.owned_workload);
    one.options = std::make_unique<config::OptionSet>(std::move(c.options));
    setups.push_back(std::move(one));
  } else {
    const int64_t threads = c.options.GetInt("n_threads");
    const auto n = static_cast<int64_t>(urls.size());
    if (threads < n) {
      return Fail(Status::InvalidArgument(
          "n_threads (" + std::to_string(threads) + ") is fewer than the " + std::to_string(n) +
          " databases of --db: each needs at least one thread (threads are spread round robin)"));
    }
    for (int64_t i = 0; i < n; ++i) {
      DbSetup s;
      s.name = std::to_string(i + 1);
      s.url = urls[i];
      s.workload = workloads.Create(workload_name).value();
      s.options = std::make_unique<config::OptionSet>();
      s.options->set_help_command("storebench oltp run --help");
      std::vector<std::string> own = args;
      own.push_back("--db=" + urls[i]);
      own.push_back("--n_threads=" + std::to_string(RoundRobinShare(threads, n, i)));
      if (Status st = ParseOptions("run", workloads, *s.workload, own, s.options.get()); !st.ok()) {
        return Fail(st);
      }
      setups.push_back(std::move(s));
    }
  }
  // Every database is locked before any is checked: a run's verification counts the orders
  // it made, so two runs on one database would count each other's.
  for (size_t i = 0; i < setups.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (setups[j].url == setups[i].url) {
        return Fail(Status::InvalidArgument("--db names " + setups[i].url +
                                            " twice: each instance needs a database of its own"));
      }
    }
    auto lock = LockDatabase(c.registry, setups[i].url, "oltp run");
    if (!lock.ok()) return Fail(lock.status());
    setups[i].lock = std::move(lock).value();
  }
  for (DbSetup& s : setups) {
    if (s.options->GetBool("restore")) {
      if (Status st = RestoreDatabase(c.registry, &s, "oltp run", setups.size() > 1); !st.ok()) {
        return Fail(st);
      }
    }
    if (Status st = PrepareDatabase(c.registry, &s, setups.size() > 1); !st.ok()) return Fail(st);
  }
  // The first instance's options hold the run's common settings (the same for every instance).
  return RunDatabases(setups, *setups[0].options);
}

}  // namespace

int Main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::fputs(kUsage, args.empty() ? stderr : stdout);
    return args.empty() ? kExitBadInput : kExitOk;
  }
  if (args[0] == "version" || args[0] == "--version") {
    std::printf("storebench %s\n", report::ToolVersion());
    return kExitOk;
  }
  if (args[0] == "io") return RunIoCommand({args.begin() + 1, args.end()});
  if (args[0] == "run") return RunPlanCommand({args.begin() + 1, args.end()});
  if (args[0] == "consolidate") return RunConsolidateCommand({args.begin() + 1, args.end()});
  if (args[0] == "power") return RunPowerCommand({args.begin() + 1, args.end()});
  if (args[0] != "oltp") {
    std::fprintf(stderr, "storebench: unknown command '%s'\n%s", args[0].c_str(), kUsage);
    return kExitBadInput;
  }
  if (args.size() < 2 || (args[1] != "load" && args[1] != "run" && args[1] != "verify" &&
                          args[1] != "pristine" && args[1] != "restore")) {
    std::fprintf(stderr,
                 "storebench: 'oltp' needs one of load, run, verify, pristine, restore\n%s",
                 kUsage);
    return kExitBadInput;
  }
  Context c;
  c.command = args[1];
  // The workload decides which options exist, so find --workload before parsing the rest.
  std::string workload_name = "dvdstore";
  for (size_t i = 2; i < args.size(); ++i) {
    if (args[i].rfind("--workload=", 0) == 0) workload_name = args[i].substr(11);
    if (args[i] == "--workload" && i + 1 < args.size()) workload_name = args[i + 1];
  }
  const workload::WorkloadRegistry workloads = MakeWorkloads();
  auto created = workloads.Create(workload_name);
  if (!created.ok()) return Fail(created.status());
  c.owned_workload = std::move(created).value();
  std::vector<std::string> rest(args.begin() + 2, args.end());
  for (const auto& a : rest) {
    if (a == "--help" || a == "-h") {
      DeclareCliOptions(&c.options, c.command, workloads);
      c.workload().DeclareOptions(&c.options);
      if (c.command == "run") driver::DeclareRunOptions(&c.options);
      std::printf("usage: storebench oltp %s --db URL [options]\n\n%s", c.command.c_str(),
                  c.options.HelpText().c_str());
      return kExitOk;
    }
  }
  if (Status s = ParseOptions(c.command, workloads, c.workload(), rest, &c.options); !s.ok()) {
    return Fail(s);
  }
  if (Status s = CheckOltpPaths(c.command, c.options, rest); !s.ok()) return Fail(s);
  if (c.command == "load") return Load(c);
  if (c.command == "verify") return Verify(c);
  if (c.command == "pristine") return Pristine(c);
  if (c.command == "restore") return Restore(c);
  return Run(c, workloads, workload_name, rest);
}

}  // namespace sb::cli
