#ifndef STOREBENCH_CONFIG_ENUM_OPTION_H_
#define STOREBENCH_CONFIG_ENUM_OPTION_H_

#include <string>
#include <utility>
#include <vector>

#include "config/options.h"

namespace sb::config {

// An option that takes one of `choices` (kEnum), the first choice its default: the shape of
// every workload's mode switch (sql_mode, delivery, csv_layout), declared in one call.
inline OptionSpec EnumOption(std::string name, std::vector<std::string> choices, std::string help,
                             std::string group) {
  OptionSpec spec;
  spec.name = std::move(name);
  spec.type = OptionType::kEnum;
  spec.default_value = choices.front();
  spec.choices = std::move(choices);
  spec.help = std::move(help);
  spec.group = std::move(group);
  return spec;
}

}  // namespace sb::config

#endif  // STOREBENCH_CONFIG_ENUM_OPTION_H_
