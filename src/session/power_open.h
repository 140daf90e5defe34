// Opening the power sources a run names (docs/power.md) before the run: every source is checked
// (Open) so an unusable one ends the command before any work, and the sampler over them is
// returned not yet started.
#ifndef STOREBENCH_SESSION_POWER_OPEN_H_
#define STOREBENCH_SESSION_POWER_OPEN_H_

#include <memory>
#include <string>

#include "base/clock.h"
#include "power/registry.h"
#include "power/sampler.h"
#include "storebench/status.h"

namespace sb::session {

// The sampler over every source `specs` names (the --power option's text, its values joined as
// the option keeps them), opened on `clock`; nullptr when `specs` is empty. Errors name the
// source and why.
Result<std::unique_ptr<power::PowerSampler>> OpenPower(const std::string& specs,
                                                       const power::PowerRegistry& registry,
                                                       Clock& clock);

}  // namespace sb::session

#endif  // STOREBENCH_SESSION_POWER_OPEN_H_
