#include "backend/fs/fragment.h"

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

#include "backend/fs/ext4_move_ext.h"

namespace sb::fs {
namespace {

std::string ErrnoText(int err) { return std::error_code(err, std::generic_category()).message(); }

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// Blocks handled per batch: read, punch, write back. A stop is honoured between batches.
constexpr size_t kBatch = 256;

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

// Reads the blocks at `offsets`, punches them out, and writes the same bytes back. A failed
// punch is reported before any block of the batch was touched for the first block, and after
// the punched ones were restored otherwise.
Status RefillBatch(int fd, const std::vector<uint64_t>& offsets, uint64_t block, uint8_t* buf,
                   const std::string& path) {
  for (size_t i = 0; i < offsets.size(); ++i) {
    SB_RETURN_IF_ERROR(ReadFull(fd, buf + i * block, block, offsets[i], path));
  }
  size_t punched = 0;
  Status failure;
  for (; punched < offsets.size(); ++punched) {
    if (::fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                    static_cast<off_t>(offsets[punched]), static_cast<off_t>(block)) != 0) {
      const int err = errno;
      failure = err == EOPNOTSUPP
                    ? Status::FailedPrecondition("the file system of '" + path +
                                                 "' cannot punch holes (fallocate "
                                                 "FALLOC_FL_PUNCH_HOLE), so it cannot be "
                                                 "fragmented this way")
                    : Status::IoError("cannot punch a hole in '" + path + "': " + ErrnoText(err));
      break;
    }
  }
  // Every punched block gets its bytes back, also after a failed punch.
  for (size_t i = 0; i < punched; ++i) {
    SB_RETURN_IF_ERROR(WriteFull(fd, buf + i * block, block, offsets[i], path));
  }
  return failure;
}

// ext4: gives each block at `offsets` a new home without ever punching it: the donor (a sibling
// file, unlinked) gets one preallocated block at the same offset, and EXT4_IOC_MOVE_EXT
// exchanges the two, copying the data. On a busy ext4 volume (the root file system of the VM
// these figures come from) punched blocks were reused in place at once, so punch and refill
// added nothing at sparse spacings (every 2,000th block: 3 extents after 5 rounds) and took 100
// rounds to reach 1,820 of 2,048; the donor's blocks are never the file's neighbours.
// *unsupported is set (and nothing changed) when the first move is refused.
Status MoveBatch(int fd, int donor, const std::vector<uint64_t>& offsets, uint64_t block,
                 const std::string& path, bool* unsupported) {
  for (size_t i = 0; i < offsets.size(); ++i) {
    if (::fallocate(donor, 0, static_cast<off_t>(offsets[i]), static_cast<off_t>(block)) != 0) {
      return Status::IoError("cannot preallocate a block for '" + path + "': " + ErrnoText(errno));
    }
    Ext4MoveExtent me;
    me.donor_fd = static_cast<uint32_t>(donor);
    me.orig_start = offsets[i] / block;
    me.donor_start = offsets[i] / block;
    me.len = 1;
    int rc = ::ioctl(fd, kExt4IocMoveExt, &me);
    // EBUSY: a page of the range is being written back (the previous moves dirtied their pages);
    // e4defrag syncs first too. Synced, the move goes through.
    for (int retry = 0; rc != 0 && errno == EBUSY && retry < 3; ++retry) {
      ::fdatasync(fd);
      ::fdatasync(donor);
      if (retry > 0) ::syncfs(fd);
      me.moved_len = 0;
      rc = ::ioctl(fd, kExt4IocMoveExt, &me);
    }
    // Still busy: this block stays where it is (unchanged); the next round measures and makes
    // up for it.
    if (rc != 0 && errno == EBUSY) continue;
    if (rc != 0) {
      const int err = errno;
      if (i == 0 && (err == EOPNOTSUPP || err == ENOTTY || err == EINVAL)) {
        *unsupported = true;
        return Status::Ok();
      }
      return Status::IoError("EXT4_IOC_MOVE_EXT on '" + path + "' failed: " + ErrnoText(err));
    }
  }
  return Status::Ok();
}

}  // namespace

int64_t MaxFragmentExtents(uint64_t region_bytes, uint64_t block_size) {
  if (block_size == 0) return 0;
  return static_cast<int64_t>(region_bytes / block_size);
}

Result<FragmentResult> FragmentFile(const FragmentOptions& o, const FileSystemInfo& fs,
                                    const std::function<void(const std::string&)>& progress) {
  if (fs.read_only) {
    return Status::FailedPrecondition("'" + o.path + "' is on a read-only mount (" +
                                      fs.mount_point + "), so it cannot be fragmented");
  }
  const uint64_t block = fs.block_size > 0 ? fs.block_size : 4096;
  if (o.region_start % block != 0 || o.region_bytes < 4 * block) {
    return Status::InvalidArgument("the region of '" + o.path + "' to fragment is too small or " +
                                   "not aligned to the file system's " + std::to_string(block) +
                                   "-byte blocks");
  }
  const uint64_t blocks = o.region_bytes / block;
  const int64_t most = MaxFragmentExtents(o.region_bytes, block);
  if (o.target_extents < 1 || o.target_extents > most) {
    return Status::InvalidArgument("--extents " + std::to_string(o.target_extents) +
                                   " is out of reach for '" + o.path + "': its " +
                                   std::to_string(blocks) + " blocks of " + std::to_string(block) +
                                   " bytes allow 1 to " + std::to_string(most) + " extents");
  }
  Fd f;
  f.fd = ::open(o.path.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW);
  if (f.fd < 0) return Status::IoError("cannot open '" + o.path + "': " + ErrnoText(errno));
  auto measure = [&]() -> Result<int64_t> {
    auto s = MeasureOpenFile(f.fd, o.path, fs);
    if (!s.ok()) return s.status();
    return s->extents;
  };
  FragmentResult r;
  const std::string punch_words =
      "punch and refill: blocks spread over the data area are read, punched out "
      "(FALLOC_FL_PUNCH_HOLE) and written back with the same bytes, " +
      std::to_string(kBatch) +
      " per batch, then fdatasync; repeated until FIEMAP counts the target";
  bool move_ext = fs.type == "ext4";
  r.method = move_ext ? "relocation: blocks spread over the data area are moved one by one into "
                        "blocks preallocated in a donor file (EXT4_IOC_MOVE_EXT, the data copied "
                        "by the kernel), then fdatasync; repeated until FIEMAP counts the target"
                      : punch_words;
  auto first = measure();
  if (!first.ok()) return first.status();
  r.before = r.after = *first;
  const double slack = std::max(1.0, o.tolerance * static_cast<double>(o.target_extents));
  if (static_cast<double>(r.after) > static_cast<double>(o.target_extents) + slack) {
    progress("'" + o.path + "' already has " + std::to_string(r.after) + " extents, more than " +
             "the " + std::to_string(o.target_extents) + " asked for; left as it is");
    return r;
  }
  std::unique_ptr<uint8_t, decltype(&std::free)> buf(
      static_cast<uint8_t*>(std::aligned_alloc(4096, kBatch * block)), &std::free);
  int idle_rounds = 0;  // rounds in a row that added nothing
  uint64_t seed = 0x9E3779B97F4A7C15ULL;
  while (r.rounds < o.max_rounds) {
    const int64_t missing = o.target_extents - r.after;
    if (std::fabs(static_cast<double>(missing)) <= slack || missing < 0) break;
    ++r.rounds;
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
      const std::filesystem::path p(o.path);
      const std::string name =
          (p.parent_path() /
           ("." + p.filename().string() + ".storebench-fragment-" + std::to_string(::getpid())))
              .string();
      donor.fd = ::open(name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
      if (donor.fd < 0) {
        return Status::IoError("cannot create a donor file beside '" + o.path +
                               "': " + ErrnoText(errno));
      }
      ::unlink(name.c_str());  // never left behind; its blocks are freed when it is closed
    }
    auto handle = [&](const std::vector<uint64_t>& batch) -> Status {
      if (move_ext) {
        bool unsupported = false;
        SB_RETURN_IF_ERROR(MoveBatch(f.fd, donor.fd, batch, block, o.path, &unsupported));
        if (!unsupported) return Status::Ok();
        progress("EXT4_IOC_MOVE_EXT is refused here; punching and refilling instead");
        move_ext = false;
        r.method = punch_words;
      }
      return RefillBatch(f.fd, batch, block, buf.get(), o.path);
    };
    std::vector<uint64_t> batch;
    uint64_t done = 0;
    for (uint64_t b = phase; b < blocks && done < want; b += stride) {
      batch.push_back(o.region_start + b * block);
      ++done;
      if (batch.size() == kBatch) {
        SB_RETURN_IF_ERROR(handle(batch));
        batch.clear();
        if (o.stop != nullptr && o.stop->load(std::memory_order_relaxed)) break;
      }
    }
    if (!batch.empty()) SB_RETURN_IF_ERROR(handle(batch));
    r.blocks_refilled += done;
    if (::fdatasync(f.fd) != 0) {
      return Status::IoError("fdatasync '" + o.path + "': " + ErrnoText(errno));
    }
    auto now = measure();
    if (!now.ok()) return now.status();
    const int64_t gained = *now - r.after;
    r.after = *now;
    idle_rounds = gained > 0 ? 0 : idle_rounds + 1;
    progress("round " + std::to_string(r.rounds) + ": refilled " + std::to_string(done) +
             " blocks, " + std::to_string(r.after) + " extents (target " +
             std::to_string(o.target_extents) + ")");
    if (idle_rounds >= 5) break;  // the allocator undoes every refill here
    if (o.stop != nullptr && o.stop->load(std::memory_order_relaxed)) {
      return Status::Cancelled("io fragment of '" + o.path + "' stopped by a signal at " +
                               std::to_string(r.after) +
                               " extents; every block was written back, the contents are intact");
    }
  }
  r.reached = std::fabs(static_cast<double>(r.after - o.target_extents)) <= slack;
  return r;
}

}  // namespace sb::fs
