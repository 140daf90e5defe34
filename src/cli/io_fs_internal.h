// Shared pieces of the io extents/fragment/defrag/copy/read/churn/fragtest commands (internal to
// src/cli): their options, usage lines, and the command bodies in the other files.
#ifndef STOREBENCH_CLI_IO_FS_INTERNAL_H_
#define STOREBENCH_CLI_IO_FS_INTERNAL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/file_lock.h"
#include "base/format_bytes.h"
#include "config/options.h"
#include "storebench/io_engine.h"
#include "storebench/status.h"
#include "workload/storage/test_file.h"

namespace sb::cli {

void DeclareIoFsOptions(config::OptionSet* o, const std::string& command,
                        const io::EngineRegistry& engines);
const char* IoFsUsage(const std::string& command);

// Locks `path` exclusively and checks that storebench created it (a complete test-file marker):
// fragment, defrag and fragtest refuse other files, as io run refuses to write them. `verb`
// names the command in the message ("fragment").
Result<std::unique_ptr<FileLock>> LockOwnTestFile(const std::string& path, const char* verb,
                                                  storage::TargetInfo* info);

// Writes `text` to `path` through a temporary file renamed over it (parents created).
Status WriteJsonDocument(const std::string& path, const std::string& text);

int ExtentsCommand(const config::OptionSet& o, const std::vector<std::string>& paths);
int FragmentCommand(const config::OptionSet& o);
int DefragCommand(const config::OptionSet& o, const std::vector<std::string>& paths);
int CopyFile(const config::OptionSet& o, const std::vector<std::string>& operands,
             const io::EngineRegistry& engines);
int ReadFile(const config::OptionSet& o, const std::vector<std::string>& operands,
             const io::EngineRegistry& engines);
int Churn(const config::OptionSet& o);
int Fragtest(const config::OptionSet& o, const io::EngineRegistry& engines);

}  // namespace sb::cli

#endif  // STOREBENCH_CLI_IO_FS_INTERNAL_H_
