// The file operations `storebench io read` and `io copy` time (and `io fragtest`'s sequential
// read): one sequential pass over a file through an IoEngine, one request at a time, as a
// fragmentation guide times a copy or a read of a large file.
//
// A pass never reads a clock: the driver (driver/file_pass_runner.h) calls Step() until it
// returns false, then Finish(), and times the whole.
#ifndef STOREBENCH_WORKLOAD_FS_FILE_PASS_H_
#define STOREBENCH_WORKLOAD_FS_FILE_PASS_H_

#include <cstdint>
#include <memory>
#include <string>

#include "storebench/io_engine.h"
#include "storebench/status.h"

namespace sb::fsload {

class FilePass {
 public:
  virtual ~FilePass() = default;
  // One transfer of up to a block. Returns false when the pass is over (nothing transferred).
  virtual Result<bool> Step() = 0;
  // After the last step and inside the timed span (the copy's fsync of DST).
  virtual Status Finish() { return Status::Ok(); }
  // Bytes read (a read) or copied (a copy) so far.
  virtual uint64_t bytes() const = 0;
  // How the files were opened: "O_DIRECT", "buffered", "buffered (the file system refused
  // O_DIRECT)"; a copy's is DST's (SRC's in source_how()).
  const std::string& how() const { return how_; }

 protected:
  std::string how_;
};

struct ReadPassOptions {
  std::string path;
  uint64_t block = 1 << 20;  // bytes per read (a multiple of 4 KiB with O_DIRECT)
  bool direct = true;
  // When the file system refuses O_DIRECT: read through the page cache (said in how()) instead
  // of failing.
  bool buffered_fallback = true;
  uint64_t start = 0;
  // 0: to the end of the file. Otherwise exactly this many bytes: ending early is an IoError.
  uint64_t length = 0;
};

// A pass that reads the file sequentially. The engine is the pass's (one engine per thread).
Result<std::unique_ptr<FilePass>> OpenReadPass(std::unique_ptr<io::IoEngine> engine,
                                               const ReadPassOptions& options);

struct CopyPassOptions {
  std::string src, dst;
  uint64_t block = 1 << 20;
  bool direct = true;  // both files; each falls back to buffered when refused (see how())
};

class CopyPass : public FilePass {
 public:
  // How SRC was opened.
  virtual const std::string& source_how() const = 0;
};

// A pass that copies SRC into DST, a new file (AlreadyExists if it exists), then fsyncs DST in
// Finish(). Unless Finish() succeeded, DST is removed when the pass is destroyed, so a failed or
// stopped copy leaves no partial file behind.
Result<std::unique_ptr<CopyPass>> OpenCopyPass(std::unique_ptr<io::IoEngine> engine,
                                               const CopyPassOptions& options);

}  // namespace sb::fsload

#endif  // STOREBENCH_WORKLOAD_FS_FILE_PASS_H_
