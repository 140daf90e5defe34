// The option tables of compare and ab (both end in a comparison of result files).
#include <string>
#include <vector>

#include "cli/command_options.h"

namespace sb::cli {

namespace {

using config::OptionSet;
using config::OptionType;

// The options compare and ab share: how the comparison is made.
void DeclareComparisonOptions(OptionSet* o, const char* group) {
  o->Add({.name = "normalize",
          .type = OptionType::kEnum,
          .default_value = "first",
          .help = "percentages of the first group or of the weakest group",
          .group = group,
          .choices = {"first", "weakest"}});
  o->Add({.name = "force",
          .type = OptionType::kBool,
          .default_value = "N",
          .help = "compare results whose workload, size, run time or windows differ",
          .group = group});
  o->Add({.name = "verbose",
          .type = OptionType::kBool,
          .default_value = "N",
          .help = "print every metric with its spread, not only the summary",
          .group = group});
}

constexpr const char* kCompareUsage =
    "usage: storebench compare RESULT.json... [options]       (grouped by each run's --label)\n"
    "       storebench compare A='a/*.json' B='b/*.json' [options]\n"
    "       storebench compare SEARCH_A.json SEARCH_B.json [--json FILE] [--csv FILE]\n"
    "                                              (two consolidation searches)\n";

constexpr const char* kAbUsage =
    "usage: storebench ab --a \"storebench oltp run ...\" --b \"storebench oltp run ...\"\n"
    "         [--rounds 5] [--between \"SHELL COMMAND\"] [--labels A,B] [--dir DIR]\n"
    "         [--json FILE] [--csv FILE] [--force] [--normalize first|weakest]\n"
    "Runs A and B alternately (A B A B ...), each with --label and --json added, then compares\n"
    "the results. --between runs (through /bin/sh) before every run but the first, with\n"
    "STOREBENCH_AB_NEXT (the label of the next run) and STOREBENCH_AB_ROUND set.\n";

}  // namespace

OptionSet CompareOptionTable() {
  OptionSet o;
  o.set_help_command("storebench compare --help");
  o.Add({.name = "json",
         .help = "write the comparison document (storebench report reads it)",
         .group = "compare"});
  o.Add({.name = "csv", .help = "write one row per metric and group", .group = "compare"});
  DeclareComparisonOptions(&o, "compare");
  o.Add({.name = "resamples",
         .type = OptionType::kInt,
         .default_value = "10000",
         .help = "bootstrap resamples",
         .group = "compare",
         .min = 100,
         .max = 10000000});
  o.Add({.name = "seed",
         .type = OptionType::kInt,
         .default_value = "1",
         .help = "bootstrap seed",
         .group = "compare"});
  return o;
}

std::string CompareHelp() { return CommandHelp(kCompareUsage, CompareOptionTable()); }

Result<CompareArgs> ParseCompareArgs(const std::vector<std::string>& args) {
  OptionSet o = CompareOptionTable();
  config::CommandLineRest rest;
  SB_RETURN_IF_ERROR(config::ParseCommandLine(args, &o, {.positionals = true}, &rest));
  CompareArgs out;
  out.json = o.GetString("json");
  out.csv = o.GetString("csv");
  out.options.normalize = o.GetString("normalize");
  out.options.force = o.GetBool("force");
  out.verbose = o.GetBool("verbose");
  out.options.resamples = static_cast<int>(o.GetInt("resamples"));
  out.options.seed = static_cast<uint64_t>(o.GetInt("seed"));
  out.inputs = std::move(rest.positionals);
  return out;
}

OptionSet AbOptionTable() {
  OptionSet o;
  o.set_help_command("storebench ab --help");
  o.Add({.name = "a",
         .help = "the A command line: storebench and its arguments, quoted",
         .group = "ab"});
  o.Add({.name = "b", .help = "the B command line, like --a", .group = "ab"});
  o.Add({.name = "rounds",
         .type = OptionType::kInt,
         .default_value = "5",
         .help = "rounds of A then B",
         .group = "ab",
         .min = 1,
         .max = 1000});
  o.Add({.name = "between",
         .help = "a shell command run before every run but the first",
         .group = "ab"});
  o.Add({.name = "labels",
         .default_value = "A,B",
         .help = "the labels of A and B, two different words",
         .group = "ab"});
  o.Add({.name = "dir",
         .help = "where the runs' results go (default results/ab-<timestamp>)",
         .group = "ab"});
  o.Add({.name = "json",
         .help = "the comparison document (default <dir>/compare.json)",
         .group = "ab"});
  o.Add({.name = "csv", .help = "also write the comparison as CSV", .group = "ab"});
  DeclareComparisonOptions(&o, "ab");
  return o;
}

std::string AbHelp() { return CommandHelp(kAbUsage, AbOptionTable()); }

Result<AbArgs> ParseAbArgs(const std::vector<std::string>& args) {
  OptionSet o = AbOptionTable();
  SB_RETURN_IF_ERROR(config::ParseCommandLine(args, &o));
  AbArgs out;
  out.a = o.GetString("a");
  out.b = o.GetString("b");
  out.between = o.GetString("between");
  out.labels = o.GetString("labels");
  out.dir = o.GetString("dir");
  out.json = o.GetString("json");
  out.csv = o.GetString("csv");
  out.rounds = static_cast<int>(o.GetInt("rounds"));
  out.options.normalize = o.GetString("normalize");
  out.options.force = o.GetBool("force");
  out.verbose = o.GetBool("verbose");
  return out;
}

}  // namespace sb::cli
