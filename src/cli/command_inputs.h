// The files a command reads, gathered from its options as they name them, for the one output
// check (CheckOutputPaths, cli/output_paths.h): every output of a command is checked against
// every file it reads, before anything runs, so that no output replaces an input (a power
// log, a plan, a copy's source, a database of any count of a search).
#ifndef STOREBENCH_CLI_COMMAND_INPUTS_H_
#define STOREBENCH_CLI_COMMAND_INPUTS_H_

#include <string>
#include <vector>

#include "session/output_paths.h"

namespace sb::cli {

// Named here so that the header compiles on its own: without unity batches (make coverage)
// nothing before it brings in cli/app.h's using-declaration.
using session::PathUse;

// The --config_file / --config-file arguments, in either spelling (--name=value, --name value).
std::vector<PathUse> ConfigFileInputs(const std::vector<std::string>& args);

using session::SqliteInputs;  // a SQLite database's files (session/output_paths.h)

// The files the --power sources read: csv: logs (read after the run, so they may not exist
// yet) and password_file= files. `power_text` is the repeatable option's joined text.
std::vector<PathUse> PowerInputs(const std::string& power_text);

}  // namespace sb::cli

#endif  // STOREBENCH_CLI_COMMAND_INPUTS_H_
