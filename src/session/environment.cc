#include "session/environment.h"

#include <sys/statfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "storebench/db.h"

namespace sb::session {
namespace {

std::string CpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const size_t colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown";
}

// The mount point and file-system type holding `path`: the longest /proc/mounts prefix.
std::pair<std::string, std::string> FileSystemOf(const std::string& path) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::absolute(path, ec);
  if (!std::filesystem::exists(p, ec)) p = p.parent_path();
  const std::string target = std::filesystem::weakly_canonical(p, ec).string();
  std::ifstream in("/proc/mounts");
  std::string dev, mnt, type, rest;
  std::pair<std::string, std::string> best{"", "unknown"};
  while (in >> dev >> mnt >> type && std::getline(in, rest)) {
    const bool prefix = target.rfind(mnt, 0) == 0 &&
                        (mnt == "/" || target.size() == mnt.size() || target[mnt.size()] == '/');
    if (prefix && mnt.size() >= best.first.size()) best = {mnt, type};
  }
  return best;
}

}  // namespace

std::map<std::string, std::string> CollectEnvironment(const std::string& path) {
  std::map<std::string, std::string> env;
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  env["host"] = host;
  env["cpu_model"] = CpuModel();
  env["cpu_count"] = std::to_string(std::thread::hardware_concurrency());
  utsname u{};
  if (uname(&u) == 0) env["kernel"] = std::string(u.sysname) + " " + u.release + " " + u.machine;
  if (!path.empty()) {
    auto [mnt, type] = FileSystemOf(path);
    env["filesystem"] = type;
    env["filesystem_mount"] = mnt;
  }
  return env;
}

std::string DbPathForEnvironment(const std::string& url) {
  auto parsed = db::ParseDbUrl(url);
  return parsed.ok() && parsed->scheme == "sqlite" ? parsed->database : "";
}

}  // namespace sb::session
