// The EXT4_IOC_MOVE_EXT call of io fragment and io defrag, and the one decision both make when
// it fails: EBUSY (a page of the range is still being written back or held by the running
// journal transaction) is worth a sync and another try; any other error means this kernel,
// container or mount refuses the move here (EOPNOTSUPP on bigalloc or DAX file systems and
// ENOTTY where the ioctl is unknown, see fs/ext4/ioctl.c; EPERM or EACCES from a security
// policy or the mount: the root ext4 of the VM this was written on, mounted with resv_strict,
// answers EPERM, and so did a loop-device ext4 mounted the same way, while one mounted without
// it allowed the move; anything else), so the caller falls back to its next
// method (fragment: punch and refill, then copy; defrag: copy and rename) and says why.
#ifndef STOREBENCH_BACKEND_FS_MOVE_EXT_H_
#define STOREBENCH_BACKEND_FS_MOVE_EXT_H_

#include <functional>
#include <string>

#include "backend/fs/ext4_move_ext.h"
#include "storebench/status.h"

namespace sb::fs {

// Stands in for ioctl(fd, EXT4_IOC_MOVE_EXT, me): returns 0, or -1 with errno set. Empty means
// the real ioctl; tests put a refusal here.
using MoveExtCall = std::function<int(int fd, Ext4MoveExtent* me)>;

// Calls `call`, or the real ioctl when it is empty.
int CallMoveExt(const MoveExtCall& call, int fd, Ext4MoveExtent* me);

struct MoveExtFailure {
  bool retry = false;  // EBUSY: sync and try again; the caller bounds the tries
  // When not retried: FailedPrecondition when this file system does not offer the move at all
  // (EOPNOTSUPP, ENOTTY), IoError when it is refused here (EPERM, EACCES, any other).
  StatusCode code = StatusCode::kIoError;
  std::string why;  // "EXT4_IOC_MOVE_EXT was refused: Operation not permitted (EPERM)"
};
MoveExtFailure JudgeMoveExtFailure(int err);

// "EPERM" for EPERM (the symbolic name, which is what users search for), "errno 4242" when
// there is none.
std::string ErrnoName(int err);

}  // namespace sb::fs

#endif  // STOREBENCH_BACKEND_FS_MOVE_EXT_H_
