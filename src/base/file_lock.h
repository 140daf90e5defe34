// Advisory whole-file locks (flock) that keep two storebench processes off one database file or
// storage target, and the words that name the process holding one.
//
// flock, not fcntl: POSIX record locks belong to the process and vanish when it closes any
// descriptor of the file, which SQLite and the I/O engines do freely; an flock belongs to the
// one open file description taken here and lasts until it is closed (also when the process
// dies). Both kinds are independent on Linux, so an flock never disturbs SQLite's own locks.
#ifndef STOREBENCH_BASE_FILE_LOCK_H_
#define STOREBENCH_BASE_FILE_LOCK_H_

#include <sys/types.h>

#include <memory>
#include <string>

#include "storebench/status.h"

namespace sb {

enum class LockMode { kShared, kExclusive };

// Who holds a lock, in words, for this process doing `command` now:
// "storebench oltp load (pid 1234 on host db1, since 2026-11-30 09:28:33 UTC)".
std::string LockHolderText(const std::string& command);

// The flock holders of the file open as `fd`, from /proc/locks, in the words of LockHolderText
// as far as /proc tells them (command line, pid, process start); "" when none is visible (a
// holder on another host of a network file system, another PID namespace).
std::string DescribeFlockHolders(int fd);

// A held flock; released (and for a lock file, the file removed) when destroyed.
class FileLock {
 public:
  FileLock(int fd, std::string remove_path) : fd_(fd), remove_path_(std::move(remove_path)) {}
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_;
  std::string remove_path_;  // the lock file to delete on release, or ""
};

// Takes an exclusive flock on the lock file `path` (created when missing) and writes
// `holder_text` into it. When another process holds it: FailedPrecondition whose message is only
// the holder's description (the text it wrote, else /proc/locks' view). Other failures: IoError.
// The file is removed on release; a process that opened it just before is told to retry by
// the inode check here, so no two processes ever hold locks on different files of one name.
Result<std::unique_ptr<FileLock>> TryLockFile(const std::string& path,
                                              const std::string& holder_text);

// Takes an flock on the existing file or block device `path` itself (never created, never
// removed). When `create` and `path` does not exist, creates it empty (mode 0644) and sets
// *created. When another process holds a conflicting lock: FailedPrecondition whose message is
// only the holders' description ("another process" when /proc does not say).
Result<std::unique_ptr<FileLock>> TryLockTarget(const std::string& path, LockMode mode, bool create,
                                                bool* created);

}  // namespace sb

#endif  // STOREBENCH_BASE_FILE_LOCK_H_
