// Reading a file the user names as input (a DriverConfig file, an Iometer ICF file) without
// letting a special file stall or fool the program.
//
// open(2) on a FIFO blocks until a writer appears, forever when none does; a directory opens
// but every read fails with EISDIR. So the file is opened with O_NONBLOCK (which does nothing for
// regular files, POSIX open(2)), checked with fstat, and refused unless it is a regular file.
#ifndef STOREBENCH_BASE_INPUT_FILE_H_
#define STOREBENCH_BASE_INPUT_FILE_H_

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "storebench/status.h"

namespace sb {

// The whole content of the regular file at `path`. `what` names it in messages ("config file").
// Errors: NotFound "<what> '<path>' cannot be read: <reason>" when it cannot be opened;
// InvalidArgument "<what> '<path>' cannot be read: it is a <kind>, not a regular file" for a
// directory, FIFO, socket or device; InvalidArgument when it holds more than `max_bytes`;
// IoError when reading fails.
Result<std::string> ReadInputFile(const std::string& path, std::string_view what,
                                  size_t max_bytes = SIZE_MAX);

// Like ReadInputFile, but a file larger than `max_bytes` is not refused: the first
// max_bytes + 1 bytes are returned (the caller tells a long file from one of exactly max_bytes,
// and can name what in its beginning is wrong).
Result<std::string> ReadInputPrefix(const std::string& path, std::string_view what,
                                    size_t max_bytes);

// "a directory", "a FIFO", "a socket", "a character device", "a block device", "a symbolic link",
// "a regular file" for a stat(2) st_mode.
const char* FileKind(mode_t mode);

// Whether nothing is at `path`, not even a dangling link (a missing file's message differs from
// an unreadable one's).
bool NothingAt(const std::string& path);

}  // namespace sb

#endif  // STOREBENCH_BASE_INPUT_FILE_H_
