// A test file's layout as results and fragmenting need it: its extent count (filefrag's), and
// fragmenting a storebench test file's data area to a count (`io fragment`, `io prepare
// --fragment`, `io fragtest`).
#ifndef STOREBENCH_WORKLOAD_FS_TARGET_EXTENTS_H_
#define STOREBENCH_WORKLOAD_FS_TARGET_EXTENTS_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "backend/fs/fragment.h"
#include "storebench/status.h"

namespace sb::fsload {

// The extent count (filefrag's) of a storage target for results: -1 and a reason when it has
// none (a block device, a file system without FIEMAP).
struct TargetExtents {
  int64_t extents = -1;
  std::string filesystem;
  std::string note;  // why extents is -1
};
TargetExtents MeasureTargetExtents(const std::string& path);

// Fragments the storebench test file `path` (already locked exclusively by the caller) to about
// `extents` extents with `method` (auto: the fallback chain, fragment.h), only its data area.
// When the copy method replaced the file, the result's new_lock is the lock the caller must hold
// from now on. A result that missed the target is not an error here: FragmentShortfall says so.
Result<fs::FragmentResult> FragmentTestFile(
    const std::string& path, int64_t extents, fs::FragmentMethod method,
    const std::atomic<bool>* stop, const std::function<void(const std::string&)>& progress);
// IoError when `r` did not reach `extents` (within 5 %), naming why; OK otherwise.
Status FragmentShortfall(const std::string& path, int64_t extents, const fs::FragmentResult& r);

}  // namespace sb::fsload

#endif  // STOREBENCH_WORKLOAD_FS_TARGET_EXTENTS_H_
