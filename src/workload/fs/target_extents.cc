#include "workload/fs/target_extents.h"

#include <sys/stat.h>

#include <algorithm>

#include "backend/fs/extent_map.h"
#include "workload/storage/test_file.h"

namespace sb::fsload {

TargetExtents MeasureTargetExtents(const std::string& path) {
  TargetExtents t;
  auto fsinfo = fs::DescribeFileSystem(path);
  if (!fsinfo.ok()) {
    t.note = fsinfo.status().message();
    return t;
  }
  t.filesystem = fsinfo->type;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISBLK(st.st_mode)) {
    t.note = "a block device has no extents";
    return t;
  }
  auto s = fs::MeasureFile(path, *fsinfo);
  if (!s.ok()) {
    t.note = s.status().message();
    return t;
  }
  t.extents = s->extents;
  return t;
}

Result<fs::FragmentResult> FragmentTestFile(
    const std::string& path, int64_t extents, fs::FragmentMethod method,
    const std::atomic<bool>* stop, const std::function<void(const std::string&)>& progress) {
  auto info = storage::InspectTarget(path);
  if (!info.ok()) return info.status();
  auto fsinfo = fs::DescribeFileSystem(path);
  if (!fsinfo.ok()) return fsinfo.status();
  fs::FragmentOptions f;
  f.path = path;
  f.target_extents = extents;
  f.region_start = info->data_start;
  f.region_bytes = info->data_bytes - info->data_bytes % std::max<uint64_t>(fsinfo->block_size, 1);
  f.stop = stop;
  f.method = method;
  return fs::FragmentFile(f, *fsinfo, progress);
}

Status FragmentShortfall(const std::string& path, int64_t extents, const fs::FragmentResult& r) {
  if (r.reached) return Status::Ok();
  return Status::IoError("'" + path + "' has " + std::to_string(r.after) +
                         " extents, not within 5 % of the " + std::to_string(extents) +
                         " asked for" +
                         (r.attempts.empty() ? " (it was more fragmented already; run io defrag)"
                                             : " (" + fs::DescribeAttempts(r.attempts) + ")"));
}

}  // namespace sb::fsload
