// sysbench's own option names for the sysbench-style workload (Shape::sysbench_style), so a
// sysbench command line works with storebench: --db-driver with --pgsql-* / --mysql-* instead of
// --db, and the report's --percentile and --histogram. Passwords are refused: they never come
// from the command line (docs/servers.md).
#ifndef STOREBENCH_CLI_SYSBENCH_OPTIONS_H_
#define STOREBENCH_CLI_SYSBENCH_OPTIONS_H_

#include "config/options.h"
#include "storebench/status.h"

namespace sb::cli {

// Declares db_driver, pgsql_host/port/user/db, mysql_host/port/user/db, the refused
// pgsql_password / mysql_password, percentile and histogram (group "sysbench").
void DeclareSysbenchOptions(config::OptionSet* options);

// After parsing: when --db-driver or a --pgsql-*/--mysql-* connection option was given, sets
// --db to the URL they name (refusing them beside an explicit --db).
Status ApplySysbenchOptions(config::OptionSet* options);

}  // namespace sb::cli

#endif  // STOREBENCH_CLI_SYSBENCH_OPTIONS_H_
