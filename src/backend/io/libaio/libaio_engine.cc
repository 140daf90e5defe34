#include "backend/io/libaio/libaio_engine.h"

#include <libaio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <vector>

namespace sb::io {
namespace {

class LibaioEngine final : public IoEngine {
 public:
  LibaioEngine(io_context_t ctx, int depth)
      : ctx_(ctx), iocbs_(depth), tags_(depth), events_(depth), ptrs_(depth) {
    for (int i = depth - 1; i >= 0; --i) free_.push_back(i);
  }
  ~LibaioEngine() override {
    Close();
    io_destroy(ctx_);
  }
  const char* name() const override { return "libaio"; }
  bool is_async() const override { return true; }

  Result<int> Open(const std::string& path, const FileOptions& options) override {
    auto fd = OpenFileDescriptor(path, options);
    if (!fd.ok()) return fd.status();
    fds_.push_back(*fd);
    return static_cast<int>(fds_.size() - 1);
  }

  Result<int> Submit(const IoRequest* requests, int n) override {
    int prepared = 0;
    while (prepared < n && !free_.empty()) {
      const int slot = free_.back();
      free_.pop_back();
      const IoRequest& r = requests[prepared];
      iocb* cb = &iocbs_[slot];
      if (r.op == IoOp::kRead) {
        io_prep_pread(cb, fds_[r.file], r.buffer, r.length, static_cast<long long>(r.offset));
      } else {
        io_prep_pwrite(cb, fds_[r.file], r.buffer, r.length, static_cast<long long>(r.offset));
      }
      cb->data = reinterpret_cast<void*>(static_cast<uintptr_t>(slot));
      tags_[slot] = r.tag;
      ptrs_[prepared++] = cb;
    }
    int submitted = 0;
    while (submitted < prepared) {
      const int rc = io_submit(ctx_, prepared - submitted, ptrs_.data() + submitted);
      if (rc == -EINTR) continue;
      if (rc == -EAGAIN && submitted > 0) break;
      if (rc < 0 && rc != -EAGAIN) {
        // io_submit rejects the first iocb synchronously (EBADF, EINVAL, ...): report it as that
        // request's completion, like the other engines, and go on with the rest.
        const int slot = static_cast<int>(reinterpret_cast<uintptr_t>(ptrs_[submitted]->data));
        failed_.push_back({tags_[slot], rc});
        free_.push_back(slot);
        ++submitted;
        continue;
      }
      if (rc < 0) {
        ReleaseUnsubmitted(submitted, prepared);
        return Status::IoError("io_submit failed: " + ErrnoMessage(-rc));
      }
      submitted += rc;
    }
    ReleaseUnsubmitted(submitted, prepared);
    return submitted;
  }

  Result<int> Reap(IoCompletion* out, int min_complete, int max) override {
    return ReapWithin(out, min_complete, max, -1);
  }

  Result<int> ReapWithin(IoCompletion* out, int min_complete, int max,
                         int64_t timeout_nanos) override {
    timespec ts{};
    ts.tv_sec = timeout_nanos / 1000000000;
    ts.tv_nsec = timeout_nanos % 1000000000;
    timespec* wait = timeout_nanos < 0 ? nullptr : &ts;
    int n = 0;
    while (!failed_.empty() && n < max) {
      out[n++] = failed_.back();
      failed_.pop_back();
    }
    if (n == max) return n;
    out += n;
    const int want = std::min<int>(max - n, static_cast<int>(events_.size()));
    int rc;
    do {
      rc = io_getevents(ctx_, std::max(0, min_complete - n), want, events_.data(), wait);
    } while (rc == -EINTR && wait == nullptr);
    if (rc == -EINTR) rc = 0;  // a timed wait ends with what there is
    if (rc < 0) return Status::IoError("io_getevents failed: " + ErrnoMessage(-rc));
    for (int i = 0; i < rc; ++i) {
      const int slot = static_cast<int>(reinterpret_cast<uintptr_t>(events_[i].data));
      out[i].tag = tags_[slot];
      // res is unsigned long: a negative errno arrives as a huge value.
      out[i].result = static_cast<int64_t>(static_cast<long>(events_[i].res));
      free_.push_back(slot);
    }
    return n + rc;
  }

  void Close() override {
    for (int fd : fds_) ::close(fd);
    fds_.clear();
  }

 private:
  void ReleaseUnsubmitted(int from, int to) {
    for (int i = from; i < to; ++i) {
      free_.push_back(static_cast<int>(reinterpret_cast<uintptr_t>(ptrs_[i]->data)));
    }
  }

  io_context_t ctx_;
  std::vector<iocb> iocbs_;
  std::vector<uint64_t> tags_;
  std::vector<io_event> events_;
  std::vector<iocb*> ptrs_;
  std::vector<int> free_;
  std::vector<IoCompletion> failed_;  // requests io_submit rejected, reported by the next Reap
  std::vector<int> fds_;
};

}  // namespace

Result<std::unique_ptr<IoEngine>> CreateLibaioEngine(const EngineOptions& options) {
  io_context_t ctx = nullptr;
  const int rc = io_setup(options.queue_depth, &ctx);
  if (rc < 0) {
    return Status::FailedPrecondition("io_setup(" + std::to_string(options.queue_depth) +
                                      ") failed: " + ErrnoMessage(-rc) +
                                      " (check /proc/sys/fs/aio-max-nr)");
  }
  return std::unique_ptr<IoEngine>(std::make_unique<LibaioEngine>(ctx, options.queue_depth));
}

}  // namespace sb::io
