#include "base/unique_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace sb {

Result<std::string> CreateUniqueFile(const std::string& dir, const std::string& stem,
                                     const std::string& ext) {
  if (!dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return Status::IoError("cannot create directory '" + dir + "': " + ec.message());
  }
  const std::string prefix = dir.empty() ? stem : dir + "/" + stem;
  // Bounded only so that a file system answering EEXIST to everything cannot loop forever.
  for (int n = 1; n <= 1000000; ++n) {
    const std::string path = prefix + (n == 1 ? "" : "-" + std::to_string(n)) + ext;
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
      ::close(fd);
      return path;
    }
    if (errno != EEXIST) {
      return Status::IoError("cannot create '" + path + "': " + std::strerror(errno));
    }
  }
  return Status::IoError("cannot find a free name for '" + prefix + ext + "'");
}

}  // namespace sb
