// The I/O engine interface: open files, submit requests, reap completions, close.
//
// One engine instance belongs to one worker thread (engines are not thread-safe); it owns the
// file descriptors it opened. The driver decides what to submit and measures how long each
// request took; engines never read the clock. Concrete engines live in sync/, libaio/, io_uring/
// and null/ (the only folders that include libaio.h or liburing.h) and are registered by cli/.
//
// Errors are Status: IoError for a failed system call (with ErrnoMessage's words),
// FailedPrecondition for what the system cannot do here (O_DIRECT on tmpfs, a kernel without
// io_uring); a request that fails on the device is not an error of the call but a completion
// with a negative result.
//
// A new engine: a folder under backend/io/ with its own sb_layer (the only one to link its
// library), a factory, one line in cli/'s engine list, and tests/unit/io/ (docs/contributing.md).
#ifndef STOREBENCH_INCLUDE_STOREBENCH_IO_ENGINE_H_
#define STOREBENCH_INCLUDE_STOREBENCH_IO_ENGINE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "storebench/status.h"

namespace sb::io {

enum class IoOp : uint8_t { kRead, kWrite };

struct IoRequest {
  IoOp op = IoOp::kRead;
  int file = 0;         // handle returned by IoEngine::Open
  uint64_t offset = 0;  // bytes
  uint32_t length = 0;  // bytes
  void* buffer = nullptr;  // with O_DIRECT: aligned to the device's logical block size
  uint64_t tag = 0;     // returned unchanged in the completion
};

struct IoCompletion {
  uint64_t tag = 0;
  int64_t result = 0;  // bytes transferred, or -errno
};

struct FileOptions {
  bool direct = true;   // O_DIRECT: bypass the page cache
  bool write = false;   // open read-write (else read-only)
};

struct EngineOptions {
  int queue_depth = 1;  // the most requests in flight at once
};

class IoEngine {
 public:
  virtual ~IoEngine() = default;
  // The name it is registered under (--engine), recorded in results.
  virtual const char* name() const = 0;
  // True when requests are in flight concurrently (libaio, io_uring, null). A synchronous
  // engine (psync) performs each request inside Reap, one at a time.
  virtual bool is_async() const = 0;

  // Opens `path` and returns the handle for IoRequest::file. O_DIRECT failures (e.g. tmpfs) are
  // FailedPrecondition with a message naming the file system problem.
  virtual Result<int> Open(const std::string& path, const FileOptions& options) = 0;
  // Queues and submits up to `n` requests; returns how many were accepted (fewer when the queue
  // is full). An error means none of the remaining requests were submitted.
  virtual Result<int> Submit(const IoRequest* requests, int n) = 0;
  // Returns up to `max` completions, waiting until at least `min_complete` are available
  // (0 = do not wait). REQUIRES: min_complete <= requests in flight.
  virtual Result<int> Reap(IoCompletion* out, int min_complete, int max) = 0;
  // As Reap, but waits at most `timeout_nanos` for `min_complete` completions, then returns what
  // there is (possibly none): an open-loop worker waits for a completion or its next scheduled
  // start, whichever comes first. The default suits engines whose requests complete inside
  // Submit or Reap (psync, null), which never wait for the device.
  virtual Result<int> ReapWithin(IoCompletion* out, int min_complete, int max,
                                 int64_t /*timeout_nanos*/) {
    return Reap(out, min_complete, max);
  }
  // Closes every file; the handles are invalid after. REQUIRES: nothing in flight. The
  // destructor closes what is still open.
  virtual void Close() = 0;
};

// Makes an engine for one worker with room for options.queue_depth requests in flight; a
// system without the engine's interface is FailedPrecondition saying so.
using EngineFactory = std::function<Result<std::unique_ptr<IoEngine>>(const EngineOptions&)>;

// Engine names → factories. cli/ registers the concrete engines; nothing else names one.
class EngineRegistry {
 public:
  void Register(const std::string& name, EngineFactory factory);
  // An unknown name is InvalidArgument listing the registered engines.
  Result<std::unique_ptr<IoEngine>> Create(const std::string& name,
                                           const EngineOptions& options) const;
  std::vector<std::string> Names() const;

 private:
  std::map<std::string, EngineFactory> factories_;
};

// Opens a file with the flags every engine uses (O_CLOEXEC, O_DIRECT on request). Returns the
// descriptor or an IoError/FailedPrecondition naming the path.
Result<int> OpenFileDescriptor(const std::string& path, const FileOptions& options);

// "Invalid argument (errno 22)" text for a negative result.
std::string ErrnoMessage(int err);

}  // namespace sb::io

#endif  // STOREBENCH_INCLUDE_STOREBENCH_IO_ENGINE_H_
