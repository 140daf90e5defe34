#include "session/op_log_paths.h"

#include <filesystem>
#include <map>

namespace sb::session {
namespace {

// `text` with every `from` replaced by `to`.
std::string ReplaceAll(const std::string& text, const std::string& from, const std::string& to) {
  std::string out;
  for (size_t pos = 0; pos < text.size();) {
    if (text.compare(pos, from.size(), from) == 0) {
      out += to;
      pos += from.size();
    } else {
      out += text[pos++];
    }
  }
  return out;
}

// The file a path names, for comparing two paths: "a/../ops.log" and "./ops.log" are one.
std::string Resolved(const std::string& path) {
  std::error_code ec;
  // The part that does not exist yet keeps its ".." from weakly_canonical.
  std::filesystem::path p = std::filesystem::weakly_canonical(path, ec);
  if (ec) p = std::filesystem::absolute(path, ec);
  return ec ? path : p.lexically_normal().string();
}

}  // namespace

std::string WithBeforeExtension(const std::string& path, const std::string& tag) {
  const std::filesystem::path p(path);
  // The file name's extension only: "/tmp/x.d/ops" has none.
  const std::string stem = p.stem().string(), ext = p.extension().string();
  return (p.parent_path() / (stem + "." + tag + ext)).string();
}

std::string InstanceOpLogPath(const std::string& path, const std::string& name, int number,
                              bool several) {
  if (path.empty()) return path;
  const bool placeholder =
      path.find("{i}") != std::string::npos || path.find("{instance}") != std::string::npos;
  if (placeholder) {
    return ReplaceAll(ReplaceAll(path, "{instance}", name), "{i}", std::to_string(number));
  }
  return several ? WithBeforeExtension(path, name) : path;
}

Result<std::vector<std::string>> InstanceOpLogPaths(const std::vector<OpLogRequest>& instances) {
  std::vector<std::string> paths;
  std::map<std::string, size_t> writer;  // resolved file -> the first instance writing it
  const bool several = instances.size() > 1;
  for (size_t i = 0; i < instances.size(); ++i) {
    const OpLogRequest& r = instances[i];
    paths.push_back(InstanceOpLogPath(r.path, r.name, static_cast<int>(i) + 1, several));
    if (paths.back().empty()) continue;
    auto [it, added] = writer.emplace(Resolved(paths.back()), i);
    if (!added) {
      const OpLogRequest& first = instances[it->second];
      return Status::InvalidArgument(
          "--op_log: instances " + first.name + " and " + r.name + " would both write " +
          paths.back() +
          "; each instance needs a file of its own (put {instance} or {i} in the path, "
          "docs/plans.md#operation-logs)");
    }
  }
  return paths;
}

}  // namespace sb::session
