#include "workload/fs/page_cache.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <system_error>

namespace sb::fsload {

int64_t CachedPages(int fd, uint64_t size) {
  if (size == 0) return 0;
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) return -1;
  const auto page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> vec((size + page - 1) / page);
  int64_t n = -1;
  if (::mincore(map, size, vec.data()) == 0) {
    n = std::count_if(vec.begin(), vec.end(), [](unsigned char c) { return (c & 1) != 0; });
  }
  ::munmap(map, size);
  return n;
}

std::string DropCaches(const std::string& how, const std::vector<std::string>& files) {
  if (how == "none") return "caches not dropped (--drop_caches none)";
  if (how == "system") {
    ::sync();
    std::ofstream f("/proc/sys/vm/drop_caches");
    f << "3\n";
    f.flush();
    if (f) return "page cache, dentries and inodes dropped (/proc/sys/vm/drop_caches = 3)";
    return "caches NOT dropped: writing /proc/sys/vm/drop_caches was not permitted (needs root "
           "outside a container); the figures may include cached data";
  }
  std::string words;
  for (const std::string& path : files) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat st {};
    ::fstat(fd, &st);
    ::fdatasync(fd);  // dirty pages cannot be dropped
    const int rc = ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    const int64_t left = CachedPages(fd, static_cast<uint64_t>(st.st_size));
    ::close(fd);
    words += (words.empty() ? "" : "; ") + path + ": ";
    if (rc != 0) {
      words += "cache NOT dropped (posix_fadvise: " +
               std::error_code(rc, std::generic_category()).message() + ")";
    } else {
      words +=
          "cached pages dropped (posix_fadvise DONTNEED), " +
          (left < 0 ? std::string("residency unknown") : std::to_string(left) + " still cached");
    }
  }
  return words;
}

}  // namespace sb::fsload
