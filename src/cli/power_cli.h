// Power on the command line: the repeatable --power option of every run command, opening the
// named built-in sources before a run (an unusable one ends the command with exit 2 before any
// work) and the console lines at the end (docs/power.md).
#ifndef STOREBENCH_CLI_POWER_CLI_H_
#define STOREBENCH_CLI_POWER_CLI_H_

#include <memory>
#include <string>
#include <vector>

#include "base/clock.h"
#include "config/options.h"
#include "metrics/run_result.h"
#include "power/registry.h"
#include "power/sampler.h"
#include "storebench/status.h"

namespace sb::cli {

// Declares --power (repeatable) in `o`.
void DeclarePowerOption(config::OptionSet* o);

// Every option of `storebench power log` or `power idle` (`command`), --power included
// (power_options.cc).
void DeclarePowerCommandOptions(config::OptionSet* o, const std::string& command);

// The sampler over every source --power names (session/power_open.h) among the built-in sources,
// opened (not started); nullptr when there is none. Errors name the source and why (exit 2
// through Fail).
Result<std::unique_ptr<power::PowerSampler>> OpenPower(const config::OptionSet& o, Clock& clock);

// One line per window, "power measured: 412.3 W average over 300 s, 123690 J, 29.1 OPM/W,
// 2.06 J per order" (units from the headline `specs`' words), and one per source with its
// readings, missing seconds and first error; "" without power.
std::string FormatPowerSummary(const metrics::RunResult& r,
                               const std::vector<metrics::HeadlineSpec>& specs);

}  // namespace sb::cli

#endif  // STOREBENCH_CLI_POWER_CLI_H_
