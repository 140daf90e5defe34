#include "storebench/io_engine.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>
#include <system_error>

#include "backend/io/aligned_buffer.h"

namespace sb::io {

AlignedBuffer::AlignedBuffer(size_t size) {
  size_ = (size + kDirectAlignment - 1) / kDirectAlignment * kDirectAlignment;
  if (size_ == 0) size_ = kDirectAlignment;
  void* p = std::aligned_alloc(kDirectAlignment, size_);
  if (p == nullptr) throw std::bad_alloc();
  std::memset(p, 0, size_);
  data_.reset(static_cast<uint8_t*>(p));
}

void EngineRegistry::Register(const std::string& name, EngineFactory factory) {
  factories_[name] = std::move(factory);
}

std::vector<std::string> EngineRegistry::Names() const {
  std::vector<std::string> names;
  for (const auto& [name, f] : factories_) names.push_back(name);
  return names;
}

Result<std::unique_ptr<IoEngine>> EngineRegistry::Create(const std::string& name,
                                                         const EngineOptions& options) const {
  auto it = factories_.find(name);
  if (it == factories_.end()) {
    std::string known;
    for (const auto& n : Names()) known += (known.empty() ? "" : ", ") + n;
    return Status::InvalidArgument("unknown I/O engine '" + name + "' (known: " + known + ")");
  }
  if (options.queue_depth < 1) return Status::InvalidArgument("queue depth must be at least 1");
  return it->second(options);
}

std::string ErrnoMessage(int err) {
  return std::error_code(err, std::generic_category()).message() + " (errno " +
         std::to_string(err) + ")";
}

Result<int> OpenFileDescriptor(const std::string& path, const FileOptions& options) {
  int flags = O_CLOEXEC | (options.write ? O_RDWR : O_RDONLY);
  if (options.direct) flags |= O_DIRECT;
  const int fd = ::open(path.c_str(), flags);
  if (fd >= 0) return fd;
  const int err = errno;
  if (err == EINVAL && options.direct) {
    return Status::FailedPrecondition(
        "the file system holding '" + path +
        "' does not support O_DIRECT (tmpfs?); use a disk-backed file system or --direct=N");
  }
  return Status::IoError("cannot open '" + path + "': " + ErrnoMessage(err));
}

}  // namespace sb::io
