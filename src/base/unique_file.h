// Names for files nobody asked for by name (default result files), chosen so that two processes
// never pick the same one.
#ifndef STOREBENCH_BASE_UNIQUE_FILE_H_
#define STOREBENCH_BASE_UNIQUE_FILE_H_

#include <string>

#include "storebench/status.h"

namespace sb {

// Creates `<dir>/<stem><ext>` as a new empty file, or `<dir>/<stem>-2<ext>`, `-3`, ... when that
// name is taken, and returns the path it created; missing directories in `dir` are created
// first. The name is claimed by open(2) with O_CREAT|O_EXCL, which fails when the name exists
// (dangling symbolic links included) and is atomic, so two runs started in the same second get
// two files, and no existing file is ever opened. The caller then replaces the empty file with
// the real content (e.g. by renaming a temporary file over it). IoError names the path and the
// reason when no file can be created.
Result<std::string> CreateUniqueFile(const std::string& dir, const std::string& stem,
                                     const std::string& ext);

}  // namespace sb

#endif  // STOREBENCH_BASE_UNIQUE_FILE_H_
