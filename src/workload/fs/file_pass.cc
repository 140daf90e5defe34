#include "workload/fs/file_pass.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>

#include "backend/io/aligned_buffer.h"

namespace sb::fsload {
namespace {

std::string ErrnoWords(int err) { return std::error_code(err, std::generic_category()).message(); }

// Opens through the engine with O_DIRECT when asked; with `fallback`, through the page cache
// when the file system refuses it (said in *how).
Result<int> OpenMaybeDirect(io::IoEngine& engine, const std::string& path, bool write, bool direct,
                            bool fallback, std::string* how) {
  if (direct) {
    auto h = engine.Open(path, {/*direct=*/true, write});
    if (h.ok() || !fallback || h.status().code() != StatusCode::kFailedPrecondition) {
      *how = "O_DIRECT";
      return h;
    }
    *how = "buffered (the file system refused O_DIRECT)";
  } else {
    *how = "buffered";
  }
  return engine.Open(path, {/*direct=*/false, write});
}

// One request through the engine, waited for: bytes transferred or -errno.
Result<int64_t> Transfer(io::IoEngine& engine, io::IoOp op, int file, uint64_t offset,
                         size_t length, void* buffer) {
  io::IoRequest r;
  r.op = op;
  r.file = file;
  r.offset = offset;
  r.length = static_cast<uint32_t>(length);
  r.buffer = buffer;
  auto n = engine.Submit(&r, 1);
  if (!n.ok()) return n.status();
  io::IoCompletion c;
  auto got = engine.Reap(&c, 1, 1);
  if (!got.ok()) return got.status();
  return c.result;
}

class ReadPass final : public FilePass {
 public:
  ReadPass(std::unique_ptr<io::IoEngine> engine, const ReadPassOptions& o, int file,
           std::string how)
      : engine_(std::move(engine)), o_(o), file_(file), buf_(o.block) {
    how_ = std::move(how);
  }
  ~ReadPass() override { engine_->Close(); }

  Result<bool> Step() override {
    size_t want = o_.block;
    if (o_.length > 0) {
      if (done_ >= o_.length) return false;
      want = static_cast<size_t>(std::min<uint64_t>(o_.block, o_.length - done_));
    }
    auto n = Transfer(*engine_, io::IoOp::kRead, file_, o_.start + done_, want, buf_.data());
    if (!n.ok()) return n.status();
    if (o_.length > 0 && *n <= 0) {
      return Status::IoError("the sequential read of '" + o_.path + "' failed");
    }
    if (*n < 0) return Status::IoError("cannot read '" + o_.path + "': " + ErrnoWords(-*n));
    if (*n == 0) return false;
    done_ += static_cast<uint64_t>(*n);
    return true;
  }
  uint64_t bytes() const override { return done_; }

 private:
  std::unique_ptr<io::IoEngine> engine_;
  ReadPassOptions o_;
  int file_;
  io::AlignedBuffer buf_;
  uint64_t done_ = 0;
};

class CopyFilePass final : public CopyPass {
 public:
  CopyFilePass(std::unique_ptr<io::IoEngine> engine, const CopyPassOptions& o, int dst_fd)
      : engine_(std::move(engine)), o_(o), dst_fd_(dst_fd), buf_(o.block) {}
  ~CopyFilePass() override {
    engine_->Close();
    ::close(dst_fd_);
    if (!complete_) ::unlink(o_.dst.c_str());
  }

  Status Open() {
    auto in = OpenMaybeDirect(*engine_, o_.src, false, o_.direct, true, &source_how_);
    if (!in.ok()) return in.status();
    in_ = *in;
    auto out = OpenMaybeDirect(*engine_, o_.dst, true, o_.direct, true, &how_);
    if (!out.ok()) return out.status();
    out_ = *out;
    return Status::Ok();
  }

  Result<bool> Step() override {
    auto n = Transfer(*engine_, io::IoOp::kRead, in_, done_, o_.block, buf_.data());
    if (!n.ok()) return n.status();
    if (*n < 0) return Status::IoError("cannot read '" + o_.src + "': " + ErrnoWords(-*n));
    if (*n == 0) return false;
    const auto len = static_cast<size_t>(*n);
    int out = out_;
    if (len % 4096 != 0) {
      // The unaligned tail of the file goes through the page cache (O_DIRECT needs aligned
      // sizes): a second, buffered handle on DST.
      auto tail = engine_->Open(o_.dst, {/*direct=*/false, /*write=*/true});
      if (!tail.ok()) return tail.status();
      out = *tail;
    }
    auto w = Transfer(*engine_, io::IoOp::kWrite, out, done_, len, buf_.data());
    if (!w.ok()) return w.status();
    if (*w < static_cast<int64_t>(len)) {
      return Status::IoError(
          "cannot write '" + o_.dst + "': " +
          (*w < 0 ? ErrnoWords(static_cast<int>(-*w))
                  : "wrote " + std::to_string(*w) + " of " + std::to_string(len) + " bytes") +
          "; the partial copy was removed");
    }
    done_ += len;
    return true;
  }

  Status Finish() override {
    if (::fsync(dst_fd_) != 0)
      return Status::IoError("fsync '" + o_.dst + "': " + ErrnoWords(errno));
    complete_ = true;
    return Status::Ok();
  }
  uint64_t bytes() const override { return done_; }
  const std::string& source_how() const override { return source_how_; }

 private:
  std::unique_ptr<io::IoEngine> engine_;
  CopyPassOptions o_;
  int dst_fd_;  // the descriptor that created DST: fsync (any descriptor of a file syncs it)
  io::AlignedBuffer buf_;
  int in_ = -1, out_ = -1;
  std::string source_how_;
  uint64_t done_ = 0;
  bool complete_ = false;
};

}  // namespace

Result<std::unique_ptr<FilePass>> OpenReadPass(std::unique_ptr<io::IoEngine> engine,
                                               const ReadPassOptions& options) {
  std::string how;
  auto file = OpenMaybeDirect(*engine, options.path, false, options.direct,
                              options.buffered_fallback, &how);
  if (!file.ok()) return file.status();
  return std::unique_ptr<FilePass>(
      std::make_unique<ReadPass>(std::move(engine), options, *file, std::move(how)));
}

Result<std::unique_ptr<CopyPass>> OpenCopyPass(std::unique_ptr<io::IoEngine> engine,
                                               const CopyPassOptions& options) {
  const int fd = ::open(options.dst.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int err = errno;
    const std::string why = "cannot create '" + options.dst + "': " + ErrnoWords(err);
    return err == EEXIST ? Status::AlreadyExists(why) : Status::IoError(why);
  }
  auto pass = std::make_unique<CopyFilePass>(std::move(engine), options, fd);
  if (Status s = pass->Open(); !s.ok()) return s;  // the pass removes DST
  return std::unique_ptr<CopyPass>(std::move(pass));
}

}  // namespace sb::fsload
