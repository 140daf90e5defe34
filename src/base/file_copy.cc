#include "base/file_copy.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace sb {
namespace {

Status Errno(const std::string& what) {
  return Status::IoError(what + ": " + std::strerror(errno));
}

// Closes a descriptor when the scope ends.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// `clone_only`: no copy_file_range when the reflink fails; `reflink` false and nothing written.
Result<FileCopyInfo> CopyOpen(int in, int out, const std::string& from, const std::string& to,
                              bool clone_only) {
  struct stat st {};
  if (::fstat(in, &st) != 0) return Errno("cannot read '" + from + "'");
  FileCopyInfo info;
  info.bytes = st.st_size;
  if (::ioctl(out, FICLONE, in) == 0) {
    info.reflink = true;
  } else if (clone_only) {
    return info;
  } else {
    // EOPNOTSUPP / EXDEV / EINVAL: no shared blocks here; copy in the kernel instead.
    loff_t left = st.st_size;
    while (left > 0) {
      const ssize_t n = ::copy_file_range(in, nullptr, out, nullptr, static_cast<size_t>(left), 0);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return Errno("cannot copy '" + from + "' to '" + to + "'");
      if (n == 0) break;  // the source became shorter while copying
      left -= n;
    }
    if (left != 0) {
      return Status::IoError("'" + from + "' changed size while it was copied to '" + to + "'");
    }
  }
  if (::fsync(out) != 0) return Errno("cannot flush '" + to + "'");
  return info;
}

Result<FileCopyInfo> CopyOrClone(const std::string& from, const std::string& to, bool clone_only) {
  Fd in;
  in.fd = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
  if (in.fd < 0) return Errno("cannot open '" + from + "'");
  Fd out;
  out.fd = ::open(to.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (out.fd < 0) {
    if (errno == EEXIST) return Status::AlreadyExists("'" + to + "' exists already");
    return Errno("cannot create '" + to + "'");
  }
  auto copied = CopyOpen(in.fd, out.fd, from, to, clone_only);
  if (!copied.ok() || (clone_only && !copied->reflink)) ::unlink(to.c_str());
  return copied;
}

}  // namespace

Result<FileCopyInfo> CopyWholeFile(const std::string& from, const std::string& to) {
  return CopyOrClone(from, to, /*clone_only=*/false);
}

Result<FileCopyInfo> CloneWholeFile(const std::string& from, const std::string& to) {
  return CopyOrClone(from, to, /*clone_only=*/true);
}

Status RenameDurably(const std::string& from, const std::string& to) {
  if (::rename(from.c_str(), to.c_str()) != 0) {
    return Errno("cannot rename '" + from + "' to '" + to + "'");
  }
  std::string dir = std::filesystem::path(to).parent_path().string();
  if (dir.empty()) dir = ".";
  Fd d;
  d.fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (d.fd < 0 || ::fsync(d.fd) != 0) return Errno("cannot flush the directory '" + dir + "'");
  return Status::Ok();
}

}  // namespace sb
