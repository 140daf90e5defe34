// `storebench io extents|fragment|defrag|copy|read|churn|fragtest`: the physical layout of test
// files and volumes, making it worse on purpose, making it better, and measuring what it costs
// (docs/storage.md, "Fragmentation").
#ifndef STOREBENCH_CLI_IO_FS_COMMANDS_H_
#define STOREBENCH_CLI_IO_FS_COMMANDS_H_

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "backend/fs/extent_map.h"
#include "backend/fs/fragment.h"
#include "config/options.h"
#include "storebench/io_engine.h"
#include "storebench/status.h"

namespace sb::cli {

// True for the subcommands below.
bool IsIoFsCommand(const std::string& name);
// Runs one of them; `args` starts with the subcommand. Returns the exit code.
int RunIoFsCommand(const std::vector<std::string>& args, const io::EngineRegistry& engines);

// Fragments the storebench test file `path` (already locked exclusively by the caller) to about
// `extents` extents with `method` (auto: the fallback chain, fragment.h), printing the outcome
// and the methods tried; used by `io fragment`, `io prepare --fragment` and `io fragtest`. When
// the copy method replaced the file, the result's new_lock is the lock the caller must hold from
// now on. A result that missed the target is not an error here: FragmentShortfall says so.
Result<fs::FragmentResult> FragmentTestFile(const std::string& path, int64_t extents,
                                            fs::FragmentMethod method,
                                            const std::atomic<bool>* stop);
// IoError when `r` did not reach `extents` (within 5 %), naming why; OK otherwise.
Status FragmentShortfall(const std::string& path, int64_t extents, const fs::FragmentResult& r);

// The extent count (filefrag's) of a storage target for results: -1 and a reason when it has
// none (a block device, a file system without FIEMAP).
struct TargetExtents {
  int64_t extents = -1;
  std::string filesystem;
  std::string note;  // why extents is -1
};
TargetExtents MeasureTargetExtents(const std::string& path);

// Arguments not starting with "--" that are not the value of an option before them, removed
// from `args` and returned (the PATH operands of extents, defrag, copy, read).
std::vector<std::string> TakeOperands(std::vector<std::string>* args,
                                      const config::OptionSet& options);

}  // namespace sb::cli

#endif  // STOREBENCH_CLI_IO_FS_COMMANDS_H_
