// The driver's options (DVD Store names first, modern spellings as aliases), declared once here.
#ifndef STOREBENCH_DRIVER_RUN_OPTIONS_H_
#define STOREBENCH_DRIVER_RUN_OPTIONS_H_

#include "config/options.h"
#include "driver/runner.h"

namespace sb::driver {

// Declares n_threads, ramp_rate, run_time, warmup_time, think_time, log_freq, seed, ... .
void DeclareRunOptions(config::OptionSet* options);
// Reads them. `ds2` selects DVD Store 2's error handling (the first error ends a thread).
// A bad window or baseline is InvalidArgument.
Result<RunOptions> RunOptionsFrom(const config::OptionSet& options, bool ds2);

}  // namespace sb::driver

#endif  // STOREBENCH_DRIVER_RUN_OPTIONS_H_
