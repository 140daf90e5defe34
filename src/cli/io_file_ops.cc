// storebench io copy|read|churn: timed file operations, as a fragmentation guide times them
// (copy a large file, read one), and a workload that fragments a volume the way several
// databases loading at once do.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "backend/fs/extent_map.h"
#include "base/clock.h"
#include "base/random.h"
#include "base/strings.h"
#include "base/units.h"
#include "cli/app.h"
#include "cli/io_fs_commands.h"
#include "cli/io_fs_internal.h"
#include "cli/result_path.h"
#include "report/json_report.h"

namespace sb::cli {
namespace {

std::string ErrnoText(int err) { return std::error_code(err, std::generic_category()).message(); }

struct Fd {
  int fd = -1;
  Fd() = default;
  explicit Fd(int f) : fd(f) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

using Buffer = std::unique_ptr<uint8_t, decltype(&std::free)>;
Buffer AlignedBuffer(size_t n) {
  return Buffer(static_cast<uint8_t*>(std::aligned_alloc(4096, n)), &std::free);
}

// Pages of `fd` (size `size`) in the page cache, from mincore(2).
int64_t CachedPages(int fd, uint64_t size) {
  if (size == 0) return 0;
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) return -1;
  const auto page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> vec((size + page - 1) / page);
  int64_t n = -1;
  if (::mincore(map, size, vec.data()) == 0) {
    n = std::count_if(vec.begin(), vec.end(), [](unsigned char c) { return (c & 1) != 0; });
  }
  ::munmap(map, size);
  return n;
}

// Empties the cache the way --drop_caches asks and says what happened, in words for the result.
std::string DropCaches(const std::string& how, const std::vector<std::string>& files) {
  if (how == "none") return "caches not dropped (--drop_caches none)";
  if (how == "system") {
    ::sync();
    std::ofstream f("/proc/sys/vm/drop_caches");
    f << "3\n";
    f.flush();
    if (f) return "page cache, dentries and inodes dropped (/proc/sys/vm/drop_caches = 3)";
    return "caches NOT dropped: writing /proc/sys/vm/drop_caches was not permitted (needs root "
           "outside a container); the figures may include cached data";
  }
  std::string words;
  for (const std::string& path : files) {
    Fd f(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (f.fd < 0) continue;
    struct stat st {};
    ::fstat(f.fd, &st);
    ::fdatasync(f.fd);  // dirty pages cannot be dropped
    const int rc = ::posix_fadvise(f.fd, 0, 0, POSIX_FADV_DONTNEED);
    const int64_t left = CachedPages(f.fd, static_cast<uint64_t>(st.st_size));
    words += (words.empty() ? "" : "; ") + path + ": ";
    if (rc != 0) {
      words += "cache NOT dropped (posix_fadvise: " + ErrnoText(rc) + ")";
    } else {
      words +=
          "cached pages dropped (posix_fadvise DONTNEED), " +
          (left < 0 ? std::string("residency unknown") : std::to_string(left) + " still cached");
    }
  }
  return words;
}

// Opens with O_DIRECT when asked; falls back to buffered (said in *how) when the file system
// refuses it.
int OpenMaybeDirect(const std::string& path, int flags, bool direct, std::string* how,
                    mode_t mode = 0) {
  if (direct) {
    const int fd = ::open(path.c_str(), flags | O_DIRECT | O_CLOEXEC, mode);
    if (fd >= 0 || errno != EINVAL) {
      *how = "O_DIRECT";
      return fd;
    }
    *how = "buffered (the file system refused O_DIRECT)";
  } else {
    *how = "buffered";
  }
  return ::open(path.c_str(), flags | O_CLOEXEC, mode);
}

Result<uint64_t> BlockSize(const config::OptionSet& o) {
  auto b = ParseBytes(o.GetString("block_size"));
  if (!b.ok()) return b.status();
  if (*b < 4096 || *b % 4096 != 0 || *b > (256u << 20)) {
    return Status::InvalidArgument("block_size must be a multiple of 4 KiB up to 256 MiB");
  }
  return *b;
}

int64_t Extents(const std::string& path, std::string* fs_type) {
  const TargetExtents t = MeasureTargetExtents(path);
  *fs_type = t.filesystem;
  return t.extents;
}

metrics::RunResult FileOpResult(const std::string& workload, double seconds, uint64_t bytes) {
  metrics::RunResult r;
  r.workload = workload;
  r.measured_sec = seconds;
  const double mib = seconds > 0 ? static_cast<double>(bytes) / seconds / 1048576.0 : 0;
  r.headline_name = "mib_per_sec";
  r.headline_value = mib;
  r.headlines = {{"mib_per_sec", mib}};
  r.loop_model = "one sequential pass, one thread, one I/O at a time";
  r.figures = {{"seconds", seconds},
               {"bytes", static_cast<double>(bytes)},
               {"mib_per_sec", mib},
               {"mb_per_sec", seconds > 0 ? static_cast<double>(bytes) / seconds / 1e6 : 0}};
  return r;
}

int WriteResult(const config::OptionSet& o, metrics::RunResult* r, const std::string& ext) {
  r->config_json = o.ToJson();
  const std::string path = ResultPath(o.GetString("json"), ext);
  if (Status s = report::WriteResultFile(path, *r); !s.ok()) return Fail(s);
  Progress("result written to " + path);
  return kExitOk;
}

}  // namespace

int ReadFile(const config::OptionSet& o, const std::vector<std::string>& operands) {
  if (operands.size() != 1) return Fail(Status::InvalidArgument("io read needs one PATH"));
  const std::string& path = operands[0];
  auto block = BlockSize(o);
  if (!block.ok()) return Fail(block.status());
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return Fail(Status::InvalidArgument("'" + path + "' is not a readable regular file"));
  }
  std::string fs_type;
  const int64_t extents = Extents(path, &fs_type);
  const std::string cache = DropCaches(o.GetString("drop_caches"), {path});
  std::string how;
  Fd f(OpenMaybeDirect(path, O_RDONLY, o.GetBool("direct"), &how));
  if (f.fd < 0) return Fail(Status::IoError("cannot open '" + path + "': " + ErrnoText(errno)));
  Buffer buf = AlignedBuffer(*block);
  const auto* stop = InstallStopHandlers();
  uint64_t total = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (;;) {
    if (stop->load(std::memory_order_relaxed)) {
      return Fail(Status::Cancelled("io read stopped by a signal"));
    }
    const ssize_t n = ::pread(f.fd, buf.get(), *block, static_cast<off_t>(total));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Fail(Status::IoError("cannot read '" + path + "': " + ErrnoText(errno)));
    if (n == 0) break;
    total += static_cast<uint64_t>(n);
  }
  const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  metrics::RunResult r = FileOpResult("file_read", sec, total);
  r.started_at = r.ended_at = WallClockIsoUtc();
  r.figures.emplace_back("extents", static_cast<double>(extents));
  r.choices["file_op.file"] = path;
  r.choices["file_op.method"] = how + ", " + FormatBytesShort(*block) + " reads, sequential";
  r.choices["file_op.cache"] = cache;
  r.environment = CollectEnvironment(path);
  std::printf("read %s: %llu bytes in %.3f s, %.1f MiB/s (%.1f MB/s), %s, %s extents (%s)\n  %s\n",
              EscapeForTerminal(path).c_str(), static_cast<unsigned long long>(total), sec,
              r.headline_value, r.figures[3].second, how.c_str(),
              extents < 0 ? "unknown" : std::to_string(extents).c_str(), fs_type.c_str(),
              EscapeForTerminal(cache).c_str());
  std::fflush(stdout);
  return WriteResult(o, &r, "-read.json");
}

int CopyFile(const config::OptionSet& o, const std::vector<std::string>& operands) {
  if (operands.size() != 2) return Fail(Status::InvalidArgument("io copy needs SRC and DST"));
  const std::string &src = operands[0], &dst = operands[1];
  auto block = BlockSize(o);
  if (!block.ok()) return Fail(block.status());
  struct stat st {};
  if (::stat(src.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return Fail(Status::InvalidArgument("'" + src + "' is not a readable regular file"));
  }
  if (::lstat(dst.c_str(), &st) == 0) {
    return Fail(Status::AlreadyExists("'" + dst +
                                      "' exists; io copy writes only a new file (remove it or "
                                      "choose another name)"));
  }
  std::string fs_type;
  const int64_t src_extents = Extents(src, &fs_type);
  const std::string cache = DropCaches(o.GetString("drop_caches"), {src});
  std::string how_in, how_out;
  Fd in(OpenMaybeDirect(src, O_RDONLY, o.GetBool("direct"), &how_in));
  if (in.fd < 0) return Fail(Status::IoError("cannot open '" + src + "': " + ErrnoText(errno)));
  Fd out(OpenMaybeDirect(dst, O_WRONLY | O_CREAT | O_EXCL, o.GetBool("direct"), &how_out, 0644));
  if (out.fd < 0) {
    return Fail(Status::IoError("cannot create '" + dst + "': " + ErrnoText(errno)));
  }
  // A failed or stopped copy leaves no partial DST behind.
  bool done = false;
  struct RemoveUnlessDone {
    const std::string& path;
    const bool& done;
    ~RemoveUnlessDone() {
      if (!done) ::unlink(path.c_str());
    }
  } guard{dst, done};
  Buffer buf = AlignedBuffer(*block);
  const auto* stop = InstallStopHandlers();
  uint64_t total = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (;;) {
    if (stop->load(std::memory_order_relaxed)) {
      return Fail(Status::Cancelled("io copy stopped by a signal; the partial copy was removed"));
    }
    const ssize_t n = ::pread(in.fd, buf.get(), *block, static_cast<off_t>(total));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Fail(Status::IoError("cannot read '" + src + "': " + ErrnoText(errno)));
    if (n == 0) break;
    auto len = static_cast<size_t>(n);
    if (len % 4096 != 0) {
      // The unaligned tail of the file goes through the page cache (O_DIRECT needs aligned sizes).
      ::fcntl(out.fd, F_SETFL, ::fcntl(out.fd, F_GETFL) & ~O_DIRECT);
    }
    for (size_t w = 0; w < len;) {
      const ssize_t k = ::pwrite(out.fd, buf.get() + w, len - w, static_cast<off_t>(total + w));
      if (k < 0 && errno == EINTR) continue;
      if (k <= 0) {
        return Fail(Status::IoError("cannot write '" + dst + "': " + ErrnoText(errno) +
                                    "; the partial copy was removed"));
      }
      w += static_cast<size_t>(k);
    }
    total += len;
  }
  if (::fsync(out.fd) != 0) {
    return Fail(Status::IoError("fsync '" + dst + "': " + ErrnoText(errno)));
  }
  const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  done = true;
  std::string dst_fs;
  const int64_t dst_extents = Extents(dst, &dst_fs);
  metrics::RunResult r = FileOpResult("file_copy", sec, total);
  r.started_at = r.ended_at = WallClockIsoUtc();
  r.figures.emplace_back("src_extents", static_cast<double>(src_extents));
  r.figures.emplace_back("dst_extents", static_cast<double>(dst_extents));
  r.choices["file_op.file"] = src + " -> " + dst;
  r.choices["file_op.method"] = "read " + how_in + ", write " + how_out + ", " +
                                FormatBytesShort(*block) +
                                " transfers, sequential; the time includes the fsync of DST";
  r.choices["file_op.cache"] = cache;
  r.environment = CollectEnvironment(dst);
  std::printf(
      "copy %s -> %s: %llu bytes in %.3f s, %.1f MiB/s (%.1f MB/s), extents %lld -> %lld\n"
      "  %s\n",
      EscapeForTerminal(src).c_str(), EscapeForTerminal(dst).c_str(),
      static_cast<unsigned long long>(total), sec, r.headline_value, r.figures[3].second,
      static_cast<long long>(src_extents), static_cast<long long>(dst_extents),
      EscapeForTerminal(cache).c_str());
  std::fflush(stdout);
  return WriteResult(o, &r, "-copy.json");
}

}  // namespace sb::cli
