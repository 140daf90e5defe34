// The storage targets of `storebench io prepare|run|verify`: the --target paths, locking them
// against other storebench processes, and the test range a run or a check uses on each
// (docs/storage.md).
#ifndef STOREBENCH_SESSION_IO_TARGETS_H_
#define STOREBENCH_SESSION_IO_TARGETS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/file_lock.h"
#include "config/options.h"
#include "driver/io_run_config.h"
#include "storebench/status.h"
#include "workload/storage/test_file.h"

namespace sb::session {

// The --target paths (repeated or comma-separated), each once; an error when one is given twice
// or none is.
Result<std::vector<std::string>> TargetPaths(const config::OptionSet& o);

// Locks the storage target `path` against other storebench processes: exclusively for a
// command that writes, shared for one that only reads (readers may share a target, never with a
// writer). A missing target is created empty when `create` (*created says so); without it, a
// missing target returns no lock and no error, for the caller's own, fuller message.
Result<std::unique_ptr<FileLock>> LockTarget(const std::string& path, bool write, bool create,
                                             bool* created = nullptr);

// --max_size: "16000000s" = sectors, else bytes ("8GiB").
Result<uint64_t> ParseMaxSize(const std::string& text);

// The test range of a target: from `start` (bytes into its data area) for `wanted` bytes (0 = to
// the end); a smaller target is used whole, and `*warning` says so (else it is left as it is).
Result<driver::IoTarget> TestRange(const storage::TargetInfo& info, uint64_t start, uint64_t wanted,
                                   std::string* warning);

}  // namespace sb::session

#endif  // STOREBENCH_SESSION_IO_TARGETS_H_
