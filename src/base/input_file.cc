#include "base/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace sb {

const char* FileKind(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "a special file";
}

namespace {

Result<std::string> Read(const std::string& path, std::string_view what, size_t max_bytes,
                         bool prefix) {
  const std::string name = std::string(what) + " '" + path + "'";
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return Status::NotFound(name + " cannot be read: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return Status::IoError(name + " cannot be read: " + std::strerror(err));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return Status::InvalidArgument(name + " cannot be read: it is " + FileKind(st.st_mode) +
                                   ", not a regular file");
  }
  auto too_large = [&] {
    ::close(fd);
    const std::string limit = max_bytes % (1 << 20) == 0 ? std::to_string(max_bytes >> 20) + " MiB"
                                                         : std::to_string(max_bytes) + " bytes";
    return Status::InvalidArgument(name + " is larger than " + limit +
                                   ", more than such a file ever holds");
  };
  if (!prefix && static_cast<uint64_t>(st.st_size) > max_bytes) return too_large();
  std::string text;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      return Status::IoError(name + " cannot be read: " + std::strerror(err));
    }
    if (n == 0) break;
    text.append(buf, static_cast<size_t>(n));
    if (text.size() > max_bytes) {
      if (!prefix) return too_large();  // it grew while being read
      text.resize(max_bytes + 1);
      break;
    }
  }
  ::close(fd);
  return text;
}

}  // namespace

Result<std::string> ReadInputFile(const std::string& path, std::string_view what,
                                  size_t max_bytes) {
  return Read(path, what, max_bytes, /*prefix=*/false);
}

Result<std::string> ReadInputPrefix(const std::string& path, std::string_view what,
                                    size_t max_bytes) {
  return Read(path, what, max_bytes, /*prefix=*/true);
}

bool NothingAt(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) != 0 && errno == ENOENT;
}

}  // namespace sb
