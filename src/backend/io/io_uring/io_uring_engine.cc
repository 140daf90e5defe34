#include "backend/io/io_uring/io_uring_engine.h"

#include <liburing.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

namespace sb::io {
namespace {

class IoUringEngine final : public IoEngine {
 public:
  explicit IoUringEngine(int depth) : depth_(depth) {}
  ~IoUringEngine() override {
    Close();
    if (initialized_) io_uring_queue_exit(&ring_);
  }
  // The ring is set up in place: it must not be copied once the kernel has mapped it. One
  // thread submits and reaps (an engine belongs to one worker), so the ring is set up as fio
  // does: completions are processed when that thread asks for them (DEFER_TASKRUN, kernel 6.1),
  // else when it enters the kernel anyway (COOP_TASKRUN, 5.19), instead of interrupting it.
  Status Init() {
    int rc = -EINVAL;
    for (unsigned flags :
         {IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_COOP_TASKRUN,
          unsigned{IORING_SETUP_COOP_TASKRUN}, 0u}) {
      rc = io_uring_queue_init(static_cast<unsigned>(depth_), &ring_, flags);
      deferred_ = (flags & IORING_SETUP_DEFER_TASKRUN) != 0;
      if (rc != -EINVAL) break;  // older kernels reject flags they do not know
    }
    if (rc < 0) {
      return Status::FailedPrecondition("io_uring_queue_init failed: " + ErrnoMessage(-rc) +
                                        " (io_uring disabled by the kernel or a sandbox?)");
    }
    initialized_ = true;
    return Status::Ok();
  }
  const char* name() const override { return "io_uring"; }
  bool is_async() const override { return true; }

  Result<int> Open(const std::string& path, const FileOptions& options) override {
    auto fd = OpenFileDescriptor(path, options);
    if (!fd.ok()) return fd.status();
    fds_.push_back(*fd);
    // Registered files save the per-request fget/fput; re-register the whole table (files are
    // opened before I/O starts, so this is not on the hot path).
    if (registered_) io_uring_unregister_files(&ring_);
    registered_ = io_uring_register_files(&ring_, fds_.data(), fds_.size()) == 0;
    return static_cast<int>(fds_.size() - 1);
  }

  Result<int> Submit(const IoRequest* requests, int n) override {
    int queued = 0;
    while (queued < n && in_flight_ + queued < depth_) {
      io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
      if (sqe == nullptr) break;
      const IoRequest& r = requests[queued];
      const int fd = registered_ ? r.file : fds_[r.file];
      if (r.op == IoOp::kRead) {
        io_uring_prep_read(sqe, fd, r.buffer, r.length, r.offset);
      } else {
        io_uring_prep_write(sqe, fd, r.buffer, r.length, r.offset);
      }
      if (registered_) sqe->flags |= IOSQE_FIXED_FILE;
      io_uring_sqe_set_data64(sqe, r.tag);
      ++queued;
    }
    if (queued == 0) return 0;
    int rc;
    do {
      rc = io_uring_submit(&ring_);
    } while (rc == -EINTR);
    if (rc < 0) return Status::IoError("io_uring_submit failed: " + ErrnoMessage(-rc));
    // All queued SQEs are consumed by the kernel even when it reports fewer: the rest complete
    // with an error CQE.
    in_flight_ += queued;
    return queued;
  }

  Result<int> Reap(IoCompletion* out, int min_complete, int max) override {
    // With deferred task work, finished requests reach the completion ring only when this
    // thread enters the kernel for them; waiting (below) does that, a non-blocking reap asks.
    if (deferred_ && min_complete == 0 && in_flight_ > 0) io_uring_get_events(&ring_);
    int done = Drain(out, max);
    while (done < min_complete) {
      io_uring_cqe* cqe = nullptr;
      const int rc = io_uring_wait_cqe(&ring_, &cqe);
      if (rc == -EINTR) continue;
      if (rc < 0) return Status::IoError("io_uring_wait_cqe failed: " + ErrnoMessage(-rc));
      done += Drain(out + done, max - done);
    }
    return done;
  }

  Result<int> ReapWithin(IoCompletion* out, int min_complete, int max,
                         int64_t timeout_nanos) override {
    if (min_complete == 0 || timeout_nanos < 0) return Reap(out, min_complete, max);
    int done = Drain(out, max);
    if (done >= min_complete) return done;
    __kernel_timespec ts{};
    ts.tv_sec = timeout_nanos / 1000000000;
    ts.tv_nsec = timeout_nanos % 1000000000;
    io_uring_cqe* cqe = nullptr;
    // One wait: a signal or the timeout ends it with what is there.
    const int rc = io_uring_wait_cqe_timeout(&ring_, &cqe, &ts);
    if (rc < 0 && rc != -ETIME && rc != -EINTR) {
      return Status::IoError("io_uring_wait_cqe_timeout failed: " + ErrnoMessage(-rc));
    }
    return done + Drain(out + done, max - done);
  }

  void Close() override {
    if (registered_) io_uring_unregister_files(&ring_);
    registered_ = false;
    for (int fd : fds_) ::close(fd);
    fds_.clear();
  }

 private:
  int Drain(IoCompletion* out, int max) {
    int n = 0;
    unsigned head;
    io_uring_cqe* cqe;
    io_uring_for_each_cqe(&ring_, head, cqe) {
      if (n == max) break;
      out[n].tag = io_uring_cqe_get_data64(cqe);
      out[n].result = cqe->res;
      ++n;
    }
    io_uring_cq_advance(&ring_, n);
    in_flight_ -= n;
    return n;
  }

  io_uring ring_{};
  bool initialized_ = false;
  bool deferred_ = false;  // IORING_SETUP_DEFER_TASKRUN
  int depth_;
  int in_flight_ = 0;
  bool registered_ = false;
  std::vector<int> fds_;
};

}  // namespace

Result<std::unique_ptr<IoEngine>> CreateIoUringEngine(const EngineOptions& options) {
  auto engine = std::make_unique<IoUringEngine>(options.queue_depth);
  SB_RETURN_IF_ERROR(engine->Init());
  return std::unique_ptr<IoEngine>(std::move(engine));
}

}  // namespace sb::io
