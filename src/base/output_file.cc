#include "base/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace sb {

int WriteAll(int fd, std::string_view text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    done += static_cast<size_t>(n);
  }
  return 0;
}

int CreateTempBeside(const std::string& path, int* fd, std::string* tmp) {
  // A unique temporary name in the same directory, so the rename stays on one file system.
  *fd = -1;
  for (int attempt = 0; attempt < 100; ++attempt) {
    *tmp = path + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(attempt);
    *fd = ::open(tmp->c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (*fd >= 0) return 0;
    if (errno != EEXIST) break;
  }
  return errno;
}

int CommitTemp(int fd, const std::string& tmp, const std::string& path) {
  int err = ::fsync(fd) != 0 ? errno : 0;
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err == 0 && ::rename(tmp.c_str(), path.c_str()) != 0) err = errno;
  if (err != 0) {
    ::unlink(tmp.c_str());
    return err;
  }
  // Make the rename itself durable; a failure here does not lose the file, so it is ignored.
  const std::string dir = std::filesystem::path(path).parent_path().string();
  const int dir_fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
  return 0;
}

Status PrepareOutputPath(const std::string& path, std::string_view what) {
  namespace fs = std::filesystem;
  if (path.empty()) return Status::InvalidArgument(std::string(what) + ": the path is empty");
  const fs::path dir = fs::path(path).parent_path();
  if (!dir.empty()) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) {
      return Status::IoError("cannot write " + std::string(what) + " '" + path +
                             "': cannot create directory '" + dir.string() + "': " + ec.message());
    }
  }
  return Status::Ok();
}

Status WriteOutputFile(const std::string& path, std::string_view text, std::string_view what) {
  auto failure = [&](const std::string& why) {
    return Status::IoError("cannot write " + std::string(what) + " '" + path + "': " + why);
  };
  SB_RETURN_IF_ERROR(PrepareOutputPath(path, what));
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    const int out = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (out < 0) return failure(std::strerror(errno));
    int err = WriteAll(out, text);
    if (::close(out) != 0 && err == 0) err = errno;
    return err == 0 ? Status::Ok() : failure(std::strerror(err));
  }
  std::string tmp;
  int fd = -1;
  if (int err = CreateTempBeside(path, &fd, &tmp); err != 0) {
    return failure("cannot create '" + tmp + "': " + std::strerror(err));
  }
  if (int err = WriteAll(fd, text); err != 0) {
    ::close(fd);
    ::unlink(tmp.c_str());
    return failure(std::strerror(err));
  }
  if (int err = CommitTemp(fd, tmp, path); err != 0) return failure(std::strerror(err));
  return Status::Ok();
}

}  // namespace sb
