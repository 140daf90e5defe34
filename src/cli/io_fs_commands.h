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
// `extents` extents (workload/fs/target_extents.h) and prints the outcome and the methods tried;
// used by `io fragment` and `io prepare --fragment`. When the copy method replaced the file, the
// result's new_lock is the lock the caller must hold from now on.
Result<fs::FragmentResult> FragmentTestFile(const std::string& path, int64_t extents,
                                            fs::FragmentMethod method,
                                            const std::atomic<bool>* stop);
// The lines FragmentTestFile prints (`io fragtest` prints them too).
void PrintFragmentOutcome(const std::string& path, const std::string& fs_type, int64_t extents,
                          const fs::FragmentResult& r);

// Arguments not starting with "--" that are not the value of an option before them, removed
// from `args` and returned (the PATH operands of extents, defrag, copy, read).
std::vector<std::string> TakeOperands(std::vector<std::string>* args,
                                      const config::OptionSet& options);

}  // namespace sb::cli

#endif  // STOREBENCH_CLI_IO_FS_COMMANDS_H_
