#include "base/output_stream.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "base/output_file.h"

namespace sb {

Result<std::unique_ptr<OutputStream>> OutputStream::Open(const std::string& path,
                                                         std::string_view what) {
  auto failure = [&](const std::string& why) {
    return Status::IoError("cannot write " + std::string(what) + " '" + path + "': " + why);
  };
  SB_RETURN_IF_ERROR(PrepareOutputPath(path, what));
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return failure(std::strerror(errno));
    return std::unique_ptr<OutputStream>(new OutputStream(fd, path, "", std::string(what)));
  }
  std::string tmp;
  int fd = -1;
  if (int err = CreateTempBeside(path, &fd, &tmp); err != 0) {
    return failure("cannot create '" + tmp + "': " + std::strerror(err));
  }
  return std::unique_ptr<OutputStream>(new OutputStream(fd, path, tmp, std::string(what)));
}

OutputStream::~OutputStream() {
  if (fd_ < 0) return;
  ::close(fd_);
  if (!tmp_.empty()) ::unlink(tmp_.c_str());
}

void OutputStream::Append(std::string_view text) {
  if (fd_ < 0 || errno_ != 0) return;
  errno_ = WriteAll(fd_, text);
}

Status OutputStream::error() const { return errno_ == 0 ? Status::Ok() : Failure(errno_); }

Status OutputStream::Failure(int err) const {
  return Status::IoError("cannot write " + what_ + " '" + path_ + "': " + std::strerror(err));
}

Status OutputStream::Commit() {
  if (fd_ < 0) return error();
  const int fd = fd_;
  fd_ = -1;
  if (errno_ != 0) {
    ::close(fd);
    if (!tmp_.empty()) ::unlink(tmp_.c_str());
    return Failure(errno_);
  }
  if (tmp_.empty()) {
    if (::close(fd) != 0) errno_ = errno;
  } else {
    errno_ = CommitTemp(fd, tmp_, path_);
  }
  return error();
}

}  // namespace sb
