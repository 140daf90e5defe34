// The command line's own options of oltp load, run and verify (storebench/session.h).
#include <algorithm>
#include <memory>
#include <thread>

#include "base/clock.h"
#include "cli/db_run.h"
#include "cli/power_cli.h"
#include "cli/scale_out.h"

namespace sb::cli {

void DeclareCliOptions(config::OptionSet* o, const std::string& command,
                       const workload::WorkloadRegistry& workloads) {
  using config::OptionSpec;
  using config::OptionType;
  auto add = [&](OptionSpec s) {
    s.group = "general";
    o->Add(std::move(s));
  };
  auto str = [&](const char* name, const char* def, const char* help,
                 std::vector<std::string> aliases = {}) {
    add({.name = name, .aliases = std::move(aliases), .default_value = def, .help = help});
  };
  str("db", "", "database URL, e.g. sqlite:///tmp/ds.db (required)");
  add({.name = "workload",
       .type = OptionType::kEnum,
       .default_value = "dvdstore",
       .help = "the OLTP workload: " + workloads.Describe(),
       .choices = workloads.Names()});
  if (command == "load") {
    add({.name = "load_threads",
         .type = OptionType::kInt,
         .default_value = std::to_string(std::max(1u, std::thread::hardware_concurrency())),
         .help = "parallel data generator threads (default: cores)",
         .min = 1,
         .max = 256});
    add({.name = "index_threads",
         .type = OptionType::kInt,
         .default_value = std::to_string(std::max(1u, std::thread::hardware_concurrency())),
         .help =
             "connections building indexes and constraints after the data, one table (PostgreSQL: "
             "one index) on each at a time (default: cores; SQLite: always 1, it has one writer)",
         .min = 1,
         .max = 64});
    add({.name = "force",
         .type = OptionType::kBool,
         .default_value = "N",
         .help = "replace an existing storebench database of this workload"});
    add({.name = "dry_run",
         .type = OptionType::kBool,
         .default_value = "N",
         .help = "write nothing: print the plan (rows and bytes per table, disk, estimated time) "
                 "and refuse when the database's storage lacks the space (DVD Store)"});
    str("csv_dir", "", "also write the generated rows as CSV files into this directory",
        {"csv-dir"});
    add({.name = "pristine",
         .type = OptionType::kBool,
         .default_value = "N",
         .help =
             "after the load, keep a pristine copy of the database that run --restore brings back "
             "(docs/consolidation.md)"});
    add({.name = "seed",
         .aliases = {"rand_seed"},
         .type = OptionType::kInt,
         .default_value = "1",
         .help = "data seed: the same seed and size give the same data"});
  }
  if (command == "run") {
    DeclareScaleOutOptions(o);
    add({.name = "restore",
         .type = OptionType::kBool,
         .default_value = "N",
         .help =
             "before the run, bring each database back to its pristine copy (kept by load "
             "--pristine=Y or oltp pristine); the time it takes is reported, not part of the run"});
    DeclarePowerOption(o);
    str("json", "", "result document path (default results/<timestamp>.json)");
    str("label", "",
        "a label recorded in the result (e.g. ft-on), by which storebench compare groups runs");
    str("out_filename", "", "also write the status lines as CSV (DVD Store)");
    str("results_xml", "",
        "also write Swingbench's results file (charbench -r): overview, per-transaction "
        "response times, DML counts, TPS readings (docs/soe.md#results-file)");
    str("series_csv", "",
        "also write the per-second series as CSV: instance, second, phase, headline metrics, "
        "unit p99, errors, each further type's p99, every counter, SUT CPU (one row per "
        "instance and second; a spreadsheet opens it as is)");
    add({.name = "progress",
         .type = OptionType::kEnum,
         .default_value = "human",
         .help = "live output: DVD Store status lines on stdout (sysbench's interval lines with "
                 "--workload oltp), one JSON object per second on stderr, or none",
         .choices = {"human", "json", "none"}});
    str("metrics_addr", "",
        "serve live figures in the Prometheus text format, e.g. 127.0.0.1:9464 (off by default)");
    add({.name = "metrics_linger",
         .type = OptionType::kDuration,
         .default_value = "5s",
         .help = "with --metrics_addr: keep serving the final figures this long after the run "
                 "(so a scraper gets the final counts; a stop signal ends it; 0 = off)",
         .max = 3600 * kNanosPerSecond});
    add({.name = "log_timestamp",
         .type = OptionType::kEnum,
         .default_value = "NONE",
         .help = "prefix status lines with a UTC or local timestamp",
         .choices = {"NONE", "UTC", "LOCAL"}});
    // Accepted so DVD Store DriverConfig.txt files work unchanged; they do not apply here.
    auto compat = [&](const char* name, const char* def) {
      o->Add(
          {.name = name,
           .default_value = def,
           .help = "ignored",
           .group = "DVD Store compatibility (accepted, not used: storebench connects with --db)"});
    };
    o->Add(
        {.name = "target",
         .default_value = "localhost",
         .help =
             "DVD Store 3's target list: database hosts separated by ';' (host or host:port), each "
             "put in place of the host of --db, one instance per host with n_threads threads each; "
             "localhost (DS3's default) leaves --db as it is"});
    compat("virt_dir", "ds3");
    compat("page_type", "php");
    compat("windows_perf_host", "");
    compat("linux_perf_host", "");
    o->Add({.name = "detailed_view",
            .type = OptionType::kBool,
            .default_value = "N",
            .help = "Y: with several targets, DVD Store 3's per-target status lines under each "
                    "status line (\"Individual Stats for each DB / Web Server: \")"});
    o->Add({.name = "n_stores",
            .type = OptionType::kInt,
            .default_value = "1",
            .help = "DS3.5 stores per database (only 1 is supported)",
            .group = "DVD Store compatibility (accepted, not used: storebench connects with --db)",
            .min = 1,
            .max = 1});
  }
}

}  // namespace sb::cli
