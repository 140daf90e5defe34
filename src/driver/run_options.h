// The driver's options (DVD Store names first, modern spellings as aliases), declared once here.
#ifndef STOREBENCH_DRIVER_RUN_OPTIONS_H_
#define STOREBENCH_DRIVER_RUN_OPTIONS_H_

#include "config/options.h"
#include "driver/runner.h"
#include "storebench/workload.h"

namespace sb::driver {

// Declares n_threads, ramp_rate, run_time, warmup_time, think_time, log_freq, seed, ... .
// Time: DVD Store's names (run_time, warmup_time) count bare numbers in minutes, as DS3 does;
// the modern spellings (--duration, sysbench's --time, --warmup) in seconds. The defaults of
// run_time and warmup_time are the workload's (`shape`).
void DeclareRunOptions(config::OptionSet* options, const workload::Shape& shape = {});
// The run's seed, once for every reader of the options (the workloads' Configure, RunOptionsFrom):
// when --seed was not given, or given as 0 (sysbench's --rand-seed=0), sets it to `drawn`, a
// seed drawn for this run, so that repeated runs draw fresh samples; a given --seed N repeats a
// run. A no-op when the options declare no seed.
void UseDrawnSeedUnlessGiven(config::OptionSet* options, uint64_t drawn);
// A fresh nonzero seed from std::random_device.
uint64_t DrawSeed();

// Reads them. `max_failures` is the workload's tries per database call; `headlines` the
// workload's headline metrics (a baseline may name them). A bad window or baseline, or one that
// ends after the run (CheckWindowsWithinRun), is InvalidArgument: every caller can read the
// options before anything runs and so refuse them there.
Result<RunOptions> RunOptionsFrom(const config::OptionSet& options, int max_failures,
                                  const std::vector<metrics::HeadlineSpec>& headlines = {});
// Reads the options "window", "baseline" (rules separated by ';') and "baseline_rule", which
// database and storage runs declare with their own help: the same rules for every workload.
Status WindowsAndBaselinesFrom(const config::OptionSet& options,
                               const std::vector<metrics::HeadlineSpec>& headlines,
                               std::vector<metrics::WindowSpec>* windows,
                               std::vector<metrics::BaselineRule>* baselines);

// Refuses (InvalidArgument) a window, or a baseline's window, that ends after the run. Windows
// count from Start, and the run ends `warmup_nanos + run_nanos` after it (the controller ends it
// no sooner): a window past that could only be reported incomplete, and its baseline fail, once
// the whole run is over. Nothing is refused when `run_nanos` is 0 (until stopped: no known end).
// The message names the warm-up option (`warmup_name`: "warmup_time"; io run: "ramp_time") and
// what windows count from (`start_name`: "Start"; io run: "the test's start").
Status CheckWindowsWithinRun(const std::vector<metrics::WindowSpec>& windows,
                             const std::vector<metrics::BaselineRule>& baselines,
                             int64_t warmup_nanos, int64_t run_nanos,
                             const std::string& warmup_name, const std::string& start_name);

}  // namespace sb::driver

#endif  // STOREBENCH_DRIVER_RUN_OPTIONS_H_
