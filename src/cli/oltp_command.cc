// storebench oltp verify|pristine|restore|cleanup and the oltp command line (README.md;
// sysbench's verb-last order too); `oltp load` is in oltp_load.cc, `oltp run` in oltp_run.cc.

#include <cstdio>
#include <memory>

#include "backend/db/registry.h"
#include "base/clock.h"
#include "cli/app.h"
#include "cli/builtins.h"
#include "cli/command_paths.h"
#include "cli/db_run.h"
#include "cli/oltp_internal.h"
#include "cli/sysbench_options.h"
#include "config/options.h"
#include "driver/run_options.h"
#include "workload/registry.h"

namespace sb::cli {
namespace {

Status CheckDatabase(OltpContext& c, db::DbBackend& backend,
                     std::unique_ptr<db::Connection>* conn) {
  auto opened = backend.Connect();
  if (!opened.ok()) return opened.status();
  *conn = std::move(opened).value();
  return c.workload().CheckReady(**conn);
}

int Verify(OltpContext& c) {
  // Counts taken during a load or a run would not add up.
  auto lock = LockDatabase(c.registry, c.options.GetString("db"), "oltp verify");
  if (!lock.ok()) return Fail(lock.status());
  auto backend = OltpOpenDb(c, false, 3000);
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
int Pristine(OltpContext& c) {
  auto lock = LockDatabase(c.registry, c.options.GetString("db"), "oltp pristine");
  if (!lock.ok()) return Fail(lock.status());
  {
    auto backend = OltpOpenDb(c, false, 3000);
    if (!backend.ok()) return Fail(backend.status());
    std::unique_ptr<db::Connection> conn;
    if (Status s = CheckDatabase(c, **backend, &conn); !s.ok()) return Fail(s);
  }
  auto copy =
      SavePristineCopy(c.registry, c.options.GetString("db"), &lock.value(), "oltp pristine");
  if (!copy.ok()) return Fail(copy.status());
  Progress(PristineWords(c.options.GetString("db"), *copy));
  return kExitOk;
}

// `oltp restore`: the database brought back to its pristine copy now (as run --restore does
// before a run).
int Restore(OltpContext& c) {
  DbSetup setup;
  setup.url = c.options.GetString("db");
  auto lock = LockDatabase(c.registry, setup.url, "oltp restore");
  if (!lock.ok()) return Fail(lock.status());
  setup.lock = std::move(lock).value();
  setup.workload = std::move(c.owned_workload);  // what its runs write (--workload)
  if (Status s = RestoreDatabase(c.registry, &setup, "oltp restore", false); !s.ok()) {
    return Fail(s);
  }
  Progress(RestoredWords(setup, /*several=*/false));
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
int Cleanup(OltpContext& c) {
  auto lock = LockDatabase(c.registry, c.options.GetString("db"), "oltp cleanup");
  if (!lock.ok()) return Fail(lock.status());
  auto backend = OltpOpenDb(c, /*create=*/false, 30000);
  if (!backend.ok()) return Fail(backend.status());
  const Status s = c.workload().Cleanup(**backend, [](const std::string& m) {
    std::printf("%s\n", m.c_str());
    std::fflush(stdout);
  });
  return s.ok() ? kExitOk : Fail(s);
}

}  // namespace

Result<std::unique_ptr<db::DbBackend>> OltpOpenDb(OltpContext& c, bool create,
                                                  int busy_timeout_ms) {
  return OpenDatabase(c.registry, c.workload(), c.options.GetString("db"), create, busy_timeout_ms);
}

// The options of `command` for `workload`, parsed from `args`.
Status OltpParseOptions(const std::string& command, const workload::WorkloadRegistry& workloads,
                        workload::Workload& workload, const std::vector<std::string>& args,
                        config::OptionSet* options) {
  DeclareAllOptions(command, workloads, workload, options);
  SB_RETURN_IF_ERROR(config::ParseCommandLine(args, options));
  if (workload.shape().sysbench_style) {
    SB_RETURN_IF_ERROR(ApplySysbenchOptions(options));
    for (const std::string& note : SysbenchNotes(*options)) {
      std::fprintf(stderr, "%s\n", note.c_str());
    }
  }
  if (command == "run") driver::UseDrawnSeedUnlessGiven(options, driver::DrawSeed());
  return workload.Configure(*options);
}

int RunOltpCommand(std::vector<std::string> args) {
  // sysbench's test name ("sysbench oltp_read_write ... run") names the oltp workload's test.
  {
    std::vector<std::string> rest(args.begin() + 1, args.end());
    TakeSysbenchTestName(&rest);
    args.resize(1);
    args.insert(args.end(), rest.begin(), rest.end());
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
    std::fputs(StorebenchUsage().c_str(), stdout);
    return kExitOk;
  }
  if (args.size() < 2 || !is_verb(args[1])) {
    std::fprintf(stderr,
                 "storebench: 'oltp' needs one of load, run, verify, pristine, restore (or "
                 "sysbench's prepare, run, cleanup)\n%s",
                 StorebenchUsage().c_str());
    return kExitBadInput;
  }
  OltpContext c;
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
  if (Status s = OltpParseOptions(c.command, workloads, c.workload(), rest, &c.options); !s.ok()) {
    return Fail(s);
  }
  if (Status s = CheckOltpPaths(c.command, c.options, rest); !s.ok()) return Fail(s);
  if (cleanup) return Cleanup(c);
  if (c.command == "load") return OltpLoad(c);
  if (c.command == "verify") return Verify(c);
  if (c.command == "pristine") return Pristine(c);
  if (c.command == "restore") return Restore(c);
  return OltpRun(c, workloads, workload_name, rest);
}

}  // namespace sb::cli
