#include "workload/fs/churn_sample.h"

#include <filesystem>
#include <system_error>

namespace sb::fsload {

ChurnSample MeasureChurnDir(const std::string& dir, const fs::FileSystemInfo& fs) {
  ChurnSample s;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    auto st = fs::MeasureFile(it->path().string(), fs);
    if (!st.ok()) continue;  // deleted meanwhile
    ++s.files;
    s.extents += st->extents;
    s.file_bytes += st->size_bytes;
  }
  auto now = fs::DescribeFileSystem(dir);
  if (now.ok()) s.volume_used_bytes = now->used_bytes;
  const fs::FreeSpace free = fs::MeasureFreeSpace(dir);
  if (free.available) s.free_extents = free.free_extents;
  return s;
}

}  // namespace sb::fsload
