// sysbench's own option names for the sysbench-style workload (Shape::sysbench_style), so a
// sysbench command line works with storebench: --db-driver with --pgsql-* / --mysql-* instead of
// --db, and the report's --percentile and --histogram. Passwords are refused: they never come
// from the command line (docs/servers.md).
#ifndef STOREBENCH_CLI_SYSBENCH_OPTIONS_H_
#define STOREBENCH_CLI_SYSBENCH_OPTIONS_H_

#include <string>
#include <vector>

#include "config/options.h"
#include "storebench/status.h"

namespace sb::cli {

// Declares db_driver, pgsql_host/port/user/db, mysql_host/port/user/db, the refused
// pgsql_password / mysql_password, percentile, histogram, and the sysbench options storebench
// takes and checks but runs its own way: db_ps_mode, mysql_ignore_errors, forced_shutdown,
// verbosity, auto_inc (group "sysbench").
void DeclareSysbenchOptions(config::OptionSet* options);

// sysbench's test name on a command line (`oltp oltp_read_write --tables=4 run`, also a path to
// the script, `/usr/share/sysbench/oltp_read_write.lua`, and `--test=oltp_read_write`): the
// word becomes `--test=read_write`, with `--workload=oltp` unless a workload is named. Other
// words are left for the command line's own checks. `args` starts after "oltp".
void TakeSysbenchTestName(std::vector<std::string>* args);

// The options above that storebench takes but does not apply as sysbench would, each as a line
// for stderr ("" when every one is at its default or means what storebench does).
std::vector<std::string> SysbenchNotes(const config::OptionSet& options);

// sysbench's --forced-shutdown: -1 for "off", else the seconds after --time (N, or N% of
// --time); InvalidArgument as sysbench refuses other values.
Result<int64_t> ForcedShutdownSeconds(const std::string& value, int64_t time_sec);

// After parsing: when --db-driver or a --pgsql-*/--mysql-* connection option was given, sets
// --db to the URL they name (refusing them beside an explicit --db).
Status ApplySysbenchOptions(config::OptionSet* options);

}  // namespace sb::cli

#endif  // STOREBENCH_CLI_SYSBENCH_OPTIONS_H_
