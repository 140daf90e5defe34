// The shared parts of the commands' option tables (command_options.h), and the tables of
// report and exec.
#include "cli/command_options.h"

#include <string>
#include <vector>

#include "cli/power_cli.h"

namespace sb::cli {

namespace {

using config::OptionSet;

constexpr const char* kReportUsage =
    "usage: storebench report FILE.json... -o report.html\n"
    "FILEs are run results, consolidation search files and comparisons (storebench compare\n"
    "--json), in any mix; the page has one section per file and the full disclosure at the end.\n";

constexpr const char* kExecUsage =
    "usage: storebench exec [--label L] [--json FILE] [--power SOURCE]... [--series_csv FILE]\n"
    "                       -- COMMAND [ARGS...]\n"
    "Runs COMMAND once (no shell) and writes its wall time, CPU time (user + system of the\n"
    "command and every process it waited for) and exit status as a result document.\n"
    "--power measures power beside the command, once a second (docs/power.md): the result's\n"
    "power section holds the average watts and the energy over the command's wall time;\n"
    "--series_csv writes those readings per second (what the report draws).\n";

}  // namespace

bool AsksForHelp(const std::vector<std::string>& args) {
  for (const std::string& a : args) {
    if (a == "--") return false;
    if (a == "--help" || a == "-h") return true;
  }
  return false;
}

std::string CommandHelp(const std::string& usage, const OptionSet& options) {
  return usage + "\n" + options.HelpText();
}

OptionSet ReportOptionTable() {
  OptionSet o;
  o.set_help_command("storebench report --help");
  o.Add({.name = "output",
         .help = "the HTML page to write (required)",
         .group = "report",
         .short_alias = 'o'});
  return o;
}

std::string ReportHelp() { return CommandHelp(kReportUsage, ReportOptionTable()); }

Result<ReportArgs> ParseReportArgs(const std::vector<std::string>& args) {
  OptionSet o = ReportOptionTable();
  config::CommandLineRest rest;
  SB_RETURN_IF_ERROR(config::ParseCommandLine(args, &o, {.positionals = true}, &rest));
  return ReportArgs{o.GetString("output"), std::move(rest.positionals)};
}

OptionSet ExecOptionTable() {
  OptionSet o;
  o.set_help_command("storebench exec --help");
  o.Add({.name = "label",
         .help = "recorded in the result; compare groups runs by it",
         .group = "exec"});
  o.Add({.name = "json",
         .help = "result document path (default results/<timestamp>.json)",
         .group = "exec"});
  // The same --power as every run command's (repeatable; parsed by the power layer).
  DeclarePowerOption(&o);
  o.Add({.name = "series_csv",
         .help = "write the power readings per second as CSV (needs --power)",
         .group = "power"});
  return o;
}

Result<RunPlanArgs> ParseRunPlanArgs(const std::vector<std::string>& args) {
  RunPlanArgs out;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].rfind("--plan=", 0) == 0) {
      out.plan_path = args[i].substr(7);
    } else if (args[i] == "--plan" && i + 1 < args.size()) {
      out.plan_path = args[++i];
    } else {
      out.extra.push_back(args[i]);
    }
  }
  if (out.plan_path.empty()) return Status::InvalidArgument("no plan given; add --plan FILE.toml");
  return out;
}

std::string ExecHelp() { return CommandHelp(kExecUsage, ExecOptionTable()); }

Result<ExecArgs> ParseExecArgs(const std::vector<std::string>& args) {
  ExecArgs out{ExecOptionTable(), {}};
  config::CommandLineRest rest;
  SB_RETURN_IF_ERROR(config::ParseCommandLine(
      args, &out.options,
      {.rest_after_dashes = true, .unexpected_advice = "the command goes after --"}, &rest));
  out.command = std::move(rest.after_dashes);
  return out;
}

}  // namespace sb::cli
