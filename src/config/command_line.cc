// ParseCommandLine: --name=value, --name value, bare --flag, and --config_file at its position.
#include <string>
#include <string_view>
#include <vector>

#include "base/input_file.h"
#include "base/limits.h"
#include "base/units.h"
#include "config/options.h"

namespace sb::config {

namespace {

constexpr char kOrigin[] = "command line";

bool IsConfigFileName(std::string_view name) {
  return name == "config_file" || name == "config-file";
}

bool StartsWithDashes(std::string_view s) { return s.size() >= 2 && s.substr(0, 2) == "--"; }

// A DriverConfig file, or an XML configuration (its first non-blank character is '<') for the
// reader the options carry.
Status ReadConfigFile(const std::string& path, OptionSet* options) {
  auto head = ReadInputPrefix(path, "config file", 256);
  if (!head.ok()) return head.status();
  std::string_view text = *head;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // BOM
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || text[first] != '<') {
    return ParseDriverConfigFile(path, options);
  }
  if (options->xml_config_reader() == nullptr) {
    return Status::InvalidArgument("config file '" + path +
                                   "' is XML; XML configuration files (Swingbench's) are read "
                                   "with --workload soe");
  }
  return options->xml_config_reader()(path, options);
}

}  // namespace

Status ParseCommandLine(const std::vector<std::string>& args, OptionSet* options) {
  // The last bare boolean flag, when it was the previous argument: "--detailed_view N" is most
  // likely meant as "--detailed_view=N", and the error says so.
  std::string previous_bare_flag;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    std::string bare_flag;
    if (!StartsWithDashes(arg)) {
      std::string message = "unexpected argument '" + arg + "' (" + kOrigin + ")";
      if (!previous_bare_flag.empty() && ParseBool(arg, "").ok()) {
        message += "; a bare --" + previous_bare_flag + " means Y, write --" + previous_bare_flag +
                   "=" + arg + " to give it a value";
      } else {
        message += "; options are written --name=value or --name value";
      }
      return Status::InvalidArgument(std::move(message));
    }
    const std::string_view body = std::string_view(arg).substr(2);
    const size_t eq = body.find('=');
    const std::string_view name = body.substr(0, eq);
    if (name.empty()) {
      return Status::InvalidArgument("argument '" + arg + "' has no option name (" + kOrigin + ")");
    }
    const bool inline_value = eq != std::string_view::npos;
    std::string value;
    if (inline_value) {
      value = std::string(body.substr(eq + 1));
    } else {
      const OptionSpec* spec = options->FindSpec(name);
      if (spec == nullptr && !IsConfigFileName(name)) {
        return options->Set(name, "", kOrigin);  // the unknown-option error
      }
      if (spec != nullptr && spec->type == OptionType::kBool) {
        value = "Y";
        bare_flag = std::string(name);
      } else if (i + 1 < args.size() && !StartsWithDashes(args[i + 1])) {
        value = args[++i];
      } else {
        return Status::InvalidArgument("option " + (spec ? spec->name : std::string(name)) +
                                       " needs a value: --" + std::string(name) + "=VALUE or --" +
                                       std::string(name) + " VALUE (" + kOrigin + ")");
      }
    }
    if (IsConfigFileName(name)) {
      if (value.empty()) {
        return Status::InvalidArgument("option config_file: '' is not a file path (" +
                                       std::string(kOrigin) + ")");
      }
      SB_RETURN_IF_ERROR(ReadConfigFile(value, options));
      // Declared by the CLI (e.g. to echo it)? Then record the path as well.
      if (options->Has(name)) SB_RETURN_IF_ERROR(options->Set(name, value, kOrigin));
    } else {
      SB_RETURN_IF_ERROR(options->Set(name, value, kOrigin));
    }
    previous_bare_flag = std::move(bare_flag);
  }
  return Status::Ok();
}

}  // namespace sb::config
