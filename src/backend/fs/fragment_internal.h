// The methods behind FragmentFile (fragment.h), each run on its own: fragment_rounds.cc (move_ext
// and punch, which work on the file in place, round by round) and fragment_copy.cc (copy).
#ifndef STOREBENCH_BACKEND_FS_FRAGMENT_INTERNAL_H_
#define STOREBENCH_BACKEND_FS_FRAGMENT_INTERNAL_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "backend/fs/extent_map.h"
#include "backend/fs/fragment.h"
#include "base/file_lock.h"
#include "storebench/status.h"

namespace sb::fs::internal {

using ProgressFn = std::function<void(const std::string&)>;

// How one method ended when it did not fail outright (an error return is a failure that must
// stop the command: a block that could not be written back, a stop signal).
struct MethodRun {
  // The system refused the method (nothing lost: every block kept its bytes); the chain moves on.
  bool refused = false;
  // For a refusal: FailedPrecondition when this file system has no such thing (EOPNOTSUPP),
  // IoError when it is refused here. A forced method reports it with this code.
  StatusCode code = StatusCode::kIoError;
  std::string why;  // a refusal's cause, or what the method did
  int rounds = 0;
  uint64_t blocks = 0;
  int64_t after = 0;                   // extents when it ended
  std::unique_ptr<FileLock> new_lock;  // copy: the lock on the file now at the path
};

// Done when |extents - target| is at most this.
double Slack(const FragmentOptions& o);

// pread/pwrite of exactly n bytes at `off` (EINTR retried); IoError naming `path` otherwise.
Status ReadFull(int fd, uint8_t* p, size_t n, uint64_t off, const std::string& path);
Status WriteFull(int fd, const uint8_t* p, size_t n, uint64_t off, const std::string& path);
std::string ErrnoText(int err);

// move_ext (`move_ext` true) or punch, on the open file `fd` that has `extents` now.
Result<MethodRun> FragmentInRounds(const FragmentOptions& o, const FileSystemInfo& fs, int fd,
                                   bool move_ext, int64_t extents, const ProgressFn& progress);

// copy: a new file beside the original, renamed over it when it is within the tolerance of the
// target or closer to it than the original's `extents`.
Result<MethodRun> FragmentByCopy(const FragmentOptions& o, const FileSystemInfo& fs,
                                 int64_t extents, const ProgressFn& progress);

}  // namespace sb::fs::internal

#endif  // STOREBENCH_BACKEND_FS_FRAGMENT_INTERNAL_H_
