// Where a command may write: never onto one of its own inputs or onto another of its outputs,
// and only where writing will work. Checked before anything runs, so a mistyped path costs
// neither an input (a database replaced by a JSON document, a test file turned into a CSV) nor
// a whole run that fails at its last step (README.md, "Output").
#ifndef STOREBENCH_SESSION_OUTPUT_PATHS_H_
#define STOREBENCH_SESSION_OUTPUT_PATHS_H_

#include <string>
#include <vector>

#include "storebench/status.h"

namespace sb::session {

// A file a command reads or writes.
struct PathUse {
  // How messages name it: "--json", "the database file", "the --target file".
  std::string role;
  std::string path;
  // Outputs only: missing directories above the file are created when it is written.
  bool creates_parents = false;
  // Outputs only: written as a temporary file renamed over `path` (report::WriteResultFile),
  // so the directory must accept a new file; the file itself need not be writable.
  bool replaces = false;
};

// Fails with InvalidArgument, in one sentence naming both paths, when
//   - an output is an input or another output: the same path, a symbolic link to it, a hard
//     link to it (same st_dev and st_ino), or, for files that do not exist yet, the same name in
//     the same directory (e.g. a SQLite database's -wal file). Outputs that are neither regular
//     files nor missing (/dev/null, a FIFO) may be shared by several outputs;
//   - an output cannot be written: it is a directory, its directory is missing (and not created
//     by the writer), or the directory or file refuses writing. Writability is tried, not
//     guessed from permission bits (root passes those everywhere): an existing file is opened
//     for writing without truncation, a new file's directory gets a probe file that is removed
//     at once.
// Empty paths are ignored.
Status CheckOutputPaths(const std::vector<PathUse>& inputs, const std::vector<PathUse>& outputs);

// A SQLite database's files: the database and the -wal, -shm and -journal files SQLite keeps
// beside it (sqlite.org/tempfiles.html). None for other URLs.
std::vector<PathUse> SqliteInputs(const std::string& url);

}  // namespace sb::session

#endif  // STOREBENCH_SESSION_OUTPUT_PATHS_H_
