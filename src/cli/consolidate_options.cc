// The option table of consolidate's search; every option it does not declare is handed on to
// the instances of every run, in order.
#include <string>
#include <vector>

#include "cli/command_options.h"

namespace sb::cli {

namespace {

using config::OptionSet;
using config::OptionType;

constexpr const char* kConsolidateUsage =
    "usage: storebench consolidate --plan FILE.toml --instances 1..16 [--runs 3]\n"
    "         [--step linear|doubling] [--rerun_faults N] [--search FILE.json] [--csv FILE.csv]\n"
    "         [--resume]\n"
    "         [options]\n\n"
    "Finds the largest number of instances of the plan's scale group that all pass the\n"
    "baselines (--baseline, in the plan's [run] or here), deciding each count on the\n"
    "median of --runs runs (docs/consolidation.md). Other options apply to every instance.\n";

}  // namespace

OptionSet ConsolidateOptionTable() {
  OptionSet o;
  o.set_help_command("storebench consolidate --help");
  const char* group = "consolidate";
  o.Add({.name = "plan", .help = "the plan file (TOML, docs/plans.md; required)", .group = group});
  o.Add({.name = "instances",
         .help = "the counts to search: 1..16, or one count (required)",
         .group = group});
  o.Add({.name = "runs",
         .type = OptionType::kInt,
         .default_value = "3",
         .help = "runs per count; each count is decided on the median run",
         .group = group,
         .min = 1,
         .max = 99});
  o.Add({.name = "rerun_faults",
         .type = OptionType::kInt,
         .default_value = "0",
         .help = "run a run that failed on a fault (reconnects, errors, a stalled or idle "
                 "instance, a failed verification; not a baseline missed) again, up to N times, "
                 "before it counts",
         .group = group,
         .min = 0,
         .max = 99});
  o.Add({.name = "step",
         .type = OptionType::kEnum,
         .default_value = "linear",
         .help = "one count after the other, or doubling up to the first failure, then bisecting",
         .group = group,
         .choices = {"linear", "doubling"}});
  o.Add({.name = "search",
         .help = "the search file (default results/consolidate-<timestamp>.json); each run's "
                 "result goes beside it, in <search>-runs/",
         .group = group});
  o.Add({.name = "csv",
         .help = "also write the per-count table (the median run's figures in the deciding "
                 "window) as CSV",
         .group = group});
  o.Add({.name = "resume",
         .type = OptionType::kBool,
         .default_value = "N",
         .help = "continue the search in --search with the same plan, --instances, --step and "
                 "--runs",
         .group = group});
  o.Add({.name = "run_series_csv",
         .type = OptionType::kBool,
         .default_value = "N",
         .help = "write each run's per-second series beside its result, as "
                 "<search>-runs/n<count>-run<k>-series.csv",
         .group = group});
  // In oltp run and run --plan these name one file; a search has many runs, each with its own
  // files, so the old spellings are refused (bare too) with the way to get them.
  const std::string series_refusal =
      "in oltp run it names one CSV file, and a search has many runs: --run_series_csv=Y writes "
      "each run's series beside its result (docs/consolidation.md)";
  o.Add({.name = "series_csv",
         .help = "refused: " + series_refusal,
         .group = group,
         .refusal = series_refusal});
  const std::string json_refusal =
      "each run of a search writes its own result next to the search file (--search)";
  o.Add({.name = "json",
         .help = "refused: " + json_refusal,
         .group = group,
         .refusal = json_refusal});
  return o;
}

std::string ConsolidateHelp() { return CommandHelp(kConsolidateUsage, ConsolidateOptionTable()); }

Result<ConsolidateArgs> ParseConsolidateArgs(const std::vector<std::string>& args) {
  OptionSet o = ConsolidateOptionTable();
  config::CommandLineRest rest;
  SB_RETURN_IF_ERROR(config::ParseCommandLine(args, &o, {.pass_unknown = true}, &rest));
  ConsolidateArgs out;
  out.plan_path = o.GetString("plan");
  if (out.plan_path.empty()) return Status::InvalidArgument("no plan given; add --plan FILE.toml");
  out.instances = o.GetString("instances");
  out.step = o.GetString("step");
  out.search = o.GetString("search");
  out.csv = o.GetString("csv");
  out.runs = static_cast<int>(o.GetInt("runs"));
  out.rerun_faults = static_cast<int>(o.GetInt("rerun_faults"));
  out.resume = o.GetBool("resume");
  out.run_series_csv = o.GetBool("run_series_csv");
  out.extra = std::move(rest.passed);
  return out;
}

}  // namespace sb::cli
