#include "backend/fs/replace_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <system_error>

namespace sb::fs {

std::string SiblingName(const std::string& path, const std::string& what) {
  const std::filesystem::path p(path);
  return (p.parent_path() /
          ("." + p.filename().string() + ".storebench-" + what + "-" + std::to_string(::getpid())))
      .string();
}

Status ReplaceWithCopy(int fd, const std::string& tmp, const std::string& path,
                       const struct stat& st, std::unique_ptr<FileLock>* lock) {
  (void)::fchmod(fd, st.st_mode & 07777);
  (void)::fchown(fd, st.st_uid, st.st_gid);
  auto held = TryLockTarget(tmp, LockMode::kExclusive, /*create=*/false, nullptr);
  if (!held.ok()) {
    return Status::FailedPrecondition("cannot lock the copy: " + held.status().message());
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    return Status::IoError("cannot rename the copy over '" + path +
                           "': " + std::error_code(errno, std::generic_category()).message());
  }
  *lock = std::move(held).value();
  const std::string parent = std::filesystem::path(path).parent_path().string();
  const int dir = ::open(parent.empty() ? "." : parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    (void)::fsync(dir);
    ::close(dir);
  }
  return Status::Ok();
}

}  // namespace sb::fs
