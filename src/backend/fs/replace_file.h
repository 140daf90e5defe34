// Putting a finished copy in place of a file: the step io defrag's copy and io fragment's copy
// method share. The copy is made beside the file (same directory, so the same file system and an
// atomic rename), and the original stays untouched until the copy is complete and synced.
#ifndef STOREBENCH_BACKEND_FS_REPLACE_FILE_H_
#define STOREBENCH_BACKEND_FS_REPLACE_FILE_H_

#include <sys/stat.h>

#include <memory>
#include <string>

#include "base/file_lock.h"
#include "storebench/status.h"

namespace sb::fs {

// A name in the file's own directory that no other file has: ".<name>.storebench-<what>-<pid>".
std::string SiblingName(const std::string& path, const std::string& what);

// Gives the copy open as `fd` at `tmp` (complete and synced) the mode and owner in `st`, locks it
// exclusively (so no other storebench takes it when it gets the name: the caller's flock on the
// old file no longer guards `path`), renames it over `path` and syncs the directory. The new
// lock goes to *lock. FailedPrecondition when the copy cannot be locked, IoError when the rename
// fails; either way `path` is still the original.
Status ReplaceWithCopy(int fd, const std::string& tmp, const std::string& path,
                       const struct stat& st, std::unique_ptr<FileLock>* lock);

}  // namespace sb::fs

#endif  // STOREBENCH_BACKEND_FS_REPLACE_FILE_H_
