// The storage targets of io prepare, run and verify (io_targets.h).
#include "session/io_targets.h"

#include <algorithm>
#include <string>

#include "base/strings.h"
#include "base/units.h"
#include "workload/storage/access_spec.h"

namespace sb::session {

Result<std::vector<std::string>> TargetPaths(const config::OptionSet& o) {
  std::vector<std::string> targets;
  for (const std::string& t : SplitTrimmed(o.GetString("target"), ',')) {
    if (t.empty()) continue;
    if (std::find(targets.begin(), targets.end(), t) != targets.end()) {
      return Status::InvalidArgument("target '" + t + "' is given twice");
    }
    targets.push_back(t);
  }
  if (targets.empty()) return Status::InvalidArgument("no target given; add --target PATH");
  return targets;
}

Result<std::unique_ptr<FileLock>> LockTarget(const std::string& path, bool write, bool create,
                                             bool* created) {
  auto lock =
      TryLockTarget(path, write ? LockMode::kExclusive : LockMode::kShared, create, created);
  if (lock.ok()) return lock;
  if (lock.status().code() == StatusCode::kNotFound && !create) {
    return std::unique_ptr<FileLock>();
  }
  if (lock.status().code() != StatusCode::kFailedPrecondition) return lock.status();
  return Status::FailedPrecondition("the target " + path + " is in use by " +
                                    lock.status().message() + "; wait for it or stop it");
}

Result<uint64_t> ParseMaxSize(const std::string& text) {
  if (!text.empty() && text.back() == 's') {
    auto n = ParseInt(text.substr(0, text.size() - 1), "max_size sectors");
    if (!n.ok()) return n.status();
    return static_cast<uint64_t>(*n) * storage::kSectorBytes;
  }
  return ParseBytes(text);
}

Result<driver::IoTarget> TestRange(const storage::TargetInfo& info, uint64_t start, uint64_t wanted,
                                   std::string* warning) {
  if (start >= info.data_bytes) {
    return Status::InvalidArgument("start_sector lies beyond the end of '" + info.path + "'");
  }
  uint64_t range = info.data_bytes - start;
  if (wanted > 0 && wanted <= range) {
    range = wanted;
  } else if (wanted > range) {
    *warning = "warning: the test range of " + info.path + " is " + std::to_string(range) +
               " bytes, smaller than the " + std::to_string(wanted) +
               " bytes asked for (the test file's data area ends there); a range that fits in a "
               "cache measures the cache";
  }
  driver::IoTarget t;
  t.path = info.path;
  t.range_start = info.data_start + start;
  t.range_bytes = range;
  return t;
}

}  // namespace sb::session
