#include "backend/fs/defrag.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <thread>

#include "backend/fs/move_ext.h"
#include "backend/fs/replace_file.h"

extern char** environ;

namespace sb::fs {
namespace {

std::string ErrnoText(int err) { return std::error_code(err, std::generic_category()).message(); }

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// The caller's clock (DefragOptions::clock) in nanoseconds, 0 without one.
int64_t Now(const Clock* clock) { return clock != nullptr ? clock->NowNanos() : 0; }

double SecondsSince(const Clock* clock, int64_t t0) {
  return static_cast<double>(Now(clock) - t0) / 1e9;
}

// EXT4_IOC_MOVE_EXT over the whole file into a donor preallocated in one go.
DefragAttempt MoveExt(const std::string& path, const FileSystemInfo& fs, int64_t before,
                      const MoveExtCall& call) {
  DefragAttempt a;
  a.method = "EXT4_IOC_MOVE_EXT";
  Fd orig;
  orig.fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW);
  if (orig.fd < 0) {
    a.outcome = "cannot open the file for writing: " + ErrnoText(errno);
    return a;
  }
  struct stat st {};
  ::fstat(orig.fd, &st);
  const uint64_t block = fs.block_size > 0 ? fs.block_size : 4096;
  const uint64_t blocks = (static_cast<uint64_t>(st.st_size) + block - 1) / block;
  const std::string donor_path = SiblingName(path, "donor");
  Fd donor;
  donor.fd = ::open(donor_path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (donor.fd < 0) {
    a.outcome = "cannot create the donor file " + donor_path + ": " + ErrnoText(errno);
    return a;
  }
  // Unlinked at once (as e4defrag does): it can never be left behind.
  ::unlink(donor_path.c_str());
  if (::fallocate(donor.fd, 0, 0, static_cast<off_t>(blocks * block)) != 0) {
    a.outcome = "cannot preallocate the donor file: " + ErrnoText(errno);
    return a;
  }
  a.ran = true;
  // As e4defrag does: moving into a donor no better laid out than the file only shuffles it (a
  // 16-extent file on this VM's busy root file system got a 32-extent donor and came out with 25).
  auto donor_stats = MeasureOpenFile(donor.fd, donor_path, fs);
  if (donor_stats.ok()) {
    a.outcome = "donor has " + std::to_string(donor_stats->extents) + " extents; ";
    if (donor_stats->extents >= before) {
      a.outcome += "not fewer than the file's " + std::to_string(before) +
                   " (free space too fragmented), nothing moved";
      return a;
    }
  }
  // Moved record by record of the file's own map, as e4defrag does: the kernel skips holes and
  // counts only the blocks it moved, so a range spanning a hole (the test file's header is one)
  // cannot be resumed from moved_len. Pieces are at most one maximum-length extent.
  auto map = ReadExtents(orig.fd, path, fs.type);
  if (!map.ok()) {
    a.outcome += "cannot read the extent map: " + map.status().message();
    return a;
  }
  const uint64_t piece = fs.max_extent_bytes > 0 ? fs.max_extent_bytes / block : 32768;
  uint64_t moved = 0;
  for (const Extent& e : *map) {
    uint64_t pos = e.logical / block;
    const uint64_t end = (e.logical + e.length + block - 1) / block;
    int busy = 0;
    while (pos < end) {
      Ext4MoveExtent me;
      me.donor_fd = static_cast<uint32_t>(donor.fd);
      me.orig_start = pos;
      me.donor_start = pos;
      me.len = std::min(piece, end - pos);
      const int rc = CallMoveExt(call, orig.fd, &me);
      const MoveExtFailure failure = rc != 0 ? JudgeMoveExtFailure(errno) : MoveExtFailure{};
      // Within one record there are no holes: moved_len is how far it got.
      pos += me.moved_len;
      moved += me.moved_len;
      if (rc == 0 && me.moved_len > 0) continue;
      // EBUSY: a page of the range still belongs to the running journal transaction (recently
      // written; data=ordered) and cannot be released. A file system sync commits it; fsync of
      // the file alone was not enough here (e4defrag gives up at this point).
      if (rc != 0 && failure.retry && ++busy <= 5) {
        ::fsync(orig.fd);
        ::syncfs(orig.fd);
        std::this_thread::sleep_for(std::chrono::milliseconds(20 * busy));
        continue;
      }
      a.refused = rc != 0 && !failure.retry;
      a.outcome += rc != 0 ? failure.why + " at block " + std::to_string(pos) + " of " +
                                 std::to_string(blocks)
                           : "the ioctl moved nothing at block " + std::to_string(pos);
      return a;
    }
  }
  if (::fsync(orig.fd) != 0) {
    a.outcome += "fsync failed: " + ErrnoText(errno);
    return a;
  }
  a.ok = true;
  a.outcome += "moved " + std::to_string(moved) + " blocks";
  return a;
}

// Runs argv (no shell), returning the exit status (-1 when it could not start, 128+signal when
// killed) and up to 4 KiB of its combined output.
int RunTool(const std::vector<std::string>& argv, std::string* output) {
  int pipefd[2];
  if (::pipe2(pipefd, O_CLOEXEC) != 0) {
    *output = "pipe: " + ErrnoText(errno);
    return -1;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
  posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const auto& s : argv) args.push_back(const_cast<char*>(s.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  ::close(pipefd[1]);
  if (rc != 0) {
    ::close(pipefd[0]);
    *output = argv[0] + " could not be started: " + ErrnoText(rc);
    return -1;
  }
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(pipefd[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (output->size() < 4096) output->append(buf, static_cast<size_t>(n));
  }
  ::close(pipefd[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

std::string OneLine(std::string s) {
  for (char& c : s) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  while (!s.empty() && s.back() == ' ') s.pop_back();
  if (s.size() > 300) s = s.substr(0, 300) + "...";
  return s;
}

DefragAttempt XfsFsr(const std::string& path) {
  DefragAttempt a;
  a.method = "xfs_fsr";
  std::string out;
  const int rc = RunTool({"xfs_fsr", "-v", path}, &out);
  if (rc == -1) {
    a.outcome = OneLine(out) + " (install xfsprogs)";
    return a;
  }
  a.ran = true;
  a.ok = rc == 0;
  a.outcome = "xfs_fsr exited " + std::to_string(rc) + (out.empty() ? "" : ": " + OneLine(out));
  return a;
}

// Copies `path` into a fully preallocated sibling, syncs it, and renames it over `path`. The
// original is untouched until the rename; on any failure the copy is removed.
DefragAttempt CopyRename(const std::string& path, const FileSystemInfo& fs, int64_t before,
                         const std::atomic<bool>* stop, std::unique_ptr<FileLock>* new_lock,
                         Status* hard_error) {
  DefragAttempt a;
  a.method = "copy_rename";
  a.ran = true;
  Fd src;
  src.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (src.fd < 0) {
    a.outcome = "cannot open the file: " + ErrnoText(errno);
    return a;
  }
  struct stat st {};
  ::fstat(src.fd, &st);
  const std::string tmp = SiblingName(path, "copy");
  Fd dst;
  dst.fd = ::open(tmp.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (dst.fd < 0) {
    a.outcome = "cannot create the copy " + tmp + ": " + ErrnoText(errno);
    return a;
  }
  bool keep = false;
  struct Cleanup {
    const std::string& name;
    bool& keep;
    ~Cleanup() {
      if (!keep) ::unlink(name.c_str());
    }
  } cleanup{tmp, keep};
  const auto size = static_cast<uint64_t>(st.st_size);
  std::string how = "preallocated with fallocate";
  if (size > 0 && ::fallocate(dst.fd, 0, 0, static_cast<off_t>(size)) != 0) {
    if (errno == ENOSPC) {
      a.outcome = "not enough free space for a copy of " + std::to_string(size) + " bytes";
      return a;
    }
    how = "written without preallocation (fallocate: " + ErrnoText(errno) + ")";
  }
  constexpr size_t kChunk = 1 << 20;
  std::unique_ptr<uint8_t, decltype(&std::free)> buf(
      static_cast<uint8_t*>(std::aligned_alloc(4096, kChunk)), &std::free);
  for (uint64_t off = 0; off < size;) {
    if (stop != nullptr && stop->load(std::memory_order_relaxed)) {
      *hard_error = Status::Cancelled("io defrag of '" + path +
                                      "' stopped by a signal during the copy; the original is "
                                      "untouched and the copy removed");
      return a;
    }
    const ssize_t n = ::pread(src.fd, buf.get(), kChunk, static_cast<off_t>(off));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      *hard_error = Status::IoError("cannot read '" + path + "' for the copy: " +
                                    (n == 0 ? std::string("unexpected end") : ErrnoText(errno)) +
                                    "; the original is untouched");
      return a;
    }
    for (ssize_t done = 0; done < n;) {
      const ssize_t w = ::pwrite(dst.fd, buf.get() + done, static_cast<size_t>(n - done),
                                 static_cast<off_t>(off + static_cast<uint64_t>(done)));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        *hard_error = Status::IoError("cannot write the copy " + tmp + ": " + ErrnoText(errno) +
                                      "; the original is untouched");
        return a;
      }
      done += w;
    }
    off += static_cast<uint64_t>(n);
  }
  if (::fsync(dst.fd) != 0) {
    *hard_error = Status::IoError("fsync of the copy failed: " + ErrnoText(errno) +
                                  "; the original is untouched");
    return a;
  }
  auto copy_stats = MeasureOpenFile(dst.fd, tmp, fs);
  if (!copy_stats.ok()) {
    a.outcome = "cannot measure the copy: " + copy_stats.status().message();
    return a;
  }
  if (copy_stats->extents >= before) {
    a.after = before;
    a.outcome = "the copy has " + std::to_string(copy_stats->extents) +
                " extents, not fewer than the original's " + std::to_string(before) +
                " (free space too fragmented); the original is kept";
    return a;
  }
  if (Status s = ReplaceWithCopy(dst.fd, tmp, path, st, new_lock); !s.ok()) {
    // A copy that cannot be locked is given up; a failed rename is an error. Either way the
    // original is untouched and the copy removed.
    if (s.code() == StatusCode::kFailedPrecondition) {
      a.outcome = s.message();
    } else {
      *hard_error = Status::IoError(s.message() + "; the original is untouched");
    }
    return a;
  }
  keep = true;
  a.ok = true;
  a.outcome = "copied " + std::to_string(size) + " bytes into a new file (" + how +
              "), synced, renamed over the original";
  return a;
}

}  // namespace

std::string OnlineDefragMethod(const std::string& fs_type) {
  if (fs_type == "ext4") return "EXT4_IOC_MOVE_EXT";
  if (fs_type == "xfs") return "xfs_fsr";
  return "";
}

Result<DefragResult> DefragFile(const DefragOptions& o, const FileSystemInfo& fs,
                                const std::function<void(const std::string&)>& progress) {
  if (fs.read_only) {
    return Status::FailedPrecondition("'" + o.path + "' is on a read-only mount (" +
                                      fs.mount_point + "), so it cannot be defragmented");
  }
  auto first = MeasureFile(o.path, fs);
  if (!first.ok()) return first.status();
  DefragResult r;
  r.before = r.after = first->extents;
  if (first->extents <= 1) {
    progress("'" + o.path + "' is in one extent already; nothing to do");
    return r;
  }
  auto remeasure = [&](DefragAttempt* a) -> Status {
    auto s = MeasureFile(o.path, fs);
    if (!s.ok()) return s.status();
    a->after = s->extents;
    r.after = s->extents;
    return Status::Ok();
  };
  if (o.method != DefragMethod::kCopy) {
    const std::string online = OnlineDefragMethod(fs.type);
    DefragAttempt a;
    const int64_t t0 = Now(o.clock);
    if (online == "EXT4_IOC_MOVE_EXT") {
      a = MoveExt(o.path, fs, r.after, o.move_ext_call);
    } else if (online == "xfs_fsr") {
      a = XfsFsr(o.path);
    } else {
      a.method = "online";
      a.outcome = "storebench knows no online defragmentation for " + fs.type;
    }
    a.seconds = SecondsSince(o.clock, t0);
    a.before = r.after;
    a.after = r.after;
    if (a.ran) SB_RETURN_IF_ERROR(remeasure(&a));
    progress("defrag " + o.path + ": " + a.method + ": " + a.outcome + " (" +
             std::to_string(a.before) + " -> " + std::to_string(a.after) + " extents)" +
             (a.refused && o.method == DefragMethod::kAuto ? "; falling back to copy_rename" : ""));
    // A method that failed part-way may have lowered the count a little (an EBUSY at block
    // 32,513 of 262,400 left 1,791 of 2,049 extents): the copy still follows, and is kept only
    // when it is better.
    const bool dropped = a.after < a.before;
    if (dropped) r.final_method = a.method;
    const bool done = dropped && a.ok;
    r.attempts.push_back(std::move(a));
    if (done || o.method == DefragMethod::kOnline) return r;
  }
  const int64_t before_copy = r.after;
  Status hard;
  const int64_t t0 = Now(o.clock);
  DefragAttempt copied = CopyRename(o.path, fs, r.after, o.stop, &r.new_lock, &hard);
  copied.seconds = SecondsSince(o.clock, t0);
  copied.before = before_copy;
  copied.after = before_copy;
  if (!hard.ok()) return hard;
  if (copied.ok) SB_RETURN_IF_ERROR(remeasure(&copied));
  progress("defrag " + o.path + ": copy_rename: " + copied.outcome + " (" +
           std::to_string(copied.before) + " -> " + std::to_string(copied.after) + " extents)");
  if (copied.ok && copied.after < copied.before) r.final_method = copied.method;
  r.attempts.push_back(std::move(copied));
  return r;
}

}  // namespace sb::fs
