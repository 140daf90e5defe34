// One writer of `storebench io churn`: files that grow, extend and get deleted, as database files
// and logs do when several databases load into one volume (docs/storage.md, "Fragmentation").
//
// Each writer keeps files of its own under its directory and repeats, chosen at random:
//   append  4 KiB - 1 MiB to one of its data files, fdatasync every 8th time (a table growing);
//   extend  a data file by 1 - 8 MiB preallocated with fallocate, then written (autoextend);
//   log     4 - 64 KiB appended to its log with fdatasync each time; at 16 MiB the log is
//           closed and a new one started, keeping the last four (log rotation);
//   delete  one of its data files (a dropped table or temp file), also whenever its files pass
//           its share of --max_bytes.
// Interleaved allocations of several writers are what splits files into extents; how many
// depends on the file system's allocator (ext4's delayed allocation and per-file preallocation
// absorb much of it), so the result is what FIEMAP counts, before, during and after.
//
// The writer never reads a clock and owns no thread: the driver (driver/churn_instance.h) runs
// one Step() after another on a worker thread of its own until the run ends.
#ifndef STOREBENCH_WORKLOAD_FS_CHURN_WRITER_H_
#define STOREBENCH_WORKLOAD_FS_CHURN_WRITER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "base/random.h"
#include "storebench/status.h"

namespace sb::fsload {

enum class ChurnOp { kNewFile, kAppend, kExtend, kLog, kDelete };

// The operation for a draw `pick` in [0, 100) when the writer has `data_files` data files: a new
// data file while it has fewer than two (and 5 % of the time), append 40 %, extend 15 %, log
// 35 %, delete 5 %.
ChurnOp ChooseChurnOp(uint64_t pick, size_t data_files);

// What one step did, for the driver's counters.
struct ChurnStep {
  ChurnOp op = ChurnOp::kNewFile;
  uint64_t bytes_written = 0;
  int64_t files_deleted = 0;
  int64_t errors = 0;
  std::string first_error;  // the step's first failure ("" when none)
};

class ChurnWriter {
 public:
  // `dir`: the writer's own directory; `budget`: the bytes its files may hold together.
  ChurnWriter(std::string dir, uint64_t budget, uint64_t seed);

  // Creates the directory and fills the write buffer (before the run starts).
  Status Prepare();
  // One operation, then deletions from the oldest data file while the files pass the budget.
  ChurnStep Step();

  // The bytes its data files and logs hold, as the writer counts them.
  uint64_t Used() const;
  size_t data_files() const { return data_.size(); }
  size_t log_files() const { return logs_.size(); }
  const std::string& dir() const { return dir_; }

 private:
  struct File {
    std::string path;
    uint64_t size = 0;
  };

  uint64_t Pick(uint64_t n) { return static_cast<uint64_t>(rng_.Next(static_cast<int64_t>(n))); }
  void Error(ChurnStep* step, const std::string& what);
  bool Write(const std::string& path, uint64_t off, uint64_t len, const std::vector<uint8_t>& buf,
             bool sync, ChurnStep* step);
  void NewDataFile(ChurnStep* step);
  void Append(File& f, uint64_t len, const std::vector<uint8_t>& buf, bool sync, ChurnStep* step);
  void Extend(File& f, uint64_t len, ChurnStep* step);
  void Log(uint64_t len, ChurnStep* step);
  void Delete(uint64_t i, ChurnStep* step);

  std::string dir_;
  uint64_t budget_;
  Random rng_;
  std::vector<uint8_t> buf_;
  std::vector<File> data_, logs_;
  uint64_t next_ = 0, appends_ = 0;
};

}  // namespace sb::fsload

#endif  // STOREBENCH_WORKLOAD_FS_CHURN_WRITER_H_
