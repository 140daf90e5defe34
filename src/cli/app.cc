#include "cli/app.h"

#include <unistd.h>

#include <algorithm>
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
#include "cli/scale_out.h"
#include "cli/status_line.h"
#include "cli/sysbench_options.h"
#include "config/options.h"
#include "dist/world.h"
#include "driver/load.h"
#include "driver/run_options.h"
#include "report/json_report.h"
#include "report/load_progress.h"
#include "session/load_dry_run.h"
#include "version/version.h"
#include "workload/registry.h"

namespace sb::cli {
namespace {

// The top-level usage: every command, every workload (from the registry, so a new one is listed
// without editing this text) and every database URL scheme. Lines stay within 100 columns.
std::string Usage() {
  std::string out =
      "usage: storebench oltp load|run|verify|pristine|restore --db URL [options]\n"
      "       storebench oltp prepare|run|cleanup --workload=oltp [sysbench's options]\n"
      "       storebench run --plan FILE.toml [options]   (many instances at once)\n"
      "       storebench consolidate --plan FILE.toml --instances 1..16 --runs 3 [options]\n"
      "       storebench io prepare|run|verify --target PATH [options]\n"
      "       storebench io extents|fragment|defrag|copy|read|churn|fragtest ...\n"
      "       storebench power log|idle --power SPEC [options]   (power alone; --power on runs)\n"
      "       storebench compare RESULT.json... | A='a/*.json' B='b/*.json' [--json F] [--csv F]\n"
      "       storebench exec --label L -- COMMAND...   (any command as a timed run)\n"
      "       storebench ab --a \"CMD\" --b \"CMD\" --rounds 5 [--between \"CMD\"]\n"
      "       storebench report RESULT.json... -o report.html\n"
      "       storebench version\n"
      "       storebench COMMAND [SUBCOMMAND] --help   (its options; oltp: of every workload)\n"
      "\n"
      "Commands:\n"
      "oltp         database workloads (--workload NAME, below):\n"
      "  load       generate the workload's database and load it (DVD Store: "
      "--db_size=S|M|L|<n>MB|<n>GB)\n"
      "  run        run the workload: DVD Store's status and Final lines, or sysbench's report\n"
      "  verify     check the database's consistency after runs\n"
      "  pristine   keep a copy of the loaded database that run --restore brings back\n"
      "  restore    bring the database back to that copy now\n"
      "  prepare, cleanup   sysbench's words: load, and drop the tables (--workload oltp)\n"
      "run          many instances from a plan file (docs/plans.md)\n"
      "consolidate  the most instances that pass a baseline (docs/consolidation.md)\n"
      "io           storage workloads: Iometer access specifications on files or devices\n"
      "  prepare    create the test file; run: run specifications; verify: check verify blocks\n"
      "  extents, fragment, defrag, copy, read, churn, fragtest   file layout: extent maps,\n"
      "             fragmenting and defragmenting, timed copies (docs/storage.md)\n"
      "power        power without a workload: log the sources, or measure idle (docs/power.md)\n"
      "compare      compare groups of results with confidence intervals (docs/compare.md)\n"
      "exec         run any command as a timed run with a result document (docs/compare.md)\n"
      "ab           alternate two commands for some rounds and compare them (docs/compare.md)\n"
      "report       an HTML report of result and comparison files (docs/report.md)\n"
      "version      the program's version\n"
      "\n"
      "Workloads (oltp --workload NAME):\n";
  const workload::WorkloadRegistry workloads = MakeWorkloads();
  for (const std::string& name : workloads.Names()) {
    std::string line = "  " + name;
    line.resize(std::max<size_t>(line.size() + 2, 13), ' ');
    line += workloads.HelpOf(name);
    if (name == "dvdstore") line += " (the default)";
    out += line + "\n";
  }
  out +=
      "\n"
      "Databases (--db URL; passwords never in the URL: PGPASSWORD/~/.pgpass, "
      "MYSQL_PWD/~/.my.cnf):\n"
      "  sqlite:///path/to/file.db              SQLite file (created by load; the directory "
      "must exist)\n"
      "  postgresql://user@host:port/database   PostgreSQL (alias postgres://)\n"
      "  mysql://user@host:port/database        MySQL or MariaDB (alias mariadb://)\n"
      "  null://                                does nothing: measures the harness "
      "(--workload=noop)\n"
      "  \"URL1;URL2\"                            several databases, one instance each (DS3's "
      "target list)\n";
  return out;
}

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

// `oltp load --dry_run`: the plan, and exit 2 when the storage lacks the space; no lock is taken
// and nothing is created (SQLite's back end creates its file only on connecting).
int LoadDryRun(Context& c) {
  auto backend = OpenDb(c, /*create=*/true, 3000);
  if (!backend.ok()) return Fail(backend.status());
  workload::LoadContext ctx;
  ctx.force = c.options.GetBool("force");
  ctx.csv_dir = c.options.GetString("csv_dir");
  ctx.seed = static_cast<uint64_t>(c.options.GetInt("seed"));
  auto plan = session::PlanLoadDryRun(c.workload(), **backend, ctx);
  if (!plan.ok()) return Fail(plan.status());
  std::fputs(plan->text.c_str(), stdout);
  std::fflush(stdout);
  return plan->refusal.ok() ? kExitOk : Fail(plan->refusal);
}

int Load(Context& c) {
  if (c.options.GetBool("dry_run")) return LoadDryRun(c);
  // Before anything looks at the database: a load under way must not be replaced (--force) or
  // be told to be redone.
  auto lock = LockDatabase(c.registry, c.options.GetString("db"), "oltp load");
  if (!lock.ok()) return Fail(lock.status());
  auto backend = OpenDb(c, /*create=*/true, 30000);
  if (!backend.ok()) return Fail(backend.status());
  workload::LoadContext ctx;
  ctx.threads = static_cast<int>(c.options.GetInt("load_threads"));
  ctx.index_threads = static_cast<int>(c.options.GetInt("index_threads"));
  ctx.force = c.options.GetBool("force");
  ctx.csv_dir = c.options.GetString("csv_dir");
  ctx.seed = static_cast<uint64_t>(c.options.GetInt("seed"));
  ctx.stop = InstallStopHandlers();
  // Rewritten each second on a terminal; a plain line every 10 s in a log.
  StatusLine line(stderr, isatty(STDERR_FILENO) == 1, 10);
  ctx.progress = [&line](const std::string& m) { line.Message(m); };
  driver::LoadProgress progress;
  progress.on_sample = [&line](const metrics::LoadSample& s) {
    // Always shown: the "data in" line and the index phase's last (ETA 0: every step done).
    line.Update(report::FormatLoadProgress(s),
                /*force=*/s.data_done && (!s.index_phase || s.eta_sec == 0));
  };
  SteadyClock clock;
  driver::LoadOutcome out = driver::RunLoad(c.workload(), **backend, ctx, clock, progress);
  line.End();
  if (!out.status.ok()) return FailDuringWork(out.status);
  backend->reset();  // no session of ours may stay open on a database being copied
  if (c.options.GetBool("pristine")) {
    if (Status s =
            SavePristineCopy(c.registry, c.options.GetString("db"), &lock.value(), "oltp load");
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
  if (Status s =
          SavePristineCopy(c.registry, c.options.GetString("db"), &lock.value(), "oltp pristine");
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
  setup.workload = std::move(c.owned_workload);  // what its runs write (--workload)
  if (Status s = RestoreDatabase(c.registry, &setup, "oltp restore", false); !s.ok()) {
    return Fail(s);
  }
  return kExitOk;
}

// Every option of `command` for `workload`.
void DeclareAllOptions(const std::string& command, const workload::WorkloadRegistry& workloads,
                       workload::Workload& workload, config::OptionSet* options) {
  DeclareCliOptions(options, command, workloads);
  workload.DeclareOptions(options);
  if (command == "run") driver::DeclareRunOptions(options, workload.shape());
  if (workload.shape().sysbench_style) DeclareSysbenchOptions(options);
}

// The options the other workloads add (--workload NAME), each under its own heading.
std::string OtherWorkloadsHelp(const workload::WorkloadRegistry& workloads,
                               const std::string& shown) {
  std::string out;
  for (const std::string& name : workloads.Names()) {
    if (name == shown) continue;
    auto w = workloads.Create(name);
    if (!w.ok()) continue;
    config::OptionSet o;
    (*w)->DeclareOptions(&o);
    if ((*w)->shape().sysbench_style) DeclareSysbenchOptions(&o);
    std::string text = o.HelpText();
    // The --config_file entry (its lines up to the first group) is the same for every
    // workload: shown once, above.
    if (text.rfind("  --config_file", 0) == 0) {
      const size_t end = text.find("\n\n");
      text.erase(0, end == std::string::npos ? text.size() : end + 1);
    }
    while (!text.empty() && text.front() == '\n') text.erase(0, 1);
    out += "\nwith --workload " + name +
           (text.empty() ? std::string(" (no options of its own)\n") : ":\n" + text);
  }
  return out;
}

// sysbench's cleanup: drops what the workload's load created.
int Cleanup(Context& c) {
  auto lock = LockDatabase(c.registry, c.options.GetString("db"), "oltp cleanup");
  if (!lock.ok()) return Fail(lock.status());
  auto backend = OpenDb(c, /*create=*/false, 30000);
  if (!backend.ok()) return Fail(backend.status());
  const Status s = c.workload().Cleanup(**backend, [](const std::string& m) {
    std::printf("%s\n", m.c_str());
    std::fflush(stdout);
  });
  return s.ok() ? kExitOk : Fail(s);
}

// The options of `command` for `workload`, parsed from `args`.
Status ParseOptions(const std::string& command, const workload::WorkloadRegistry& workloads,
                    workload::Workload& workload, const std::vector<std::string>& args,
                    config::OptionSet* options) {
  DeclareAllOptions(command, workloads, workload, options);
  SB_RETURN_IF_ERROR(config::ParseCommandLine(args, options));
  if (workload.shape().sysbench_style) SB_RETURN_IF_ERROR(ApplySysbenchOptions(options));
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
  {
    bool ignored = false;
    auto targets =
        ExpandTargets(c.options.GetString("db"), c.options.GetString("target"), &ignored);
    if (!targets.ok()) return Fail(targets.status());
    if (ignored) {
      Progress("target=" + c.options.GetString("target") + " is ignored: " +
               c.options.GetString("db") + " is a file database, which has no host to put it in");
    }
    if (urls.size() <= 1 && targets->size() > 1) urls = std::move(targets).value();
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
  // What can be checked without a database is checked before any is locked (a window past
  // the run's end: exit 2 now, not a failed baseline after the whole run).
  if (Status st = CheckRunOptions(setups); !st.ok()) return Fail(st);
  // Every database is locked before any is checked: a run's verification counts the orders
  // it made, so two runs on one database would count each other's.
  const bool leader = dist::World() == nullptr || dist::World()->coordinator();
  for (size_t i = 0; i < setups.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (setups[j].url == setups[i].url) {
        return Fail(Status::InvalidArgument("--db names " + setups[i].url +
                                            " twice: each instance needs a database of its own"));
      }
    }
    // Under mpirun rank 0 holds the lock (and restores) for the whole group: the other ranks
    // are part of the same run, not a second storebench on the database.
    if (!leader) continue;
    auto lock = LockDatabase(c.registry, setups[i].url, "oltp run");
    if (!lock.ok()) return Fail(lock.status());
    setups[i].lock = std::move(lock).value();
  }
  for (DbSetup& s : setups) {
    if (leader && s.options->GetBool("restore")) {
      if (Status st = RestoreDatabase(c.registry, &s, "oltp run", setups.size() > 1); !st.ok()) {
        return Fail(st);
      }
    }
    if (Status st = PrepareDatabase(c.registry, &s, setups.size() > 1); !st.ok()) return Fail(st);
  }
  // The first instance's options hold the run's common settings (the same for every instance).
  return RunDatabases(setups, *setups[0].options);
}

// The command line of one process (under mpirun, of one rank).
int RunCommandLine(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::fputs(Usage().c_str(), args.empty() ? stderr : stdout);
    return args.empty() ? kExitBadInput : kExitOk;
  }
  if (args[0] == "version" || args[0] == "--version") {
    // "storebench 0.1.0 (git 9ab97a7, Release)": the name and version first, as help2man reads
    // them for the man page.
    std::printf("storebench %s\n", version::VersionLine().c_str());
    return kExitOk;
  }
  if (args[0] == "io") return RunIoCommand({args.begin() + 1, args.end()});
  if (args[0] == "run") return RunPlanCommand({args.begin() + 1, args.end()});
  if (args[0] == "consolidate") return RunConsolidateCommand({args.begin() + 1, args.end()});
  if (args[0] == "power") return RunPowerCommand({args.begin() + 1, args.end()});
  if (args[0] == "compare") return RunCompareCommand({args.begin() + 1, args.end()});
  if (args[0] == "exec") return RunExecCommand({args.begin() + 1, args.end()});
  if (args[0] == "ab") return RunAbCommand({args.begin() + 1, args.end()});
  if (args[0] == "report") return RunReportCommand({args.begin() + 1, args.end()});
  if (args[0] != "oltp") {
    std::fprintf(stderr, "storebench: unknown command '%s'\n%s", args[0].c_str(), Usage().c_str());
    return kExitBadInput;
  }
  // sysbench writes its verb last ("sysbench oltp_read_write --tables=4 prepare"): a last word
  // that is a verb is taken when the first is an option.
  auto is_verb = [](const std::string& a) {
    return a == "load" || a == "run" || a == "verify" || a == "pristine" || a == "restore" ||
           a == "prepare" || a == "cleanup";
  };
  if (args.size() >= 3 && args[1].rfind("--", 0) == 0 && is_verb(args.back())) {
    args.insert(args.begin() + 1, args.back());
    args.pop_back();
  }
  if (args.size() == 2 && (args[1] == "--help" || args[1] == "-h" || args[1] == "help")) {
    std::fputs(Usage().c_str(), stdout);
    return kExitOk;
  }
  if (args.size() < 2 || !is_verb(args[1])) {
    std::fprintf(stderr,
                 "storebench: 'oltp' needs one of load, run, verify, pristine, restore (or "
                 "sysbench's prepare, run, cleanup)\n%s",
                 Usage().c_str());
    return kExitBadInput;
  }
  Context c;
  // sysbench's prepare is load; cleanup has no options of its own beyond load's.
  const bool cleanup = args[1] == "cleanup";
  c.command = args[1] == "prepare" ? "load" : cleanup ? "load" : args[1];
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
      DeclareAllOptions(c.command, workloads, c.workload(), &c.options);
      std::printf("usage: storebench oltp %s --db URL [options]\n\n%s", c.command.c_str(),
                  c.options.HelpText().c_str());
      std::printf("%s", OtherWorkloadsHelp(workloads, workload_name).c_str());
      return kExitOk;
    }
  }
  if (Status s = ParseOptions(c.command, workloads, c.workload(), rest, &c.options); !s.ok()) {
    return Fail(s);
  }
  if (Status s = CheckOltpPaths(c.command, c.options, rest); !s.ok()) return Fail(s);
  if (cleanup) return Cleanup(c);
  if (c.command == "load") return Load(c);
  if (c.command == "verify") return Verify(c);
  if (c.command == "pristine") return Pristine(c);
  if (c.command == "restore") return Restore(c);
  return Run(c, workloads, workload_name, rest);
}

}  // namespace

int Main(int argc, char** argv) {
  // Under mpirun every rank runs the command as one of a group (docs/scale-out.md); without
  // it nothing of MPI is touched.
  if (dist::LaunchedByMpirun()) return MainUnderMpirun(argc, argv, RunCommandLine);
  return RunCommandLine(argc, argv);
}

}  // namespace sb::cli
