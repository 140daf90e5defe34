#include "cli/app.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "backend/db/registry.h"
#include "cli/builtins.h"
#include "cli/oltp_internal.h"
#include "cli/scale_out.h"
#include "dist/world.h"
#include "version/version.h"
#include "workload/registry.h"

namespace sb::cli {

std::string StorebenchUsage() {
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

namespace {

// The command line of one process (under mpirun, of one rank).
int RunCommandLine(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::fputs(StorebenchUsage().c_str(), args.empty() ? stderr : stdout);
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
    std::fprintf(stderr, "storebench: unknown command '%s'\n%s", args[0].c_str(),
                 StorebenchUsage().c_str());
    return kExitBadInput;
  }
  return RunOltpCommand(args);
}

}  // namespace

int Main(int argc, char** argv) {
  // Under mpirun every rank runs the command as one of a group (docs/scale-out.md); without
  // it nothing of MPI is touched.
  if (dist::LaunchedByMpirun()) return MainUnderMpirun(argc, argv, RunCommandLine);
  return RunCommandLine(argc, argv);
}

}  // namespace sb::cli
