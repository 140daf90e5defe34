// The driver's options (DVD Store names first, modern spellings as aliases), declared once here.
#ifndef STOREBENCH_DRIVER_RUN_OPTIONS_H_
#define STOREBENCH_DRIVER_RUN_OPTIONS_H_

#include "config/options.h"
#include "driver/runner.h"
#include "workload/workload.h"

namespace sb::driver {

// Declares n_threads, ramp_rate, run_time, warmup_time, think_time, log_freq, seed, ... .
// Time: DVD Store's names (run_time, warmup_time) count bare numbers in minutes, as DS3 does;
// the modern spellings (--duration, sysbench's --time, --warmup) in seconds. The defaults of
// run_time and warmup_time are the workload's (`shape`).
void DeclareRunOptions(config::OptionSet* options, const workload::Shape& shape = {});
// Reads them. `max_failures` is the workload's tries per database call; `headlines` the
// workload's headline metrics (a baseline may name them). A bad window or baseline is
// InvalidArgument.
Result<RunOptions> RunOptionsFrom(const config::OptionSet& options, int max_failures,
                                  const std::vector<metrics::HeadlineSpec>& headlines = {});
// Reads the options "window", "baseline" (rules separated by ';') and "baseline_rule", which
// database and storage runs declare with their own help: the same rules for every workload.
Status WindowsAndBaselinesFrom(const config::OptionSet& options,
                               const std::vector<metrics::HeadlineSpec>& headlines,
                               std::vector<metrics::WindowSpec>* windows,
                               std::vector<metrics::BaselineRule>* baselines);

}  // namespace sb::driver

#endif  // STOREBENCH_DRIVER_RUN_OPTIONS_H_
