// copy (fragment.h): the file copied into a new one with a spare block at every cut point, the
// spare blocks collapsed out, the copy renamed over the original.
//
// Why collapsing: writing a copy in an interleaved order does not fragment it on ext4 (delayed
// allocation and per-file preallocation gather the blocks: docs/storage.md), but
// FALLOC_FL_COLLAPSE_RANGE (fallocate(2)) removes a range from a file and shifts the data after
// it down without moving any block on disk, so the blocks on either side of a collapsed spare
// block are no longer neighbours: one more extent per cut, whatever the allocator did. The file
// system's own splits of the copy (free space in pieces) come on top, so the copy is measured and
// made again with fewer or more cuts when it missed the target (at most three copies).
#include <fcntl.h>
#include <linux/falloc.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "backend/fs/fragment_internal.h"
#include "backend/fs/move_ext.h"
#include "backend/fs/replace_file.h"

namespace sb::fs::internal {
namespace {

constexpr size_t kChunk = 1 << 20;
constexpr int kMaxCopies = 3;

// `cuts` offsets spread evenly over the region's `blocks` blocks, each a block boundary strictly
// inside it (cuts < blocks, so they are distinct and increasing).
std::vector<uint64_t> CutPoints(uint64_t region_start, uint64_t blocks, uint64_t block,
                                uint64_t cuts) {
  std::vector<uint64_t> at;
  at.reserve(cuts);
  for (uint64_t j = 1; j <= cuts; ++j) at.push_back(region_start + j * blocks / (cuts + 1) * block);
  return at;
}

// One copy: its extent count, or why the file system would not make it.
struct Copy {
  std::string refused;  // empty: made
  StatusCode code = StatusCode::kIoError;
  int64_t extents = 0;
};

// Writes the `size` bytes of `src` into `dst` with a zero block before each cut point, syncs,
// collapses the spare blocks out (from the first: each collapse then shifts only the copy's
// still unsplit rest), syncs and measures. An error return is a failure to read the original or
// a stop; anything the file system refuses is a Copy with `refused` set.
Result<Copy> MakeCopy(int src, int dst, uint64_t size, const std::vector<uint64_t>& cuts,
                      uint64_t block, const FragmentOptions& o, const FileSystemInfo& fs,
                      const std::string& tmp, uint8_t* buf) {
  Copy c;
  auto stopped = [&] {
    return o.stop != nullptr && o.stop->load(std::memory_order_relaxed)
               ? Status::Cancelled("io fragment of '" + o.path +
                                   "' stopped by a signal during the copy; the original is "
                                   "untouched and the copy removed")
               : Status::Ok();
  };
  std::memset(buf, 0, block);  // the spare block; the data goes through the rest of buf
  uint64_t pos = 0;
  size_t j = 0;
  while (pos < size) {
    SB_RETURN_IF_ERROR(stopped());
    uint64_t end = std::min<uint64_t>(pos + kChunk, size);
    if (j < cuts.size()) end = std::min(end, cuts[j]);
    if (j < cuts.size() && pos == cuts[j]) {
      if (Status s = WriteFull(dst, buf, block, pos + j * block, tmp); !s.ok()) {
        c.refused = "cannot write the copy: " + s.message();
        return c;
      }
      ++j;
      continue;
    }
    const size_t n = static_cast<size_t>(end - pos);
    SB_RETURN_IF_ERROR(ReadFull(src, buf + block, n, pos, o.path));
    if (Status s = WriteFull(dst, buf + block, n, pos + j * block, tmp); !s.ok()) {
      c.refused = "cannot write the copy: " + s.message();
      return c;
    }
    pos = end;
  }
  if (::fsync(dst) != 0) {
    c.refused = "fsync of the copy failed: " + ErrnoText(errno);
    return c;
  }
  for (size_t k = 0; k < cuts.size(); ++k) {
    if (k % 256 == 0) SB_RETURN_IF_ERROR(stopped());
    if (::fallocate(dst, FALLOC_FL_COLLAPSE_RANGE, static_cast<off_t>(cuts[k]),
                    static_cast<off_t>(block)) != 0) {
      const int err = errno;
      c.code = err == EOPNOTSUPP ? StatusCode::kFailedPrecondition : StatusCode::kIoError;
      c.refused = (err == EOPNOTSUPP ? "the file system cannot collapse a range of a file "
                                     : "collapsing a spare block out of the copy was refused ") +
                  std::string("(fallocate FALLOC_FL_COLLAPSE_RANGE: ") + ErrnoText(err) + ", " +
                  ErrnoName(err) + ")";
      return c;
    }
  }
  if (::fsync(dst) != 0) {
    c.refused = "fsync of the copy failed: " + ErrnoText(errno);
    return c;
  }
  struct stat st {};
  if (::fstat(dst, &st) != 0 || static_cast<uint64_t>(st.st_size) != size) {
    c.refused = "the copy has " + std::to_string(st.st_size) + " bytes, not the original's " +
                std::to_string(size);
    return c;
  }
  auto stats = MeasureOpenFile(dst, tmp, fs);
  if (!stats.ok()) return stats.status();
  c.extents = stats->extents;
  return c;
}

}  // namespace

Result<MethodRun> FragmentByCopy(const FragmentOptions& o, const FileSystemInfo& fs,
                                 int64_t extents, const ProgressFn& progress) {
  const uint64_t block = fs.block_size > 0 ? fs.block_size : 4096;
  const uint64_t blocks = o.region_bytes / block;
  const double slack = Slack(o);
  MethodRun run;
  run.after = extents;
  const int src = ::open(o.path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (src < 0) return Status::IoError("cannot open '" + o.path + "': " + ErrnoText(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } src_closer{src};
  struct stat st {};
  if (::fstat(src, &st) != 0) return Status::IoError("cannot stat '" + o.path + "'");
  const auto size = static_cast<uint64_t>(st.st_size);
  std::unique_ptr<uint8_t, decltype(&std::free)> buf(
      static_cast<uint8_t*>(std::aligned_alloc(4096, kChunk + block)), &std::free);
  const int64_t target = o.target_extents;
  auto clamp_cuts = [&](int64_t n) {
    return static_cast<uint64_t>(std::clamp<int64_t>(n, 0, static_cast<int64_t>(blocks) - 1));
  };
  uint64_t cuts = clamp_cuts(target - 1);
  std::string made;  // the counts of the copies so far
  for (int attempt = 1; attempt <= kMaxCopies; ++attempt) {
    const std::string tmp = SiblingName(o.path, "fragcopy");
    const int dst = ::open(tmp.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (dst < 0) {
      run.refused = true;
      run.why = "cannot create the copy " + tmp + ": " + ErrnoText(errno);
      return run;
    }
    bool keep = false;
    struct Cleanup {
      int fd;
      const std::string& name;
      const bool& keep;
      ~Cleanup() {
        ::close(fd);
        if (!keep) ::unlink(name.c_str());
      }
    } cleanup{dst, tmp, keep};
    auto copy = MakeCopy(src, dst, size, CutPoints(o.region_start, blocks, block, cuts), block, o,
                         fs, tmp, buf.get());
    if (!copy.ok()) return copy.status();
    if (!copy->refused.empty()) {
      run.refused = true;
      run.code = copy->code;
      run.why = copy->refused + "; the original is untouched";
      return run;
    }
    const int64_t got = copy->extents;
    run.rounds = attempt;
    made += (made.empty() ? "" : ", ") + std::to_string(got);
    progress("copy " + std::to_string(attempt) + ": " + std::to_string(cuts) +
             " spare blocks cut out, " + std::to_string(got) + " extents (target " +
             std::to_string(target) + ")");
    const bool within = std::fabs(static_cast<double>(got - target)) <= slack;
    if (!within && attempt < kMaxCopies) {
      // The file system split the copy where no cut was (or a cut fell on its own split):
      // the next copy gets as many cuts fewer or more.
      cuts = clamp_cuts(static_cast<int64_t>(cuts) + target - got);
      continue;
    }
    if (!within && std::llabs(got - target) >= std::llabs(extents - target)) {
      run.why = std::to_string(attempt) + " copies came out at " + made +
                " extents, no closer to the target than the file; the file is kept as it was";
      return run;
    }
    if (Status s = ReplaceWithCopy(dst, tmp, o.path, st, &run.new_lock); !s.ok()) {
      run.refused = true;
      run.why = s.message() + "; the original is untouched";
      return run;
    }
    keep = true;
    run.after = got;
    run.blocks = cuts;
    run.why = "copied " + std::to_string(size) + " bytes into a new file with " +
              std::to_string(cuts) + " spare blocks, cut them out (FALLOC_FL_COLLAPSE_RANGE), " +
              "renamed it over the file" +
              (attempt > 1
                   ? " (copy " + std::to_string(attempt) + "; the copies had " + made + " extents)"
                   : "");
    return run;
  }
  return run;  // not reached: the last copy returns above
}

}  // namespace sb::fs::internal
