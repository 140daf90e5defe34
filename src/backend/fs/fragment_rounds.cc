// move_ext and punch (fragment.h): round by round on the file in place.
#include <fcntl.h>
#include <linux/falloc.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <system_error>
#include <vector>

#include "backend/fs/fragment_internal.h"
#include "backend/fs/move_ext.h"
#include "backend/fs/replace_file.h"

namespace sb::fs::internal {
namespace {

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// Blocks handled per batch: read, punch, write back. A stop is honoured between batches.
constexpr size_t kBatch = 256;

// A method refused part-way: why, and as what (see MethodRun::code).
struct Refusal {
  std::string why;
  StatusCode code = StatusCode::kIoError;
};

// Reads the blocks at `offsets`, punches them out, and writes the same bytes back. A refused
// punch fills *refusal after every block punched so far got its bytes back; an error return is
// a block that could not be read or written back.
Status RefillBatch(int fd, const std::vector<uint64_t>& offsets, uint64_t block, uint8_t* buf,
                   const std::string& path, Refusal* refusal) {
  for (size_t i = 0; i < offsets.size(); ++i) {
    SB_RETURN_IF_ERROR(ReadFull(fd, buf + i * block, block, offsets[i], path));
  }
  size_t punched = 0;
  for (; punched < offsets.size(); ++punched) {
    if (::fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                    static_cast<off_t>(offsets[punched]), static_cast<off_t>(block)) != 0) {
      const int err = errno;
      refusal->code = err == EOPNOTSUPP ? StatusCode::kFailedPrecondition : StatusCode::kIoError;
      refusal->why = err == EOPNOTSUPP
                         ? "the file system cannot punch holes (fallocate FALLOC_FL_PUNCH_HOLE: " +
                               ErrnoText(err) + ")"
                         : "fallocate FALLOC_FL_PUNCH_HOLE was refused: " + ErrnoText(err) + " (" +
                               ErrnoName(err) + ")";
      break;
    }
  }
  // Every punched block gets its bytes back, also after a refused punch.
  for (size_t i = 0; i < punched; ++i) {
    SB_RETURN_IF_ERROR(WriteFull(fd, buf + i * block, block, offsets[i], path));
  }
  return Status::Ok();
}

// Gives each block at `offsets` a new home without ever punching it: the donor (a sibling file,
// unlinked) gets one preallocated block at the same offset, and EXT4_IOC_MOVE_EXT exchanges the
// two, copying the data. On a busy ext4 volume (the root file system of the VM these figures
// come from) punched blocks were reused in place at once, so punch and refill added nothing at
// sparse spacings (every 2,000th block: 3 extents after 5 rounds) and took 100 rounds to reach
// 1,820 of 2,048; the donor's blocks are never the file's neighbours. A refusal (move_ext.h's
// decision, at any block) fills *refusal; the blocks moved before it keep their data.
void MoveBatch(int fd, int donor, const std::vector<uint64_t>& offsets, uint64_t block,
               const MoveExtCall& call, Refusal* refusal) {
  for (size_t i = 0; i < offsets.size(); ++i) {
    if (::fallocate(donor, 0, static_cast<off_t>(offsets[i]), static_cast<off_t>(block)) != 0) {
      const int err = errno;
      refusal->why = "cannot preallocate a block in the donor file: " + ErrnoText(err) + " (" +
                     ErrnoName(err) + ")";
      return;
    }
    Ext4MoveExtent me;
    me.donor_fd = static_cast<uint32_t>(donor);
    me.orig_start = offsets[i] / block;
    me.donor_start = offsets[i] / block;
    me.len = 1;
    int rc = CallMoveExt(call, fd, &me);
    MoveExtFailure failure;
    if (rc != 0) failure = JudgeMoveExtFailure(errno);
    // Busy: the previous moves dirtied their pages, which are being written back; e4defrag
    // syncs first too. Synced, the move goes through.
    for (int retry = 0; rc != 0 && failure.retry && retry < 3; ++retry) {
      ::fdatasync(fd);
      ::fdatasync(donor);
      if (retry > 0) ::syncfs(fd);
      me.moved_len = 0;
      rc = CallMoveExt(call, fd, &me);
      if (rc != 0) failure = JudgeMoveExtFailure(errno);
    }
    // Still busy: this block stays where it is (unchanged); the next round measures and makes
    // up for it.
    if (rc != 0 && failure.retry) continue;
    if (rc != 0) {
      refusal->why = failure.why;
      refusal->code = failure.code;
      return;
    }
  }
}

}  // namespace

std::string ErrnoText(int err) { return std::error_code(err, std::generic_category()).message(); }

double Slack(const FragmentOptions& o) {
  return std::max(1.0, o.tolerance * static_cast<double>(o.target_extents));
}

Status ReadFull(int fd, uint8_t* p, size_t n, uint64_t off, const std::string& path) {
  while (n > 0) {
    const ssize_t r = ::pread(fd, p, n, static_cast<off_t>(off));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      return Status::IoError("cannot read '" + path + "' at byte " + std::to_string(off) + ": " +
                             (r == 0 ? std::string("unexpected end of file") : ErrnoText(errno)));
    }
    p += r;
    n -= static_cast<size_t>(r);
    off += static_cast<uint64_t>(r);
  }
  return Status::Ok();
}

Status WriteFull(int fd, const uint8_t* p, size_t n, uint64_t off, const std::string& path) {
  while (n > 0) {
    const ssize_t w = ::pwrite(fd, p, n, static_cast<off_t>(off));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      return Status::IoError("cannot write '" + path + "' at byte " + std::to_string(off) + ": " +
                             ErrnoText(errno));
    }
    p += w;
    n -= static_cast<size_t>(w);
    off += static_cast<uint64_t>(w);
  }
  return Status::Ok();
}

Result<MethodRun> FragmentInRounds(const FragmentOptions& o, const FileSystemInfo& fs, int fd,
                                   bool move_ext, int64_t extents, const ProgressFn& progress) {
  const uint64_t block = fs.block_size > 0 ? fs.block_size : 4096;
  const uint64_t blocks = o.region_bytes / block;
  const double slack = Slack(o);
  const char* verb = move_ext ? "moved" : "refilled";
  MethodRun run;
  run.after = extents;
  auto measure = [&]() -> Status {
    if (::fdatasync(fd) != 0) {
      return Status::IoError("fdatasync '" + o.path + "': " + ErrnoText(errno));
    }
    auto s = MeasureOpenFile(fd, o.path, fs);
    if (!s.ok()) return s.status();
    run.after = s->extents;
    return Status::Ok();
  };
  std::unique_ptr<uint8_t, decltype(&std::free)> buf(
      static_cast<uint8_t*>(std::aligned_alloc(4096, kBatch * block)), &std::free);
  int idle_rounds = 0;  // rounds in a row that added nothing
  uint64_t seed = 0x9E3779B97F4A7C15ULL;
  std::string ended = "the most rounds (" + std::to_string(o.max_rounds) + ") ran";
  while (run.rounds < o.max_rounds) {
    const int64_t missing = o.target_extents - run.after;
    if (std::fabs(static_cast<double>(missing)) <= slack || missing < 0) break;
    ++run.rounds;
    // A refilled block adds at most two extents, so refilling half the missing count can never
    // overshoot; where the allocator puts blocks back in place (xfs did so for most of them in
    // some rounds) later rounds make up the rest.
    const uint64_t want =
        std::clamp<uint64_t>(static_cast<uint64_t>((missing + 1) / 2), 1, blocks / 2);
    // Evenly spaced blocks, the phase moving each round so later rounds hit fresh ones.
    const uint64_t stride = std::max<uint64_t>(2, blocks / want);
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    const uint64_t phase = (seed >> 33) % stride;
    Fd donor;
    if (move_ext) {
      const std::string name = SiblingName(o.path, "fragment");
      donor.fd = ::open(name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
      if (donor.fd < 0) {
        run.refused = true;
        run.why = "cannot create a donor file beside '" + o.path + "': " + ErrnoText(errno);
        return run;
      }
      ::unlink(name.c_str());  // never left behind; its blocks are freed when it is closed
    }
    Refusal refusal;
    auto handle = [&](const std::vector<uint64_t>& batch) -> Status {
      if (move_ext) {
        MoveBatch(fd, donor.fd, batch, block, o.move_ext_call, &refusal);
        return Status::Ok();
      }
      return RefillBatch(fd, batch, block, buf.get(), o.path, &refusal);
    };
    std::vector<uint64_t> batch;
    uint64_t done = 0;
    for (uint64_t b = phase; b < blocks && done < want && refusal.why.empty(); b += stride) {
      batch.push_back(o.region_start + b * block);
      ++done;
      if (batch.size() == kBatch) {
        SB_RETURN_IF_ERROR(handle(batch));
        batch.clear();
        if (o.stop != nullptr && o.stop->load(std::memory_order_relaxed)) break;
      }
    }
    if (!batch.empty() && refusal.why.empty()) SB_RETURN_IF_ERROR(handle(batch));
    if (!refusal.why.empty()) {
      SB_RETURN_IF_ERROR(measure());
      run.refused = true;
      run.code = refusal.code;
      run.why = refusal.why;
      return run;
    }
    run.blocks += done;
    const int64_t was = run.after;
    SB_RETURN_IF_ERROR(measure());
    idle_rounds = run.after > was ? 0 : idle_rounds + 1;
    progress("round " + std::to_string(run.rounds) + ": " + verb + " " + std::to_string(done) +
             " blocks, " + std::to_string(run.after) + " extents (target " +
             std::to_string(o.target_extents) + ")");
    if (o.stop != nullptr && o.stop->load(std::memory_order_relaxed)) {
      return Status::Cancelled("io fragment of '" + o.path + "' stopped by a signal at " +
                               std::to_string(run.after) +
                               " extents; every block was written back, the contents are intact");
    }
    if (idle_rounds >= 5) {  // the allocator undoes every change here
      ended = "5 rounds in a row added nothing";
      break;
    }
  }
  if (std::fabs(static_cast<double>(o.target_extents - run.after)) <= slack) ended.clear();
  run.why = std::to_string(run.blocks) + " blocks " + verb + " in " + std::to_string(run.rounds) +
            " round(s)" + (ended.empty() ? "" : "; " + ended);
  return run;
}

}  // namespace sb::fs::internal
