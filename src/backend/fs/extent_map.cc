#include "backend/fs/extent_map.h"

#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/fsmap.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <system_error>

namespace sb::fs {
namespace {

std::string ErrnoText(int err) { return std::error_code(err, std::generic_category()).message(); }

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// mountinfo escapes blanks in paths as \040 (proc(5)).
std::string Unescape(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size()) {
      const std::string oct = s.substr(i + 1, 3);
      if (oct.size() == 3 &&
          std::all_of(oct.begin(), oct.end(), [](char c) { return c >= '0' && c <= '7'; })) {
        out += static_cast<char>(std::strtol(oct.c_str(), nullptr, 8));
        i += 3;
        continue;
      }
    }
    out += s[i];
  }
  return out;
}

uint64_t MaxExtentBytes(const std::string& type, uint64_t block) {
  if (type == "ext4" || type == "ext3" || type == "ext2") return 32768 * block;
  if (type == "xfs") return ((1ULL << 21) - 1) * block;
  if (type == "btrfs") return 128ULL << 20;
  return 0;
}

}  // namespace

Result<FileSystemInfo> DescribeFileSystem(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return Status::NotFound("cannot stat '" + path + "': " + ErrnoText(errno));
  }
  FileSystemInfo fs;
  fs.device = st.st_dev;
  struct statfs sf {};
  if (::statfs(path.c_str(), &sf) == 0) {
    fs.block_size = static_cast<uint64_t>(sf.f_bsize);
    fs.total_bytes = static_cast<uint64_t>(sf.f_blocks) * fs.block_size;
    fs.free_bytes = static_cast<uint64_t>(sf.f_bavail) * fs.block_size;
    fs.used_bytes =
        (static_cast<uint64_t>(sf.f_blocks) - static_cast<uint64_t>(sf.f_bfree)) * fs.block_size;
  }
  struct statvfs sv {};
  if (::statvfs(path.c_str(), &sv) == 0) fs.read_only = (sv.f_flag & ST_RDONLY) != 0;
  // /proc/self/mountinfo: "id parent major:minor root mount-point options ... - type source ..."
  // The last matching line is the mount that is visible (a later mount hides an earlier one).
  std::ifstream in("/proc/self/mountinfo");
  std::string line;
  const std::string want =
      std::to_string(major(st.st_dev)) + ":" + std::to_string(minor(st.st_dev));
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string id, parent, devno, root, mnt;
    if (!(ls >> id >> parent >> devno >> root >> mnt) || devno != want) continue;
    const size_t dash = line.find(" - ");
    if (dash == std::string::npos) continue;
    std::istringstream rest(line.substr(dash + 3));
    std::string type, source;
    rest >> type >> source;
    fs.type = type;
    fs.source = Unescape(source);
    fs.mount_point = Unescape(mnt);
  }
  if (fs.type.empty()) fs.type = "unknown";
  fs.max_extent_bytes = MaxExtentBytes(fs.type, fs.block_size);
  return fs;
}

Result<std::vector<Extent>> ReadExtents(int fd, const std::string& path,
                                        const std::string& fs_type) {
  constexpr uint32_t kBatch = 1024;
  const size_t bytes = sizeof(struct fiemap) + kBatch * sizeof(struct fiemap_extent);
  std::unique_ptr<uint8_t[]> buf(new uint8_t[bytes]);
  auto* fm = reinterpret_cast<struct fiemap*>(buf.get());
  std::vector<Extent> out;
  uint64_t start = 0;
  bool first = true;
  for (;;) {
    std::memset(buf.get(), 0, bytes);
    fm->fm_start = start;
    fm->fm_length = FIEMAP_MAX_OFFSET - start;
    fm->fm_flags = first ? FIEMAP_FLAG_SYNC : 0;
    fm->fm_extent_count = kBatch;
    if (::ioctl(fd, FS_IOC_FIEMAP, fm) != 0) {
      const int err = errno;
      if (err == EOPNOTSUPP || err == ENOTTY || err == EINVAL) {
        std::string m = "the file system of '";
        m.append(path).append("' (").append(fs_type);
        m.append(") does not report extents (no FIEMAP support)");
        return Status::FailedPrecondition(std::move(m));
      }
      return Status::IoError("FIEMAP on '" + path + "' failed: " + ErrnoText(err));
    }
    first = false;
    if (fm->fm_mapped_extents == 0) break;
    bool last = false;
    for (uint32_t i = 0; i < fm->fm_mapped_extents; ++i) {
      const struct fiemap_extent& e = fm->fm_extents[i];
      out.push_back({e.fe_logical, e.fe_physical, e.fe_length, e.fe_flags});
      if ((e.fe_flags & FIEMAP_EXTENT_LAST) != 0) last = true;
    }
    const Extent& tail = out.back();
    if (last || tail.logical + tail.length <= start) break;
    start = tail.logical + tail.length;
  }
  return out;
}

ExtentStats Summarize(const std::vector<Extent>& extents, uint64_t size_bytes,
                      uint64_t max_extent_bytes) {
  ExtentStats s;
  s.size_bytes = size_bytes;
  s.fs_extents = static_cast<int64_t>(extents.size());
  std::vector<uint64_t> runs;  // lengths of physically contiguous runs
  Extent prev;
  for (size_t i = 0; i < extents.size(); ++i) {
    const Extent& e = extents[i];
    s.mapped_bytes += e.length;
    if ((e.flags & FIEMAP_EXTENT_UNWRITTEN) != 0) {
      ++s.unwritten_extents;
      s.unwritten_bytes += e.length;
    }
    if ((e.flags & FIEMAP_EXTENT_SHARED) != 0) {
      ++s.shared_extents;
      s.shared_bytes += e.length;
    }
    if ((e.flags & (FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC | FIEMAP_EXTENT_ENCODED |
                    FIEMAP_EXTENT_DATA_INLINE | FIEMAP_EXTENT_NOT_ALIGNED)) != 0) {
      ++s.other_flagged;
    }
    // It continues the extent when it starts where the previous record ended physically, or
    // keeps the previous record's logical-to-physical offset across a hole (filefrag's two
    // rules); otherwise the head travels from the previous record's end.
    const bool continues = i > 0 && (e.physical == prev.physical + prev.length ||
                                     e.physical - prev.physical == e.logical - prev.logical);
    if (continues) {
      runs.back() += e.length;
    } else {
      if (i > 0) {
        ++s.discontinuities;
        const uint64_t end = prev.physical + prev.length;
        s.seek_bytes += e.physical > end ? e.physical - end : end - e.physical;
      }
      runs.push_back(e.length);
    }
    prev = e;
  }
  s.extents = static_cast<int64_t>(runs.size());
  if (!runs.empty()) {
    s.min_extent_bytes = *std::min_element(runs.begin(), runs.end());
    s.max_extent_bytes = *std::max_element(runs.begin(), runs.end());
    s.mean_extent_bytes = s.mapped_bytes / runs.size();
  }
  if (s.mapped_bytes > 0) {
    s.min_records =
        max_extent_bytes > 0
            ? static_cast<int64_t>((s.mapped_bytes + max_extent_bytes - 1) / max_extent_bytes)
            : 1;
  }
  return s;
}

Result<ExtentStats> MeasureOpenFile(int fd, const std::string& path, const FileSystemInfo& fs) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    return Status::IoError("cannot stat '" + path + "': " + ErrnoText(errno));
  }
  if (!S_ISREG(st.st_mode)) {
    return Status::InvalidArgument("'" + path + "' is not a regular file");
  }
  auto extents = ReadExtents(fd, path, fs.type);
  if (!extents.ok()) return extents.status();
  return Summarize(*extents, static_cast<uint64_t>(st.st_size), fs.max_extent_bytes);
}

Result<ExtentStats> MeasureFile(const std::string& path, const FileSystemInfo& fs) {
  Fd f;
  // O_NONBLOCK: a FIFO must not hold the open; fstat then refuses it.
  f.fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
  if (f.fd < 0 && errno == ELOOP) f.fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (f.fd < 0) return Status::NotFound("cannot open '" + path + "': " + ErrnoText(errno));
  return MeasureOpenFile(f.fd, path, fs);
}

FreeSpace MeasureFreeSpace(const std::string& path) {
  FreeSpace fsp;
  Fd f;
  f.fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (f.fd < 0) {
    fsp.why_not = "cannot open " + path + ": " + ErrnoText(errno);
    return fsp;
  }
  constexpr uint32_t kBatch = 1024;
  const size_t bytes = sizeof(struct fsmap_head) + kBatch * sizeof(struct fsmap);
  std::unique_ptr<uint8_t[]> buf(new uint8_t[bytes]);
  auto* head = reinterpret_cast<struct fsmap_head*>(buf.get());
  std::memset(buf.get(), 0, bytes);
  // Low key all zero, high key all ones: the whole device.
  head->fmh_keys[1].fmr_device = UINT_MAX;
  head->fmh_keys[1].fmr_flags = UINT_MAX;
  head->fmh_keys[1].fmr_physical = ULLONG_MAX;
  head->fmh_keys[1].fmr_owner = ULLONG_MAX;
  head->fmh_keys[1].fmr_offset = ULLONG_MAX;
  head->fmh_count = kBatch;
  uint64_t prev_end = 0, run = 0;
  bool have_prev = false;
  for (;;) {
    if (::ioctl(f.fd, FS_IOC_GETFSMAP, head) != 0) {
      const int err = errno;
      fsp.why_not =
          err == EPERM
              ? "reading the free-space map (GETFSMAP) needs CAP_SYS_ADMIN"
              : "the file system does not expose its free-space map (GETFSMAP: " + ErrnoText(err) +
                    ")";
      return fsp;
    }
    if (head->fmh_entries == 0) break;
    bool last = false;
    for (uint32_t i = 0; i < head->fmh_entries; ++i) {
      const struct fsmap& r = head->fmh_recs[i];
      if ((r.fmr_flags & FMR_OF_LAST) != 0) last = true;
      if ((r.fmr_flags & FMR_OF_SPECIAL_OWNER) == 0 || r.fmr_owner != FMR_OWN_FREE) {
        have_prev = false;
        continue;
      }
      // Free records that touch (ext4 reports free space per block group) are one free extent.
      if (have_prev && r.fmr_physical == prev_end) {
        run += r.fmr_length;
      } else {
        ++fsp.free_extents;
        run = r.fmr_length;
      }
      fsp.free_bytes += r.fmr_length;
      fsp.largest_free_bytes = std::max(fsp.largest_free_bytes, run);
      prev_end = r.fmr_physical + r.fmr_length;
      have_prev = true;
    }
    if (last) break;
    // Continue after the last record returned (fsmap_advance in xfsprogs does the same).
    head->fmh_keys[0] = head->fmh_recs[head->fmh_entries - 1];
  }
  fsp.available = true;
  return fsp;
}

}  // namespace sb::fs
