// The pieces of storebench io prepare, run and verify (internal to src/cli): their options and
// the command bodies in io_prepare.cc and io_verify.cc (io run is in io_command.cc).
#ifndef STOREBENCH_CLI_IO_INTERNAL_H_
#define STOREBENCH_CLI_IO_INTERNAL_H_

#include <string>

#include "config/options.h"
#include "storebench/io_engine.h"

namespace sb::cli {

// Declares the options of `command` (prepare, run, verify) in `o`.
void DeclareIoOptions(config::OptionSet* o, const std::string& command,
                      const io::EngineRegistry& engines);
int IoPrepare(const config::OptionSet& o);
int IoVerify(const config::OptionSet& o, const io::EngineRegistry& engines);

}  // namespace sb::cli

#endif  // STOREBENCH_CLI_IO_INTERNAL_H_
