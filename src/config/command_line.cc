// ParseCommandLine: --name=value, --name value, bare --flag, and --config_file at its position;
// positionals, a "--" rest and options handed on when the command's shape says so.
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
  return ParseCommandLine(args, options, CommandLineShape{}, nullptr);
}

Status ParseCommandLine(const std::vector<std::string>& args, OptionSet* options,
                        const CommandLineShape& shape, CommandLineRest* rest) {
  CommandLineRest ignored;
  if (rest == nullptr) rest = &ignored;
  // The last bare boolean flag, when it was the previous argument: "--detailed_view N" is most
  // likely meant as "--detailed_view=N", and the error says so.
  std::string previous_bare_flag;
  // With pass_unknown: the previous option was handed on, so the words after it are its.
  bool passing = false;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string arg = args[i];
    std::string bare_flag;
    if (shape.rest_after_dashes && arg == "--") {
      rest->dashes = true;
      rest->after_dashes.assign(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
      break;
    }
    // A declared one-letter spelling: -o VALUE (or -o=VALUE) is --name VALUE.
    if (arg.size() >= 2 && arg[0] == '-' && arg[1] != '-' && (arg.size() == 2 || arg[2] == '=')) {
      if (const OptionSpec* spec = options->FindShort(arg[1]); spec != nullptr) {
        arg = "--" + spec->name + arg.substr(2);
      }
    }
    if (!StartsWithDashes(arg)) {
      if (!previous_bare_flag.empty() && ParseBool(arg, "").ok()) {
        return Status::InvalidArgument("unexpected argument '" + arg + "' (" + kOrigin +
                                       "); a bare --" + previous_bare_flag +
                                       " means Y, write --" + previous_bare_flag + "=" + arg +
                                       " to give it a value");
      }
      previous_bare_flag.clear();
      if (shape.pass_unknown && (passing || arg.empty() || arg[0] != '-')) {
        rest->passed.push_back(arg);
        continue;
      }
      if (shape.positionals && (arg.size() <= 1 || arg[0] != '-')) {
        rest->positionals.push_back(arg);
        continue;
      }
      if (shape.positionals) return options->UnknownOption(arg.substr(1), kOrigin);
      return Status::InvalidArgument("unexpected argument '" + arg + "' (" + kOrigin + "); " +
                                     shape.unexpected_advice);
    }
    passing = false;
    const std::string_view body = std::string_view(arg).substr(2);
    const size_t eq = body.find('=');
    const std::string_view name = body.substr(0, eq);
    if (name.empty()) {
      return Status::InvalidArgument("argument '" + arg + "' has no option name (" + kOrigin + ")");
    }
    const OptionSpec* spec = options->FindSpec(name);
    // The config file of options handed on is theirs to read.
    const bool config_file = IsConfigFileName(name) && (spec != nullptr || !shape.pass_unknown);
    if (spec == nullptr && !config_file) {
      if (!shape.pass_unknown) return options->UnknownOption(name, kOrigin);
      rest->passed.push_back(arg);
      passing = true;
      continue;
    }
    const bool inline_value = eq != std::string_view::npos;
    std::string value;
    if (inline_value) {
      value = std::string(body.substr(eq + 1));
    } else if (spec != nullptr && !spec->refusal.empty()) {
      // Refused whatever its value: the refusal, not "needs a value".
    } else if (spec != nullptr && spec->type == OptionType::kBool) {
      value = "Y";
      bare_flag = std::string(name);
    } else if (i + 1 < args.size() && !StartsWithDashes(args[i + 1])) {
      value = args[++i];
    } else {
      return Status::InvalidArgument("option " + (spec ? spec->name : std::string(name)) +
                                     " needs a value: --" + std::string(name) + "=VALUE or --" +
                                     std::string(name) + " VALUE (" + kOrigin + ")");
    }
    if (config_file) {
      if (value.empty()) {
        return Status::InvalidArgument("option config_file: '' is not a file path (" +
                                       std::string(kOrigin) + ")");
      }
      SB_RETURN_IF_ERROR(ReadConfigFile(value, options));
      // Declared by the CLI (e.g. to echo it)? Then record the path as well.
      if (spec != nullptr) SB_RETURN_IF_ERROR(options->Set(name, value, kOrigin));
    } else {
      SB_RETURN_IF_ERROR(options->Set(name, value, kOrigin));
    }
    previous_bare_flag = std::move(bare_flag);
  }
  return Status::Ok();
}

}  // namespace sb::config
