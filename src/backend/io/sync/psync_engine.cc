#include "backend/io/sync/psync_engine.h"

#include <unistd.h>

#include <cerrno>
#include <deque>
#include <vector>

namespace sb::io {
namespace {

class PsyncEngine final : public IoEngine {
 public:
  explicit PsyncEngine(int depth) : depth_(depth) {}
  ~PsyncEngine() override { Close(); }
  const char* name() const override { return "psync"; }
  bool is_async() const override { return false; }

  Result<int> Open(const std::string& path, const FileOptions& options) override {
    auto fd = OpenFileDescriptor(path, options);
    if (!fd.ok()) return fd.status();
    fds_.push_back(*fd);
    return static_cast<int>(fds_.size() - 1);
  }

  // Requests wait in a queue; Reap performs them in order, so a request's measured time
  // includes the time it waited behind earlier ones (the driver runs psync at depth 1).
  Result<int> Submit(const IoRequest* requests, int n) override {
    int accepted = 0;
    while (accepted < n && static_cast<int>(queue_.size()) < depth_) {
      queue_.push_back(requests[accepted++]);
    }
    return accepted;
  }

  Result<int> Reap(IoCompletion* out, int min_complete, int max) override {
    int done = 0;
    while (done < max && !queue_.empty()) {
      const IoRequest r = queue_.front();
      queue_.pop_front();
      const int fd = fds_[r.file];
      ssize_t got = 0;
      size_t total = 0;
      // Loop over short transfers (a buffered read across EOF returns fewer bytes: stop there).
      while (total < r.length) {
        auto* p = static_cast<char*>(r.buffer) + total;
        got = r.op == IoOp::kRead ? ::pread(fd, p, r.length - total, r.offset + total)
                                  : ::pwrite(fd, p, r.length - total, r.offset + total);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        total += static_cast<size_t>(got);
      }
      out[done].tag = r.tag;
      out[done].result = got < 0 ? -errno : static_cast<int64_t>(total);
      ++done;
      if (done >= min_complete && done >= 1) break;  // one at a time keeps latency per request
    }
    return done;
  }

  void Close() override {
    for (int fd : fds_) ::close(fd);
    fds_.clear();
    queue_.clear();
  }

 private:
  int depth_;
  std::vector<int> fds_;
  std::deque<IoRequest> queue_;
};

}  // namespace

Result<std::unique_ptr<IoEngine>> CreatePsyncEngine(const EngineOptions& options) {
  return std::unique_ptr<IoEngine>(std::make_unique<PsyncEngine>(options.queue_depth));
}

}  // namespace sb::io
