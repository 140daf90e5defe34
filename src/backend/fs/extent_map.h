// The physical layout of files: the extent map from the FIEMAP ioctl (kernel documentation
// Documentation/filesystems/fiemap.rst, include/uapi/linux/fiemap.h) and the figures that
// describe how fragmented a file is, plus the facts about the file system holding it that those
// figures depend on (its type, block size, largest extent, read-only mount).
//
// Counting follows filefrag (e2fsprogs): a record that starts physically where the previous one
// ended, or keeps the previous one's logical-to-physical offset across a hole, belongs to the
// same extent, so a file the file system stores as several maximum-length records
// laid end to end counts 1, as filefrag says. The file system's own records are kept too
// (fs_extents), with the fewest records the file system could store the mapped bytes in
// (min_records). That is a count of records, to compare with fs_extents: in filefrag's count a
// file's best is 1 (e4defrag's "best" adds one per flex group the file must span), so it is no
// target for `extents`.
#ifndef STOREBENCH_BACKEND_FS_EXTENT_MAP_H_
#define STOREBENCH_BACKEND_FS_EXTENT_MAP_H_

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "storebench/status.h"

namespace sb::fs {

// One FIEMAP record (bytes).
struct Extent {
  uint64_t logical = 0;
  uint64_t physical = 0;
  uint64_t length = 0;
  uint32_t flags = 0;  // FIEMAP_EXTENT_*
};

// The file system holding a path, from /proc/self/mountinfo (matched by device number) and
// statfs.
struct FileSystemInfo {
  std::string type;         // "ext4", "xfs", "btrfs", "tmpfs", ... (mountinfo's type)
  std::string mount_point;  // "/"
  std::string source;       // "/dev/vda", "/dev/loop0"
  dev_t device = 0;         // st_dev of files on it
  uint64_t block_size = 0;  // statfs f_bsize
  bool read_only = false;
  // The longest extent one record can describe (ext4: 32768 blocks, 128 MiB with 4 KiB blocks;
  // xfs: 2^21 - 1 blocks; btrfs: 128 MiB); 0 when not known.
  uint64_t max_extent_bytes = 0;
  uint64_t total_bytes = 0, free_bytes = 0, used_bytes = 0;  // statfs
};

Result<FileSystemInfo> DescribeFileSystem(const std::string& path);

// The extent map of the open regular file `fd` (synced first: FIEMAP_FLAG_SYNC, so delayed
// allocations have their blocks). FailedPrecondition, naming the file system, when it does not
// report extents (tmpfs, many network file systems).
Result<std::vector<Extent>> ReadExtents(int fd, const std::string& path,
                                        const std::string& fs_type);

struct ExtentStats {
  uint64_t size_bytes = 0;    // st_size
  uint64_t mapped_bytes = 0;  // bytes covered by extents (holes and unallocated tail excluded)
  int64_t extents = 0;        // physically contiguous runs: what filefrag counts
  int64_t fs_extents = 0;     // records the file system returned
  int64_t min_records = 0;    // ceil(mapped / max_extent_bytes): the fewest records possible
  uint64_t mean_extent_bytes = 0, min_extent_bytes = 0, max_extent_bytes = 0;  // of `extents`
  int64_t discontinuities = 0;    // consecutive records that do not continue (extents - 1)
  uint64_t seek_bytes = 0;        // sum of |gap| at them: the head travel of one pass
  int64_t unwritten_extents = 0;  // preallocated, never written (reads return zeros)
  uint64_t unwritten_bytes = 0;
  int64_t shared_extents = 0;  // shared with another file (reflink, snapshot)
  uint64_t shared_bytes = 0;
  int64_t other_flagged = 0;  // inline, encoded, unknown or delalloc records
};

ExtentStats Summarize(const std::vector<Extent>& extents, uint64_t size_bytes,
                      uint64_t max_extent_bytes);

// Opens `path` read-only, reads its extents and summarizes them. InvalidArgument for anything
// but a regular file.
Result<ExtentStats> MeasureFile(const std::string& path, const FileSystemInfo& fs);
// The same for a file already open.
Result<ExtentStats> MeasureOpenFile(int fd, const std::string& path, const FileSystemInfo& fs);

// Free space as the file system's own map shows it (FS_IOC_GETFSMAP: ext4, xfs; needs
// CAP_SYS_ADMIN): how many separate free extents, their total, the largest.
struct FreeSpace {
  bool available = false;
  std::string why_not;  // when !available: one sentence
  int64_t free_extents = 0;
  uint64_t free_bytes = 0;
  uint64_t largest_free_bytes = 0;
};
FreeSpace MeasureFreeSpace(const std::string& path);

}  // namespace sb::fs

#endif  // STOREBENCH_BACKEND_FS_EXTENT_MAP_H_
