#include "cli/builtins.h"

#include <memory>

#include "backend/db/mysql/mysql_backend.h"
#include "backend/db/null/null_backend.h"
#include "backend/db/postgres/postgres_backend.h"
#include "backend/db/sqlite/sqlite_backend.h"
#include "backend/io/io_uring/io_uring_engine.h"
#include "backend/io/libaio/libaio_engine.h"
#include "backend/io/null/null_engine.h"
#include "backend/io/sync/psync_engine.h"
#include "power/cmd_source.h"
#include "power/csv_source.h"
#include "power/ipmi_source.h"
#include "power/ptd_source.h"
#include "power/rapl_source.h"
#include "power/redfish_source.h"
#include "report/console/console_style.h"
#include "workload/dvdstore/dvdstore_workload.h"
#include "workload/noop/noop_workload.h"
#include "workload/oltp/oltp_workload.h"
#include "workload/soe/soe_workload.h"
#include "workload/tpcc/tpcc_workload.h"

namespace sb::cli {

workload::WorkloadRegistry MakeWorkloads() {
  workload::WorkloadRegistry r;
  r.Register("dvdstore", "DVD Store 3 order loop",
             [] { return std::make_unique<dvdstore::DvdStoreWorkload>(); });
  r.Register("oltp", "sysbench-style OLTP", [] { return std::make_unique<oltp::OltpWorkload>(); });
  r.Register("soe", "Order Entry (Swingbench SOE): nine weighted transactions",
             [] { return std::make_unique<soe::SoeWorkload>(); });
  r.Register("tpcc", "TPC-C-like (NOPM/TPM as HammerDB reports them; not TPC results)",
             [] { return std::make_unique<tpcc::TpccWorkload>(); });
  r.Register("noop", "one trivial query per operation, to measure the harness",
             [] { return std::make_unique<noop::NoopWorkload>(); });
  return r;
}

db::BackendRegistry MakeBackends() {
  db::BackendRegistry r;
  r.Register("sqlite", db::OpenSqlite);
  r.Register("postgresql", db::OpenPostgres);
  r.Register("mysql", db::OpenMysql);
  r.Register("null", db::OpenNull);
  return r;
}

io::EngineRegistry MakeEngines() {
  io::EngineRegistry r;
  r.Register("psync", io::CreatePsyncEngine);
  r.Register("libaio", io::CreateLibaioEngine);
  r.Register("io_uring", io::CreateIoUringEngine);
  r.Register("null", io::CreateNullEngine);
  return r;
}

power::PowerRegistry MakePowerSources() {
  power::PowerRegistry r;
  r.Register("ptd", "ptd://host:port (SPEC PTDaemon)",
             [](const power::PowerSpec& s, Clock&) { return power::MakePtdSource(s); });
  r.Register("rapl", "rapl: (CPU package and DRAM energy, powercap sysfs)",
             [](const power::PowerSpec& s, Clock& c) { return power::MakeRaplSource(s, c); });
  r.Register("ipmi", "ipmi: or ipmi://user@host (BMC, DCMI)",
             [](const power::PowerSpec& s, Clock&) { return power::MakeIpmiSource(s); });
  r.Register("redfish", "redfish://host/... (BMC, Redfish)",
             [](const power::PowerSpec& s, Clock&) { return power::MakeRedfishSource(s); });
  r.Register("csv", "csv:FILE (an analyzer's log, imported after the run)",
             [](const power::PowerSpec& s, Clock&) { return power::MakeCsvSource(s); });
  r.Register("cmd", "cmd:\"COMMAND\" (a command printing watts)",
             [](const power::PowerSpec& s, Clock&) { return power::MakeCmdSource(s); });
  return r;
}

report::ConsoleRegistry MakeConsoles() {
  report::ConsoleRegistry r;
  r.Register("dvdstore", report::NewDvdStoreConsole);
  r.Register("sysbench", report::NewSysbenchConsole);
  r.Register("charbench", report::NewCharbenchConsole);
  r.Register("hammerdb", report::NewHammerDbConsole);
  return r;
}

}  // namespace sb::cli
