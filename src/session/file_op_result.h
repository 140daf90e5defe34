// The result documents of io read and io copy: one timed sequential pass (workload/fs/file_pass.h,
// timed by driver/file_pass_runner.h) with the extent counts of the files it touched.
#ifndef STOREBENCH_SESSION_FILE_OP_RESULT_H_
#define STOREBENCH_SESSION_FILE_OP_RESULT_H_

#include <cstdint>
#include <string>

#include "metrics/run_result.h"

namespace sb::session {

// What a timed pass moved, and in what time.
struct FilePassFacts {
  double seconds = 0;
  uint64_t bytes = 0;
  uint64_t block = 0;  // bytes per request
  std::string cache;   // what dropping the page cache before the pass did, in words
};

// io read PATH: `how` is how the file was opened ("O_DIRECT", "buffered: ..."); `extents` is
// FIEMAP's count, -1 when unknown.
struct ReadFacts {
  FilePassFacts pass;
  std::string path;
  std::string how;
  int64_t extents = -1;
};

// io copy SRC DST: how each file was opened, and their extent counts (-1 when unknown).
struct CopyFacts {
  FilePassFacts pass;
  std::string src, dst;
  std::string how_in, how_out;
  int64_t src_extents = -1, dst_extents = -1;
};

// The figures every file operation has: seconds, bytes, mib_per_sec (the headline), mb_per_sec.
metrics::RunResult FileOpResult(const std::string& workload, double seconds, uint64_t bytes);
double FileOpMbPerSec(const metrics::RunResult& r);  // the mb_per_sec figure

// Workload "file_read": the common figures, then extents; choices file_op.file, .method, .cache;
// the environment of the file's file system; started_at = ended_at = now.
metrics::RunResult ReadResult(const ReadFacts& facts);
// Workload "file_copy": the common figures, then src_extents and dst_extents; the environment
// of DST's file system.
metrics::RunResult CopyResult(const CopyFacts& facts);

}  // namespace sb::session

#endif  // STOREBENCH_SESSION_FILE_OP_RESULT_H_
