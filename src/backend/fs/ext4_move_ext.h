// The ext4 online-defragmentation ioctl EXT4_IOC_MOVE_EXT (fs/ext4/ext4.h in the kernel; its use
// is shown by e4defrag.c in e2fsprogs): the kernel moves `len` blocks of the file it is called
// on, from `orig_start`, into the blocks the donor file holds at `donor_start`, exchanging the
// two, and copies the data through the page cache, so the file's contents never change. Both
// files must be on one ext4 file system and open for writing. Debian's kernel headers do not
// export it, so the ABI is declared here.
#ifndef STOREBENCH_BACKEND_FS_EXT4_MOVE_EXT_H_
#define STOREBENCH_BACKEND_FS_EXT4_MOVE_EXT_H_

#include <sys/ioctl.h>

#include <cstdint>

namespace sb::fs {

struct Ext4MoveExtent {
  uint32_t reserved = 0;
  uint32_t donor_fd = 0;
  uint64_t orig_start = 0;   // logical block in the original
  uint64_t donor_start = 0;  // logical block in the donor
  uint64_t len = 0;          // blocks to move
  uint64_t moved_len = 0;    // blocks moved (out)
};
inline constexpr uint64_t kExt4IocMoveExt = _IOWR('f', 15, Ext4MoveExtent);

}  // namespace sb::fs

#endif  // STOREBENCH_BACKEND_FS_EXT4_MOVE_EXT_H_
