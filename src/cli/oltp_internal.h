// The pieces of storebench oltp (internal to src/cli): its verbs in oltp_command.cc, `oltp load`
// in oltp_load.cc, `oltp run` in oltp_run.cc.
#ifndef STOREBENCH_CLI_OLTP_INTERNAL_H_
#define STOREBENCH_CLI_OLTP_INTERNAL_H_

#include <memory>
#include <string>
#include <vector>

#include "backend/db/registry.h"
#include "cli/builtins.h"
#include "config/options.h"
#include "storebench/status.h"
#include "storebench/workload.h"
#include "workload/registry.h"

namespace sb::cli {

// One oltp verb's command line: its options, its workload and the back ends.
struct OltpContext {
  config::OptionSet options;
  std::unique_ptr<workload::Workload> owned_workload;
  workload::Workload& workload() { return *owned_workload; }
  db::BackendRegistry registry = MakeBackends();
  std::string command;
};

// The options of `command` for `workload`, parsed from `args`.
Status OltpParseOptions(const std::string& command, const workload::WorkloadRegistry& workloads,
                        workload::Workload& workload, const std::vector<std::string>& args,
                        config::OptionSet* options);

// The database of --db, opened for the workload (`create`: a load may create an SQLite file).
Result<std::unique_ptr<db::DbBackend>> OltpOpenDb(OltpContext& c, bool create, int busy_timeout_ms);

// `oltp load`, or with --dry_run its plan (oltp_load.cc).
int OltpLoad(OltpContext& c);

// `oltp run`: one database, or several as DVD Store 3's target list (oltp_run.cc).
int OltpRun(OltpContext& c, const workload::WorkloadRegistry& workloads,
            const std::string& workload_name, const std::vector<std::string>& args);

// `storebench oltp ...`; `args` starts with "oltp". Returns the exit code.
int RunOltpCommand(std::vector<std::string> args);

}  // namespace sb::cli

#endif  // STOREBENCH_CLI_OLTP_INTERNAL_H_
