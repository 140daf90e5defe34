// Whole-file copies for pristine database copies: a reflink where the file system shares blocks
// (XFS with reflink=1, Btrfs: instant, no data written), otherwise an in-kernel copy.
#ifndef STOREBENCH_BASE_FILE_COPY_H_
#define STOREBENCH_BASE_FILE_COPY_H_

#include <string>

#include "storebench/status.h"

namespace sb {

struct FileCopyInfo {
  bool reflink = false;  // the blocks are shared (FICLONE), nothing was copied
  int64_t bytes = 0;
};

// Copies `from` to `to` as a new file (refused with AlreadyExists when `to` exists), flushed to
// stable storage (fsync) before returning. On failure `to` is removed. The copy is a reflink
// (ioctl FICLONE, as `cp --reflink=auto` does) where the file system supports it, else
// copy_file_range(2) (in the kernel; NFS and others copy on the server side).
Result<FileCopyInfo> CopyWholeFile(const std::string& from, const std::string& to);

// The same copy where it costs nothing, a reflink (FICLONE), and nothing otherwise: `reflink`
// then false and `to` not created (left absent). For callers that have a cheaper way than a
// full copy when the file system shares no blocks (a SQLite restore of just what runs write).
Result<FileCopyInfo> CloneWholeFile(const std::string& from, const std::string& to);

// Renames `from` over `to` and flushes the directory that holds them, so the rename survives a
// crash (rename(2) then fsync of the directory).
Status RenameDurably(const std::string& from, const std::string& to);

}  // namespace sb

#endif  // STOREBENCH_BASE_FILE_COPY_H_
