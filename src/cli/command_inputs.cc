#include "cli/command_inputs.h"

#include "cli/builtins.h"
#include "cli/power_cli.h"
#include "power/power_spec.h"
#include "power/registry.h"

namespace sb::cli {

std::vector<PathUse> ConfigFileInputs(const std::vector<std::string>& args) {
  std::vector<PathUse> files;
  for (size_t i = 0; i < args.size(); ++i) {
    for (const std::string name : {"--config_file", "--config-file"}) {
      if (args[i].rfind(name + "=", 0) == 0) {
        files.push_back({"the config file", args[i].substr(name.size() + 1)});
      } else if (args[i] == name && i + 1 < args.size()) {
        files.push_back({"the config file", args[i + 1]});
      }
    }
  }
  return files;
}

std::vector<PathUse> PowerInputs(const std::string& power_text) {
  std::vector<PathUse> files;
  if (power_text.empty()) return files;
  const power::PowerRegistry registry = MakePowerSources();
  for (const std::string& text : power::SplitPowerSpecs(power_text, registry)) {
    auto spec = power::ParsePowerSpec(text);
    if (!spec.ok()) continue;  // refused with its own message when the sources are opened
    if (spec->scheme == "csv" && !spec->body.empty()) {
      files.push_back({"the power log csv:" + spec->body, spec->body});
    }
    const std::string password_file = spec->Option("password_file");
    if (!password_file.empty()) files.push_back({"the password_file", password_file});
  }
  return files;
}

}  // namespace sb::cli
