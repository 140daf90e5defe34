// The power sources storebench knows, by scheme (filled in cli/, like the back-end and engine
// registries), and the step that turns the user's --power specs into opened sources.
#ifndef STOREBENCH_POWER_REGISTRY_H_
#define STOREBENCH_POWER_REGISTRY_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/clock.h"
#include "power/power_spec.h"
#include "storebench/power_source.h"
#include "storebench/status.h"

namespace sb::power {

class PowerRegistry {
 public:
  // Makes an unopened source; `clock` is the run controller's (sources that divide energy by
  // time read it).
  using Factory = std::function<std::unique_ptr<PowerSource>(const PowerSpec&, Clock&)>;

  void Register(const std::string& scheme, const std::string& words, Factory factory);
  // The source `text` names, not yet opened. An unknown scheme is InvalidArgument naming it and
  // the known ones.
  Result<std::unique_ptr<PowerSource>> Create(const std::string& text, Clock& clock) const;
  bool Knows(const std::string& scheme) const { return entries_.count(scheme) > 0; }
  // "ptd://host:port (SPEC PTDaemon), rapl: (...), ..."
  std::string Describe() const;

 private:
  struct Entry {
    std::string words;
    Factory factory;
  };
  std::map<std::string, Entry> entries_;
};

// Creates and opens one source per spec, in order. The first that cannot be used ends it: the
// error names the source and why (the caller exits 2 before the run).
Result<std::vector<std::unique_ptr<PowerSource>>> OpenPowerSources(
    const PowerRegistry& registry, const std::vector<std::string>& specs, Clock& clock);

// The specs of a repeatable --power option's text: settings are joined with ',' by the option
// parser, and a spec may hold commas itself (cmd:"awk -F, ..."), so the text is split only at a
// comma followed by a known scheme and ':' ("rapl:,ptd://m:8888" → two specs).
std::vector<std::string> SplitPowerSpecs(const std::string& text, const PowerRegistry& registry);

}  // namespace sb::power

#endif  // STOREBENCH_POWER_REGISTRY_H_
