// Every built-in plug-in in one list, as sysbench lists its drivers in one place: the database
// back ends, the workloads, the I/O engines, the power sources and the console styles a command
// can name. Adding one
// is a line here (docs/contributing.md); nothing else outside its own folder names it.
#ifndef STOREBENCH_CLI_BUILTINS_H_
#define STOREBENCH_CLI_BUILTINS_H_

#include "backend/db/registry.h"
#include "power/registry.h"
#include "report/console/console_style.h"
#include "storebench/io_engine.h"
#include "workload/registry.h"

namespace sb::cli {

// sqlite, postgresql, mysql, null.
db::BackendRegistry MakeBackends();
// dvdstore, oltp, soe, tpcc, noop.
workload::WorkloadRegistry MakeWorkloads();
// psync, libaio, io_uring, null.
io::EngineRegistry MakeEngines();
// ptd, rapl, ipmi, redfish, csv, cmd.
power::PowerRegistry MakePowerSources();
// dvdstore, sysbench, charbench, hammerdb: the peer tools' consoles, by the names workloads give
// (Shape::console).
report::ConsoleRegistry MakeConsoles();

}  // namespace sb::cli

#endif  // STOREBENCH_CLI_BUILTINS_H_
