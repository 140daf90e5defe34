// What `io extents` measures (io_extents.cc prints it): the regular files its PATHs name, each
// file's FIEMAP figures (backend/fs/extent_map.h), and per volume their sums.
#ifndef STOREBENCH_CLI_IO_EXTENTS_SCAN_H_
#define STOREBENCH_CLI_IO_EXTENTS_SCAN_H_

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "backend/fs/extent_map.h"
#include "storebench/status.h"

namespace sb::cli {

struct FileRow {
  std::string path;
  dev_t device = 0;
  fs::ExtentStats stats;
};

struct Volume {
  fs::FileSystemInfo fs;
  int64_t files = 0;
  fs::ExtentStats sum;           // summed (min/max/mean recomputed)
  int64_t fragmented_files = 0;  // more records than the fewest possible
  std::vector<size_t> rows;      // indexes into the file rows
};

using PathErrors = std::vector<std::pair<std::string, std::string>>;

struct Measured {
  std::map<dev_t, Volume> volumes;
  std::vector<FileRow> rows;
};

// The regular files PATHS name, with the files under each directory when `recursive` (as find
// -xdev: root's own file system, no symbolic links followed; unreadable directories in
// `errors`).
Status CollectFiles(const std::vector<std::string>& paths, bool recursive,
                    std::vector<std::string>* files, PathErrors* errors);
// Every file's extent statistics, and its volume's sums; a file that cannot be measured goes to
// `errors`, a volume without FIEMAP is an error.
Status MeasureFiles(const std::vector<std::string>& files, Measured* m, PathErrors* errors);

}  // namespace sb::cli

#endif  // STOREBENCH_CLI_IO_EXTENTS_SCAN_H_
