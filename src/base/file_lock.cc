#include "base/file_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>
#include <vector>

namespace sb {
namespace {

std::string Errno(int e) { return std::strerror(e); }

std::string HostName() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) return "?";
  return host;
}

std::string UtcText(time_t t) {
  struct tm tm {};
  gmtime_r(&t, &tm);
  char buf[40];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
  return buf;
}

// "storebench oltp load" from the process's command line (program name without its directory
// and the first two arguments, which name the command), or "" when unreadable.
std::string ProcessCommand(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/cmdline", std::ios::binary);
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> args;
  std::string cur;
  for (char c : all) {
    if (c == '\0') {
      args.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (args.empty()) return "";
  std::string text = args[0].substr(args[0].rfind('/') + 1);
  for (size_t i = 1; i < args.size() && i <= 2; ++i) {
    if (args[i].empty() || args[i][0] == '-') break;
    text += " " + args[i];
  }
  return text;
}

// When the process started, in seconds since the epoch (0 when unknown): its start time in
// clock ticks after boot (/proc/<pid>/stat, field 22) plus the boot time (/proc/stat btime).
time_t ProcessStart(pid_t pid) {
  std::ifstream stat_in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat_in, line)) return 0;
  // The command name (field 2) is in parentheses and may hold spaces: count from after it.
  const size_t close = line.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream fields(line.substr(close + 2));
  std::string f;
  unsigned long long start_ticks = 0;
  for (int i = 3; i <= 22 && fields >> f; ++i) {
    if (i == 22) start_ticks = std::strtoull(f.c_str(), nullptr, 10);
  }
  std::ifstream proc_stat("/proc/stat");
  long long btime = 0;
  while (std::getline(proc_stat, line)) {
    if (line.rfind("btime ", 0) == 0) btime = std::atoll(line.c_str() + 6);
  }
  const long ticks = ::sysconf(_SC_CLK_TCK);
  if (btime == 0 || ticks <= 0) return 0;
  return static_cast<time_t>(btime + static_cast<long long>(start_ticks) / ticks);
}

// Reads what a lock file holds (at most 1 KiB), without trailing newlines.
std::string ReadHolder(int fd) {
  char buf[1024];
  const ssize_t n = ::pread(fd, buf, sizeof buf, 0);
  std::string text(buf, n > 0 ? static_cast<size_t>(n) : 0);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\0')) text.pop_back();
  return text;
}

Status Busy(int fd) {
  std::string who = DescribeFlockHolders(fd);
  return Status::FailedPrecondition(who.empty() ? "another process" : who);
}

}  // namespace

std::string LockHolderText(const std::string& command) {
  return "storebench " + command + " (pid " + std::to_string(::getpid()) + " on host " +
         HostName() + ", since " + UtcText(std::time(nullptr)) + ")";
}

std::string DescribeFlockHolders(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return "";
  std::ifstream in("/proc/locks");
  std::string line, text;
  while (std::getline(in, line)) {
    // "1: FLOCK  ADVISORY  WRITE 1234 08:01:131074 0 EOF"; waiters carry "->" after the number.
    std::istringstream f(line);
    std::string num, kind, advisory, access, dev;
    long pid = 0;
    f >> num >> kind;
    if (kind == "->") f >> kind;
    if (kind != "FLOCK" || !(f >> advisory >> access >> pid >> dev)) continue;
    unsigned int major_no = 0, minor_no = 0;
    unsigned long long ino = 0;
    if (std::sscanf(dev.c_str(), "%x:%x:%llu", &major_no, &minor_no, &ino) != 3) continue;
    if (major_no != major(st.st_dev) || minor_no != minor(st.st_dev) || ino != st.st_ino ||
        pid == ::getpid() || line.find("->") != std::string::npos) {
      continue;
    }
    std::string command = ProcessCommand(static_cast<pid_t>(pid));
    const time_t started = ProcessStart(static_cast<pid_t>(pid));
    std::string one = (command.empty() ? std::string("a process") : command) + " (pid " +
                      std::to_string(pid) + " on host " + HostName();
    if (started > 0) one += ", since " + UtcText(started);
    one += ")";
    text += (text.empty() ? "" : " and ") + one;
  }
  return text;
}

FileLock::~FileLock() {
  // Removed while still locked: a process that opened the file meanwhile finds it unlinked
  // after it gets the lock (TryLockFile) and starts over on a new file.
  if (!remove_path_.empty()) ::unlink(remove_path_.c_str());
  ::close(fd_);
}

Result<std::unique_ptr<FileLock>> TryLockFile(const std::string& path,
                                              const std::string& holder_text) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) {
      return Status::IoError("cannot open the lock file '" + path + "': " + Errno(errno));
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int e = errno;
      if (e != EWOULDBLOCK) {
        ::close(fd);
        return Status::IoError("cannot lock '" + path + "': " + Errno(e));
      }
      std::string who = ReadHolder(fd);
      if (who.empty()) who = DescribeFlockHolders(fd);
      ::close(fd);
      return Status::FailedPrecondition(who.empty() ? "another process" : who);
    }
    // The holder before may have removed the file between our open and our lock: then this
    // lock guards nothing and the name must be opened again.
    struct stat by_fd {
    }, by_path{};
    if (::fstat(fd, &by_fd) != 0 || ::stat(path.c_str(), &by_path) != 0 ||
        by_fd.st_ino != by_path.st_ino || by_fd.st_dev != by_path.st_dev) {
      ::close(fd);
      continue;
    }
    const std::string text = holder_text + "\n";
    if (::ftruncate(fd, 0) != 0 ||
        ::pwrite(fd, text.data(), text.size(), 0) != static_cast<ssize_t>(text.size())) {
      const int e = errno;
      ::unlink(path.c_str());
      ::close(fd);
      return Status::IoError("cannot write the lock file '" + path + "': " + Errno(e));
    }
    return std::make_unique<FileLock>(fd, path);
  }
  return Status::IoError("cannot lock '" + path + "': it keeps being replaced");
}

Result<std::unique_ptr<FileLock>> TryLockTarget(const std::string& path, LockMode mode, bool create,
                                                bool* created) {
  if (created != nullptr) *created = false;
  for (int attempt = 0; attempt < 100; ++attempt) {
    // O_NONBLOCK: opening a FIFO must not wait for a writer (the caller refuses FIFOs after).
    int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT && create) {
      fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
      if (fd < 0 && errno == EEXIST) continue;  // created by another process just now
      if (fd >= 0 && created != nullptr) *created = true;
    }
    if (fd < 0) {
      const int e = errno;
      if (e == ENOENT) return Status::NotFound("'" + path + "' does not exist");
      return Status::IoError("cannot open '" + path + "' to lock it: " + Errno(e));
    }
    if (::flock(fd, (mode == LockMode::kShared ? LOCK_SH : LOCK_EX) | LOCK_NB) != 0) {
      const int e = errno;
      Status s =
          e == EWOULDBLOCK ? Busy(fd) : Status::IoError("cannot lock '" + path + "': " + Errno(e));
      ::close(fd);
      return s;
    }
    return std::make_unique<FileLock>(fd, "");
  }
  return Status::IoError("cannot lock '" + path + "'");
}

}  // namespace sb
