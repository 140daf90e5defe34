#include "session/power_open.h"

#include <utility>

namespace sb::session {

Result<std::unique_ptr<power::PowerSampler>> OpenPower(const std::string& specs,
                                                       const power::PowerRegistry& registry,
                                                       Clock& clock) {
  if (specs.empty()) return std::unique_ptr<power::PowerSampler>();
  auto sources = power::OpenPowerSources(registry, power::SplitPowerSpecs(specs, registry), clock);
  if (!sources.ok()) return sources.status();
  return std::make_unique<power::PowerSampler>(clock, std::move(sources).value());
}

}  // namespace sb::session
