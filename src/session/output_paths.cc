#include "session/output_paths.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>
#include <system_error>

#include "storebench/db.h"

namespace sb::session {
namespace {

namespace fs = std::filesystem;

// What a path refers to. An existing file is its device and inode (a block device: the device
// it stands for, so two device nodes of one disk match); a missing one is the directory it would
// be created in plus its name.
struct Identity {
  bool exists = false;
  mode_t mode = 0;
  dev_t dev = 0;
  ino_t ino = 0;
  bool dir_known = false;  // missing: the directory exists
  dev_t dir_dev = 0;
  ino_t dir_ino = 0;
  std::string name;     // missing: the last component
  std::string lexical;  // missing, directory missing too: the absolute normal path
};

// `path` with its trailing symbolic links followed while they dangle (a link to a -wal file that
// does not exist yet names that file); stops after 40 links, like the kernel (ELOOP).
std::string FollowDanglingLinks(std::string path) {
  for (int i = 0; i < 40; ++i) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) return path;
    if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
    std::error_code ec;
    const fs::path target = fs::read_symlink(path, ec);
    if (ec) return path;
    path =
        target.is_absolute() ? target.string() : (fs::path(path).parent_path() / target).string();
  }
  return path;
}

Identity Identify(const std::string& given) {
  Identity id;
  const std::string path = FollowDanglingLinks(given);
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    id.exists = true;
    id.mode = st.st_mode;
    id.dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
    id.ino = S_ISBLK(st.st_mode) ? 0 : st.st_ino;
    return id;
  }
  const fs::path p(path);
  const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  if (::stat(dir.c_str(), &st) == 0) {
    id.dir_known = true;
    id.dir_dev = st.st_dev;
    id.dir_ino = st.st_ino;
    id.name = p.filename().string();
    return id;
  }
  std::error_code ec;
  id.lexical = fs::absolute(p, ec).lexically_normal().string();
  return id;
}

bool SameFile(const Identity& a, const Identity& b) {
  if (a.exists != b.exists) return false;
  if (a.exists) {
    return S_ISBLK(a.mode) == S_ISBLK(b.mode) && a.dev == b.dev && a.ino == b.ino;
  }
  if (a.dir_known != b.dir_known) return false;
  if (a.dir_known) return a.dir_dev == b.dir_dev && a.dir_ino == b.dir_ino && a.name == b.name;
  return a.lexical == b.lexical;
}

// Writing into one /dev/null (or FIFO, or terminal) from several outputs destroys nothing.
bool Shareable(const Identity& id) {
  return id.exists && !S_ISREG(id.mode) && !S_ISDIR(id.mode) && !S_ISBLK(id.mode);
}

std::string Quoted(const PathUse& p) { return p.role + " '" + p.path + "'"; }

Status CannotWrite(const PathUse& out, const std::string& why) {
  return Status::InvalidArgument(Quoted(out) + " cannot be written: " + why);
}

// Creates and removes a probe file in `dir`: the only test that also holds for root, read-only
// mounts and file systems such as /proc. Returns the errno of the failed creation, or 0.
int ProbeDirectory(const fs::path& dir) {
  for (int n = 0; n < 100; ++n) {
    const fs::path probe =
        dir / (".storebench-write-test-" + std::to_string(::getpid()) + "-" + std::to_string(n));
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) {
      ::close(fd);
      ::unlink(probe.c_str());
      return 0;
    }
    if (errno != EEXIST) return errno;
  }
  return EEXIST;
}

// The directory a new file at `path` goes into: its parent, or with `creates_parents` the
// nearest ancestor that exists (the writer creates the rest).
std::optional<fs::path> ExistingDirectoryFor(const std::string& path, bool creates_parents,
                                             const PathUse& out, Status* error) {
  fs::path dir = fs::path(path).parent_path();
  if (dir.empty()) dir = ".";
  for (;;) {
    struct stat st {};
    if (::stat(dir.c_str(), &st) == 0) {
      if (S_ISDIR(st.st_mode)) return dir;
      *error = CannotWrite(out, "'" + dir.string() + "' is not a directory");
      return std::nullopt;
    }
    const fs::path up = dir.parent_path().empty() ? fs::path(".") : dir.parent_path();
    if (!creates_parents || up == dir) {
      *error = CannotWrite(out, "directory '" + dir.string() + "' does not exist");
      return std::nullopt;
    }
    dir = up;
  }
}

Status CheckWritable(const PathUse& out) {
  const std::string path = FollowDanglingLinks(out.path);
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) return CannotWrite(out, "it is a directory");
  if (exists && S_ISFIFO(st.st_mode)) {
    // Opening a FIFO for writing waits for a reader; the permission check has to do.
    if (::faccessat(AT_FDCWD, path.c_str(), W_OK, AT_EACCESS) != 0) {
      return CannotWrite(out, std::strerror(errno));
    }
    return Status::Ok();
  }
  if (exists && (!out.replaces || !S_ISREG(st.st_mode))) {
    // Written in place: open it as the writer will, but without truncating it.
    const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return CannotWrite(out, std::strerror(errno));
    ::close(fd);
    return Status::Ok();
  }
  Status error;
  const auto dir = ExistingDirectoryFor(path, out.creates_parents, out, &error);
  if (!dir) return error;
  if (const int err = ProbeDirectory(*dir); err != 0) {
    return CannotWrite(
        out, "no file can be created in '" + dir->string() + "' (" + std::strerror(err) + ")");
  }
  return Status::Ok();
}

}  // namespace

Status CheckOutputPaths(const std::vector<PathUse>& inputs, const std::vector<PathUse>& outputs) {
  std::vector<std::pair<const PathUse*, Identity>> ins, outs;
  for (const PathUse& p : inputs) {
    if (!p.path.empty()) ins.emplace_back(&p, Identify(p.path));
  }
  for (const PathUse& p : outputs) {
    if (!p.path.empty()) outs.emplace_back(&p, Identify(p.path));
  }
  for (size_t i = 0; i < outs.size(); ++i) {
    const auto& [out, out_id] = outs[i];
    for (const auto& [in, in_id] : ins) {
      if (!SameFile(out_id, in_id)) continue;
      return Status::InvalidArgument("refusing to write " + Quoted(*out) + ": it is " +
                                     (out->path == in->path ? "" : "the same file as ") +
                                     Quoted(*in));
    }
    for (size_t j = 0; j < i; ++j) {
      const auto& [other, other_id] = outs[j];
      if (Shareable(out_id) || !SameFile(out_id, other_id)) continue;
      return Status::InvalidArgument("refusing to write " + Quoted(*other) + " and " +
                                     Quoted(*out) + ": they are the same file");
    }
  }
  for (const auto& [out, id] : outs) SB_RETURN_IF_ERROR(CheckWritable(*out));
  return Status::Ok();
}

std::vector<PathUse> SqliteInputs(const std::string& url) {
  std::vector<PathUse> files;
  auto parsed = db::ParseDbUrl(url);
  if (!parsed.ok() || parsed->scheme != "sqlite") return files;
  files.push_back({"the database file", parsed->database});
  for (const char* suffix : {"-wal", "-shm", "-journal"}) {
    files.push_back({std::string("the database's ") + suffix + " file", parsed->database + suffix});
  }
  return files;
}

}  // namespace sb::session
