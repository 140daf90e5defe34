// Defragmenting one file, and knowing whether it worked.
//
// The file system's own online method comes first: on ext4 the EXT4_IOC_MOVE_EXT ioctl, as
// e4defrag uses it (a donor file is preallocated in the same directory and the kernel moves the
// file's data into the donor's blocks, exchanging them; the file stays online and its contents
// stay the same); on xfs the xfs_fsr tool (its per-file mode). These were seen to fail or to
// leave the count unchanged (e4defrag: "Failed to defrag with EXT4_IOC_MOVE_EXT" on files of
// 3 to 16,384 extents), so the extent count is always measured again with FIEMAP, and when it
// did not drop the universal method follows: copy the file into a new one preallocated in full
// (fallocate), fsync it, and rename it over the original. The original stays untouched until the
// copy is complete and synced, so a failure at any step leaves it as it was. The copy also
// follows an online method that failed part-way, and is kept only when it has fewer extents.
#ifndef STOREBENCH_BACKEND_FS_DEFRAG_H_
#define STOREBENCH_BACKEND_FS_DEFRAG_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backend/fs/extent_map.h"
#include "backend/fs/move_ext.h"
#include "base/clock.h"
#include "base/file_lock.h"
#include "storebench/status.h"

namespace sb::fs {

enum class DefragMethod {
  kAuto,    // the file system's online method, then copy when the count did not drop
  kOnline,  // the online method only
  kCopy,    // copy and rename only
};

// One method tried: what ran, how it ended, the counts around it.
struct DefragAttempt {
  std::string method;   // "EXT4_IOC_MOVE_EXT", "xfs_fsr", "copy_rename"
  bool ran = false;     // false: not available here (why in `outcome`)
  bool ok = false;      // the method reported success
  // The system refused it (move_ext.h's decision for EXT4_IOC_MOVE_EXT: any error but EBUSY);
  // --method auto then goes on with copy and rename.
  bool refused = false;
  std::string outcome;  // one sentence: "moved 262400 blocks", "xfs_fsr exited 1: ..."
  int64_t before = 0, after = 0;
  double seconds = 0;
};

struct DefragResult {
  int64_t before = 0, after = 0;  // extents (filefrag's count)
  std::vector<DefragAttempt> attempts;
  std::string final_method;  // the method that left the file as it is now ("" = none helped)
  // After copy_rename the path names a new file: the caller's flock on the old one no longer
  // guards it, so the new file is locked exclusively here before the rename.
  std::unique_ptr<FileLock> new_lock;
};

struct DefragOptions {
  std::string path;
  DefragMethod method = DefragMethod::kAuto;
  const std::atomic<bool>* stop = nullptr;  // the copy checks it between chunks
  MoveExtCall move_ext_call;                // empty: the real ioctl (tests inject a refusal)
  // Times each attempt (DefragAttempt::seconds): the caller's clock, as only the driver and the
  // commands read one for measurement; null leaves the seconds 0.
  const Clock* clock = nullptr;
};

// FailedPrecondition on a read-only mount or a file system without FIEMAP. A method that fails is
// a recorded attempt, not an error; an error is returned only when the file could not even be
// measured or the copy fails (the original then untouched and the copy removed).
Result<DefragResult> DefragFile(const DefragOptions& options, const FileSystemInfo& fs,
                                const std::function<void(const std::string&)>& progress);

// The online method of a file system type, or "" when storebench knows none.
std::string OnlineDefragMethod(const std::string& fs_type);

}  // namespace sb::fs

#endif  // STOREBENCH_BACKEND_FS_DEFRAG_H_
