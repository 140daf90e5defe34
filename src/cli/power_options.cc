// The options of `storebench power log|idle` (power_command.cc), one table.
#include <string>

#include "base/clock.h"
#include "base/limits.h"
#include "cli/power_cli.h"
#include "config/options.h"

namespace sb::cli {

void DeclarePowerCommandOptions(config::OptionSet* o, const std::string& command) {
  using config::OptionSpec;
  using config::OptionType;
  DeclarePowerOption(o);
  const auto add = [&](const char* name, OptionType type, const char* def, const char* help) {
    OptionSpec s{.name = name, .type = type, .default_value = def, .help = help, .group = "power"};
    if (type == OptionType::kDuration) {
      s.max = limits::kMaxDurationNanos;
      s.bare_unit_nanos = kNanosPerSecond;
    }
    o->Add(s);
  };
  if (command == "idle") {
    add("duration", OptionType::kDuration, "5m", "recorded idle time of each repetition");
    add("settle", OptionType::kDuration, "10m", "wait before each recording (nothing recorded)");
    o->Add({.name = "repeat",
            .type = OptionType::kInt,
            .default_value = "1",
            .help = "repetitions; the result is the median of their averages",
            .group = "power",
            .min = 1,
            .max = 100});
  } else {
    add("duration", OptionType::kDuration, "0s", "stop after this long (0: until stopped)");
  }
  add("json", OptionType::kString, "",
      "result document path (default results/<timestamp>-power.json)");
  add("csv", OptionType::kString, "", "also write the per-second readings as CSV");
}

}  // namespace sb::cli
