// The database instances of a run as data (what the command line or a plan built, its
// database opened and checked), and the driver's specs made from them: no printing, no exit.
#ifndef STOREBENCH_SESSION_DB_INSTANCES_H_
#define STOREBENCH_SESSION_DB_INSTANCES_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/options.h"
#include "driver/runner.h"
#include "storebench/db.h"
#include "storebench/status.h"
#include "storebench/workload.h"

namespace sb::session {

// One database instance of a run, as the command line or a plan describes it.
struct DbSetup {
  std::string name = "1";  // "1", or "<group>_<i>" in a plan
  std::string url;
  std::unique_ptr<workload::Workload> workload;
  std::unique_ptr<config::OptionSet> options;  // this instance's effective options
  // Filled by LockDatabase: held until the instance is destroyed (after its verification).
  std::unique_ptr<db::DbLock> lock;
  // Filled by PrepareDatabase:
  std::unique_ptr<db::DbBackend> backend;
  std::map<std::string, int64_t> before;  // the workload's Snapshot() before the run
  std::optional<db::ServerInfo> info;
  // Filled by RestoreDatabase: how the database was brought back to its pristine copy, and how
  // long that took (not part of the run); seconds < 0 when it was not restored.
  std::string restore_method;
  double restore_seconds = -1;
};

// `s` with the instance's name and URL in front when the run has `several` instances.
Status Named(const Status& s, const DbSetup& setup, bool several);

// Every instance's --op_log file (session/op_log_paths.h: one per instance when there are
// several), or InvalidArgument when two instances would write one file.
Result<std::vector<std::string>> OpLogPathsOf(const std::vector<DbSetup>& setups);

// The driver's spec of every instance, from its options (driver::RunOptionsFrom). Instance k
// draws its own random streams (seed + k), as DVD Store's drivers on separate clients would;
// instance 0 keeps the seed, so one instance runs as before; each writes its own --op_log
// (OpLogPathsOf). Errors name the instance when there are several.
Result<std::vector<driver::DbInstanceSpec>> InstanceSpecs(std::vector<DbSetup>& setups);

// Under mpirun: rank `rank`'s part of an instance, `share` of its threads (session::ShareOf).
// The open loop's rate and a run's unit count are scaled alike (at least one unit), the rank
// draws its own random streams (rank 0 keeps the seed: + 7919 x rank), and a rank without
// threads writes no --op_log while the others write their own file (RankOpLogPath), since ranks
// on one host would write one file at once.
void ScaleToRankShare(driver::DbInstanceSpec* spec, int64_t share, int rank);

}  // namespace sb::session

#endif  // STOREBENCH_SESSION_DB_INSTANCES_H_
