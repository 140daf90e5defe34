// Before a database run: the URLs of DVD Store 3's target list, and opening, locking, restoring
// and checking each instance's database. Nothing here prints: what the command line says about
// a restore or a pristine copy comes from RestoredWords and PristineWords.
#ifndef STOREBENCH_SESSION_DB_PREPARE_H_
#define STOREBENCH_SESSION_DB_PREPARE_H_

#include <memory>
#include <string>
#include <vector>

#include "backend/db/registry.h"
#include "session/db_instances.h"
#include "storebench/db.h"
#include "storebench/status.h"
#include "storebench/workload.h"

namespace sb::session {

// DVD Store 3's target list: each host of `target` ("hostA;hostB:5433") in place of the host
// (and, when the target names one, the port) of `db_url`, one URL per host. "localhost" (DS3's
// default, as DriverConfig.txt files carry it) leaves `db_url` alone, as does any target beside
// a URL without a host (SQLite: a file has no host to replace; *ignored is set then, for the
// caller to say so). Refused: several hosts for a --db that is a list itself, and a host name with
// characters no host name has.
Result<std::vector<std::string>> ExpandTargets(const std::string& db_url, const std::string& target,
                                               bool* ignored);

// Opens the back end of `url` for `workload` (dialect and capabilities checked).
Result<std::unique_ptr<db::DbBackend>> OpenDatabase(const db::BackendRegistry& backends,
                                                    workload::Workload& workload,
                                                    const std::string& url, bool create,
                                                    int busy_timeout_ms);

// Takes the storebench lock of the database at `url` for `command` ("oltp load", "oltp run",
// ...) so that no second storebench process loads, runs on or verifies it meanwhile. Returns no
// lock for back ends without data to guard. When another process holds it: FailedPrecondition
// "the database URL is in use by storebench oltp load (pid 1234 on host h, since ...); wait
// for it or stop it" (exit 2). A server that cannot be reached (down, wrong user or password,
// no such database) is the back end's connection error as it is (db::ConnectError, exit 2),
// never a lock message; other failures of the lock itself are FailedPrecondition too.
Result<std::unique_ptr<db::DbLock>> LockDatabase(const db::BackendRegistry& backends,
                                                 const std::string& url,
                                                 const std::string& command);

// Brings the instance's database back to its pristine copy (db::DbBackend::RestorePristine)
// under its lock (setup->lock, taken by LockDatabase for `command`), before PrepareDatabase.
// Records how and how long in the setup (RestoredWords says so). Refusals are
// FailedPrecondition (exit 2) and say how to make a pristine copy; errors name the instance
// when `several`.
Status RestoreDatabase(const db::BackendRegistry& backends, DbSetup* setup,
                       const std::string& command, bool several);
// "restored URL to its pristine copy in 0.12 s (METHOD; not part of the run)", with the
// instance's name in front when `several`.
std::string RestoredWords(const DbSetup& setup, bool several);

// How a pristine copy was kept, and how long that took.
struct PristineCopy {
  std::string method;
  double seconds = 0;
};
// Keeps a pristine copy of the database at `url` as it is now (db::DbBackend::SavePristine),
// under `lock` (held for `command`).
Result<PristineCopy> SavePristineCopy(const db::BackendRegistry& backends, const std::string& url,
                                      std::unique_ptr<db::DbLock>* lock,
                                      const std::string& command);
// "kept a pristine copy of URL in 0.12 s (METHOD); --restore brings the database back to it".
std::string PristineWords(const std::string& url, const PristineCopy& copy);

// Checks that the instance's database holds its workload at the configured size and is not
// locked, takes the snapshot Verify compares against, and opens the back end the run uses.
// Errors name the instance when `several`.
Status PrepareDatabase(const db::BackendRegistry& backends, DbSetup* setup, bool several);

// Reads every instance's run options as RunDatabases will (driver::RunOptionsFrom: windows and
// baselines within the run, limits; no two instances writing one --op_log file, OpLogPathsOf),
// so that a run that can only fail is refused (exit 2) before any database is locked, loaded or
// run. Errors name the instance when there are several.
Status CheckRunOptions(const std::vector<DbSetup>& setups);

}  // namespace sb::session

#endif  // STOREBENCH_SESSION_DB_PREPARE_H_
