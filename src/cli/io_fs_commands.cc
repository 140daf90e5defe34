// storebench io extents|fragment|defrag|copy|read|churn|fragtest (docs/storage.md,
// "Fragmentation"): the subcommands' shared command line; each command is in its own file
// (io_extents.cc, io_fragment.cc, io_file_ops.cc, io_churn.cc, io_fragtest.cc).
#include "cli/io_fs_commands.h"

#include <cstdio>
#include <string>
#include <vector>

#include "base/strings.h"
#include "cli/app.h"
#include "cli/io_fs_internal.h"
#include "session/output_paths.h"

namespace sb::cli {

std::vector<std::string> TakeOperands(std::vector<std::string>* args,
                                      const config::OptionSet& options) {
  std::vector<std::string> operands, rest;
  for (size_t i = 0; i < args->size(); ++i) {
    const std::string& a = (*args)[i];
    if (a.rfind("--", 0) != 0) {
      operands.push_back(a);
      continue;
    }
    rest.push_back(a);
    if (a.find('=') != std::string::npos) continue;
    const config::OptionSpec* spec = options.FindSpec(a.substr(2));
    const bool takes_value = (spec != nullptr && spec->type != config::OptionType::kBool) ||
                             a == "--config_file" || a == "--config-file";
    if (takes_value && i + 1 < args->size() && (*args)[i + 1].rfind("--", 0) != 0) {
      rest.push_back((*args)[++i]);
    }
  }
  *args = std::move(rest);
  return operands;
}

bool IsIoFsCommand(const std::string& name) {
  return name == "extents" || name == "fragment" || name == "defrag" || name == "copy" ||
         name == "read" || name == "churn" || name == "fragtest";
}

int RunIoFsCommand(const std::vector<std::string>& args, const io::EngineRegistry& engines) {
  const std::string& cmd = args[0];
  config::OptionSet o;
  o.set_help_command("storebench io " + cmd + " --help");
  DeclareIoFsOptions(&o, cmd, engines);
  std::vector<std::string> rest(args.begin() + 1, args.end());
  for (const auto& a : rest) {
    if (a == "--help" || a == "-h") {
      std::printf("%s\n%s", WrapLine(std::string("usage: ") + IoFsUsage(cmd), 100, 13).c_str(),
                  o.HelpText().c_str());
      return kExitOk;
    }
  }
  std::vector<std::string> operands = TakeOperands(&rest, o);
  if (Status s = config::ParseCommandLine(rest, &o); !s.ok()) return Fail(s);
  const bool takes_operands = cmd == "extents" || cmd == "defrag" || cmd == "copy" || cmd == "read";
  if (!takes_operands && !operands.empty()) {
    return Fail(Status::InvalidArgument("unexpected argument '" + operands[0] +
                                        "'; usage: " + IoFsUsage(cmd)));
  }
  std::vector<PathUse> inputs, outputs;
  // copy's DESTINATION is checked against its source by the copy itself; here it is one more
  // file --json must not name.
  for (size_t i = 0; i < operands.size(); ++i) {
    inputs.push_back({cmd == "copy" ? (i == 0 ? "the SOURCE operand" : "the DESTINATION operand")
                                    : "the PATH operand",
                      operands[i]});
  }
  if (o.Has("target")) inputs.push_back({"the --target file", o.GetString("target")});
  if (o.Has("json") && !o.GetString("json").empty()) {
    outputs.push_back({"--json", o.GetString("json"), /*creates_parents=*/true,
                       /*replaces=*/true});
  }
  if (Status s = CheckOutputPaths(inputs, outputs); !s.ok()) return Fail(s);
  if (cmd == "extents") return ExtentsCommand(o, operands);
  if (cmd == "fragment") return FragmentCommand(o);
  if (cmd == "defrag") return DefragCommand(o, operands);
  if (cmd == "copy") return CopyFile(o, operands, engines);
  if (cmd == "read") return ReadFile(o, operands, engines);
  if (cmd == "churn") return Churn(o);
  return Fragtest(o, engines);
}

}  // namespace sb::cli
