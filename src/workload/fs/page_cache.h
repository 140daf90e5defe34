// Emptying the page cache before a timed file operation (`io read`, `io copy`), so the figure is
// the device's and not memory's.
#ifndef STOREBENCH_WORKLOAD_FS_PAGE_CACHE_H_
#define STOREBENCH_WORKLOAD_FS_PAGE_CACHE_H_

#include <cstdint>
#include <string>
#include <vector>

namespace sb::fsload {

// Pages of the open file `fd` (of `size` bytes) in the page cache, from mincore(2); -1 unknown.
int64_t CachedPages(int fd, uint64_t size);

// Empties the cache as --drop_caches asks ("file": posix_fadvise DONTNEED on `files`; "system":
// /proc/sys/vm/drop_caches; "none") and says what happened, in words for the result.
std::string DropCaches(const std::string& how, const std::vector<std::string>& files);

}  // namespace sb::fsload

#endif  // STOREBENCH_WORKLOAD_FS_PAGE_CACHE_H_
