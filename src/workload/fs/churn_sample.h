// What `storebench io churn` samples of its directory and volume while the writers run.
#ifndef STOREBENCH_WORKLOAD_FS_CHURN_SAMPLE_H_
#define STOREBENCH_WORKLOAD_FS_CHURN_SAMPLE_H_

#include <cstdint>
#include <string>

#include "backend/fs/extent_map.h"

namespace sb::fsload {

struct ChurnSample {
  double t_sec = 0;  // set by the driver, which owns the clock
  int64_t files = 0;
  int64_t extents = 0;
  uint64_t file_bytes = 0;
  uint64_t volume_used_bytes = 0;
  int64_t free_extents = -1;  // -1: not exposed (no GETFSMAP)
};

// Files, extents (FIEMAP, as filefrag counts) and bytes under `dir`, and the volume's used space
// and free extents. A file deleted meanwhile is left out.
ChurnSample MeasureChurnDir(const std::string& dir, const fs::FileSystemInfo& fs);

}  // namespace sb::fsload

#endif  // STOREBENCH_WORKLOAD_FS_CHURN_SAMPLE_H_
