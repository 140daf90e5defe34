// Writing an output file whole or not at all. A full disk or a quota must not leave a file cut
// short that looks like a result, nor a 0-byte file, nor a temporary file behind: the text goes
// to a temporary file in the same directory, is fsync'ed, and is renamed over the path (rename(2)
// is atomic within a file system); any failure removes the temporary file and names the path.
#ifndef STOREBENCH_BASE_OUTPUT_FILE_H_
#define STOREBENCH_BASE_OUTPUT_FILE_H_

#include <string>
#include <string_view>

#include "storebench/status.h"

namespace sb {

// Writes `text` to `path` as above, creating missing parent directories. A path that exists
// and is not a regular file (/dev/null, a FIFO, /dev/stdout) is written into directly, as
// renaming over it would replace the device or FIFO. Errors: IoError "cannot write <what>
// '<path>': <reason>", and nothing left at `path` that was not there before.
Status WriteOutputFile(const std::string& path, std::string_view text, std::string_view what);

// The steps above, for an output written piece by piece (base/output_stream.h). Each returns 0
// or an errno.
// Refuses an empty `path` (InvalidArgument) and creates its missing parent directories
// (IoError "cannot write <what> '<path>': ..."): where every output starts.
Status PrepareOutputPath(const std::string& path, std::string_view what);
// Writes all of `text` to `fd`.
int WriteAll(int fd, std::string_view text);
// Creates a new file beside `path` (<path>.tmp-<pid>-<n>) for writing: its descriptor in *fd and
// its name in *tmp.
int CreateTempBeside(const std::string& path, int* fd, std::string* tmp);
// Fsyncs and closes `fd`, renames `tmp` over `path` and fsyncs the directory; on an error `tmp`
// is removed.
int CommitTemp(int fd, const std::string& tmp, const std::string& path);

}  // namespace sb

#endif  // STOREBENCH_BASE_OUTPUT_FILE_H_
