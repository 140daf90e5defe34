// Each instance's --op_log file when a run has several instances (DVD Store 3's target list, a
// plan, a consolidation search): one file per instance, so that no two instances' workers write
// one file at once (docs/plans.md#operation-logs).
#ifndef STOREBENCH_SESSION_OP_LOG_PATHS_H_
#define STOREBENCH_SESSION_OP_LOG_PATHS_H_

#include <string>
#include <vector>

#include "storebench/status.h"

namespace sb::session {

// Instance `name` (number `number` of the run, from 1)'s file for the --op_log value `path`:
// "{instance}" becomes the name and "{i}" the number; a path with neither, in a run of
// `several` instances, gets the name before its extension ("ops.log" -> "ops.ds3_2.log",
// "ops" -> "ops.ds3_2"). An empty path stays empty (no log).
std::string InstanceOpLogPath(const std::string& path, const std::string& name, int number,
                              bool several);

// `path` with `.tag` before its file name's extension ("ops.log", "n2-run1" -> "ops.n2-run1.log").
std::string WithBeforeExtension(const std::string& path, const std::string& tag);

// One instance's --op_log value and name, as InstanceOpLogPaths reads them.
struct OpLogRequest {
  std::string name;
  std::string path;  // the option's value; empty: this instance writes none
};

// Every instance's file (InstanceOpLogPath, numbered from 1 in order), or InvalidArgument
// naming both instances when two of them would write one file (compared as absolute paths
// with "." and ".." resolved and links followed where the file or its folder exists).
Result<std::vector<std::string>> InstanceOpLogPaths(const std::vector<OpLogRequest>& instances);

}  // namespace sb::session

#endif  // STOREBENCH_SESSION_OP_LOG_PATHS_H_
