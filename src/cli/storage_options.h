// Declaring the storage commands' options (io run/prepare/verify and the file-system commands):
// every one in the "storage" group of --help, declared in one call each.
#ifndef STOREBENCH_CLI_STORAGE_OPTIONS_H_
#define STOREBENCH_CLI_STORAGE_OPTIONS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "config/options.h"

namespace sb::cli {

class StorageOptionAdder {
 public:
  explicit StorageOptionAdder(config::OptionSet* o) : o_(o) {}
  // An option with its type, default and help (and its choices when kEnum).
  void operator()(const char* name, config::OptionType type, const char* def, const char* help,
                  std::vector<std::string> choices = {}) const {
    o_->Add({.name = name,
             .type = type,
             .default_value = def,
             .help = help,
             .group = "storage",
             .choices = std::move(choices)});
  }
  // A whole number or duration (nanoseconds) within [min, max] (base/limits.h).
  void Ranged(const char* name, config::OptionType type, const char* def, int64_t min, int64_t max,
              const char* help) const {
    o_->Add({.name = name,
             .type = type,
             .default_value = def,
             .help = help,
             .group = "storage",
             .min = min,
             .max = max});
  }

 private:
  config::OptionSet* o_;
};

}  // namespace sb::cli

#endif  // STOREBENCH_CLI_STORAGE_OPTIONS_H_
