#include "backend/fs/move_ext.h"

#include <sys/ioctl.h>

#include <cerrno>
#include <cstring>
#include <system_error>

namespace sb::fs {

int CallMoveExt(const MoveExtCall& call, int fd, Ext4MoveExtent* me) {
  if (call) return call(fd, me);
  return ::ioctl(fd, kExt4IocMoveExt, me);
}

std::string ErrnoName(int err) {
  const char* name = ::strerrorname_np(err);
  return name != nullptr ? std::string(name) : "errno " + std::to_string(err);
}

MoveExtFailure JudgeMoveExtFailure(int err) {
  MoveExtFailure f;
  const std::string text = std::error_code(err, std::generic_category()).message();
  if (err == EBUSY) {
    f.retry = true;
    f.why = "EXT4_IOC_MOVE_EXT found the range busy: " + text + " (EBUSY)";
    return f;
  }
  f.code =
      err == EOPNOTSUPP || err == ENOTTY ? StatusCode::kFailedPrecondition : StatusCode::kIoError;
  f.why = "EXT4_IOC_MOVE_EXT was refused: " + text + " (" + ErrnoName(err) + ")";
  return f;
}

}  // namespace sb::fs
