// One way to read a command line: every command that is not a database or storage run (compare,
// ab, exec, report, consolidate's own options) declares its options in one table, a
// config::OptionSet, and parses through config::ParseCommandLine, so --x=v and --x v, booleans
// (Y/N, yes/no, true/false, on/off, 1/0), unknown options and --help follow the same rules as
// oltp, io and run. Each Parse*Args takes the arguments after the command word, starts no
// process and touches no file (--config_file aside), so the tables are unit-tested.
#ifndef STOREBENCH_CLI_COMMAND_OPTIONS_H_
#define STOREBENCH_CLI_COMMAND_OPTIONS_H_

#include <string>
#include <vector>

#include "config/options.h"
#include "stats/comparison.h"
#include "storebench/status.h"

namespace sb::cli {

// True when `args` ask for help: --help or -h before a lone "--" (after it they are exec's
// command's).
bool AsksForHelp(const std::vector<std::string>& args);
// A command's --help: its usage and prose, a blank line, then the table (OptionSet::HelpText).
std::string CommandHelp(const std::string& usage, const config::OptionSet& options);

// storebench compare RESULT.json... | NAME=glob... [options]
struct CompareArgs {
  report::CompareOptions options;
  std::string json, csv;
  bool verbose = false;             // every metric, not only the summary
  std::vector<std::string> inputs;  // the positional arguments
};
config::OptionSet CompareOptionTable();
std::string CompareHelp();
Result<CompareArgs> ParseCompareArgs(const std::vector<std::string>& args);

// storebench ab --a "..." --b "..." [options]
struct AbArgs {
  std::string a, b, between, labels, dir, json, csv;
  int rounds = 5;
  report::CompareOptions options;  // normalize, force
  bool verbose = false;            // every metric, not only the summary
};
config::OptionSet AbOptionTable();
std::string AbHelp();
Result<AbArgs> ParseAbArgs(const std::vector<std::string>& args);

// storebench report FILE.json... -o report.html
struct ReportArgs {
  std::string output;
  std::vector<std::string> inputs;
};
config::OptionSet ReportOptionTable();
std::string ReportHelp();
Result<ReportArgs> ParseReportArgs(const std::vector<std::string>& args);

// storebench exec [options] -- COMMAND [ARGS...]
struct ExecArgs {
  config::OptionSet options;  // label, json, series_csv and --power (read by OpenPower)
  std::vector<std::string> command;
};
config::OptionSet ExecOptionTable();
std::string ExecHelp();
Result<ExecArgs> ParseExecArgs(const std::vector<std::string>& args);

// storebench run --plan FILE [options for every instance]: the plan's path (--plan FILE or
// --plan=FILE, the last one given) and every other argument, in order, for the instances.
struct RunPlanArgs {
  std::string plan_path;
  std::vector<std::string> extra;
};
Result<RunPlanArgs> ParseRunPlanArgs(const std::vector<std::string>& args);

// storebench consolidate --plan FILE --instances A..B [search options] [instance options]
struct ConsolidateArgs {
  std::string plan_path;
  std::string instances;  // "4" or "1..16", checked by the search
  std::string step = "linear";
  std::string search;  // empty: results/consolidate-<time>.json
  std::string csv;     // the per-count table as CSV; empty: none
  int runs = 3;
  int rerun_faults = 0;  // times a faulted run is run again before it counts
  bool resume = false;
  bool run_series_csv = false;     // each run's series beside its result
  std::vector<std::string> extra;  // every other option, for the instances, in order
};
config::OptionSet ConsolidateOptionTable();
std::string ConsolidateHelp();
Result<ConsolidateArgs> ParseConsolidateArgs(const std::vector<std::string>& args);

}  // namespace sb::cli

#endif  // STOREBENCH_CLI_COMMAND_OPTIONS_H_
