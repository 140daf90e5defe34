// The files each command reads and writes, named as its options name them, checked with
// CheckOutputPaths before the command does anything (README.md, "Output").
#ifndef STOREBENCH_CLI_COMMAND_PATHS_H_
#define STOREBENCH_CLI_COMMAND_PATHS_H_

#include <string>
#include <vector>

#include "config/options.h"
#include "session/output_paths.h"
#include "storebench/status.h"

namespace sb::cli {

// `storebench oltp <command>` with its parsed options and its arguments after the command
// (--config_file is read while parsing and is not an option, so it is found there).
//   run:  writes --json (or the default result file), --out_filename, --op_log;
//   load: writes the --csv_dir files (DVD Store);
//   reads the SQLite database file with its -wal, -shm and -journal files, and the config files.
// `more_inputs`: files the caller reads besides (a plan file).
Status CheckOltpPaths(const std::string& command, const config::OptionSet& options,
                      const std::vector<std::string>& args,
                      const std::vector<session::PathUse>& more_inputs = {});

// `storebench io <command>`: run writes --json (or the default result file), --csv and
// --series_csv, and reads the --target files, the --icf file and the config files.
Status CheckIoPaths(const std::string& command, const config::OptionSet& options,
                    const std::vector<std::string>& args);

}  // namespace sb::cli

#endif  // STOREBENCH_CLI_COMMAND_PATHS_H_
