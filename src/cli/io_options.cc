// The options of storebench io prepare, run and verify (docs/storage.md), declared once for
// the command line, --help and plan files.
#include <algorithm>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/limits.h"
#include "cli/io_internal.h"
#include "cli/power_cli.h"
#include "cli/scale_out.h"
#include "cli/storage_options.h"
#include "config/options.h"
#include "storebench/io_engine.h"
#include "workload/storage/access_spec.h"
#include "workload/storage/test_file.h"

namespace sb::cli {

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
  add.Ranged("metrics_linger", OptionType::kDuration, "5s", 0, 3600 * kNanosPerSecond,
             "with --metrics_addr: keep serving the final figures this long after the last test "
             "(so a scraper gets the final counts; a stop signal ends it; 0 = off)");
  add("csv", OptionType::kString, "", "also write an Iometer 1.1.0 'Results CSV file");
  add("series_csv", OptionType::kString, "", "also write the per-second time series as CSV");
  add("description", OptionType::kString, "storebench io run",
      "test description in the CSV (--icf: the file's, when it has one)");
  DeclarePowerOption(o);
}

}  // namespace sb::cli
