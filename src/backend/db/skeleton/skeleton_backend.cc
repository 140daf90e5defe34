// The skeleton back end: every method refuses (skeleton_backend.h). Each comment says what a real
// back end's method must do; storebench/db.h is the contract they summarize, and the conformance
// suite (tests/unit/conformance/db_conformance_test.cc) checks it on every back end.
//
// Only this folder may include the database's client header (libpq-fe.h, mysql.h, sqlite3.h):
// the back end's CMake library (sb_layer in CMakeLists.txt) is the only one that links the
// client library.
#include "backend/db/skeleton/skeleton_backend.h"

#include <string>
#include <utility>

namespace sb::db {
namespace {

// The one refusal every method returns: FailedPrecondition, as db.h's own defaults refuse what a
// back end lacks ("this back end keeps no pristine copies"). A real back end returns kDbError
// statuses with an ErrorCategory (Status::Db, storebench/status.h) for everything the database says.
Status NotImplemented(const std::string& method) {
  return Status::FailedPrecondition("the skeleton back end does not implement " + method +
                                    " (src/backend/db/skeleton/ is a starting point, not a "
                                    "database)");
}

// A prepared statement, used by one thread at a time (its connection's).
class SkeletonStatement final : public Statement {
 public:
  // Bind*: remember the value of 1-based parameter `index` for the next Execute; binds persist
  // until rebound, and a parameter may change type between executions (text, then an integer,
  // then NULL: the conformance cases IntegersAtTheEndsRoundTrip and
  // ReboundTextGrowingNullAndBackSendsEachExecutionsValues). They cannot fail: a bad index
  // surfaces as Execute's error.
  void BindInt(int /*index*/, int64_t /*value*/) override {}
  void BindDouble(int /*index*/, double /*value*/) override {}
  void BindText(int /*index*/, std::string_view /*value*/) override {}  // copy it: the view dies
  void BindNull(int /*index*/) override {}

  // Runs the statement with the current binds, first dropping any unread rows of the last run.
  // A database error is Status::Db with its ErrorCategory (kSyntax for bad SQL or a missing
  // table, kConstraint for a duplicate key or a NULL in a NOT NULL column, kDeadlock,
  // kSerialization, kTimeout, kConnectionLost), which the driver's retry policy acts on.
  Status Execute() override {
    status_ = NotImplemented("Statement::Execute");
    return status_;
  }
  // Moves to the next row: false at the end (status() OK) or on an error (status() says it).
  bool Next() override { return false; }
  const Status& status() const override { return status_; }

  // The current row's columns, 0-based. GetText's view stays valid until the next Next or
  // Execute. Never called without a current row.
  bool IsNull(int /*column*/) const override { return true; }
  int64_t GetInt(int /*column*/) const override { return 0; }
  double GetDouble(int /*column*/) const override { return 0; }
  std::string_view GetText(int /*column*/) const override { return {}; }
  // Stops reading the current result and frees it (and any read snapshot it holds).
  void Reset() override {}
  // DiscardRows has a default (Next until the end); override it when the client library already
  // holds the whole result and can free it without walking it.
  // Rows the last INSERT/UPDATE/DELETE changed.
  int64_t RowsAffected() const override { return 0; }

 private:
  Status status_ = NotImplemented("Statement::Execute");
};

// One connection, used by one thread at a time, as are the statements it prepares.
class SkeletonConnection final : public Connection {
 public:
  // Prepares SQL written with '?' placeholders, translating them if the database wants others
  // (PostgreSQL: $1, $2, ...). A syntax error may be reported here or at Execute.
  Result<std::unique_ptr<Statement>> Prepare(std::string_view /*sql*/) override {
    return NotImplemented("Connection::Prepare");
  }
  // Runs one or more statements without parameters (DDL, session settings); rows are dropped.
  Status ExecuteScript(std::string_view /*sql*/) override {
    return NotImplemented("Connection::ExecuteScript");
  }
  // Begin(write): a database with one writer takes the write lock now (SQLite's BEGIN
  // IMMEDIATE), so a transaction never fails half-way for it. Rollback with nothing open is a
  // no-op returning OK.
  Status Begin(bool /*write*/) override { return NotImplemented("Connection::Begin"); }
  Status Commit() override { return NotImplemented("Connection::Commit"); }
  Status Rollback() override { return NotImplemented("Connection::Rollback"); }
  // The key the last INSERT generated on this connection (an auto-increment column).
  int64_t LastInsertId() override { return 0; }
  // ServerCounters has a default (an empty list); a server back end with
  // Capabilities::server_counters returns its cumulative counters with their meanings
  // (db::ServerCounter), without adding to the statement counts it reports.
};

class SkeletonBackend final : public DbBackend {
 public:
  // Every capability off, the ones that default to true included: workloads and the conformance
  // suite ask these, never the back end's name. Turn one on only when its conformance case
  // passes (docs/contributing.md lists which case checks which).
  SkeletonBackend() {
    caps_.concurrent_writers = false;
    caps_.storebench_lock = false;
    caps_.keeps_data = false;
  }
  // Shared by every thread: everything here must be thread-safe (db.h).
  const Capabilities& capabilities() const override { return caps_; }
  // The folder of the workloads' SQL files for this database: sql/<dialect>/<file>, else
  // sql/common/<file> (workload/sql_files.h). A new dialect with no files of its own runs every
  // workload's sql/common/ files; add sql/<dialect>/ files only where it differs.
  std::string dialect() const override { return "skeleton"; }
  // A new connection for one worker. A server that cannot be reached is db::ConnectError
  // (backend/db/connect_error.h), so every command reports it the same way.
  Result<std::unique_ptr<Connection>> Connect() override {
    return NotImplemented("DbBackend::Connect");
  }
  // A bulk writer for `table` on a connection of its own: rows come as CSV-like text fields
  // ("" an empty string, kBulkNull a NULL), written as fast as the database allows (COPY,
  // multi-row INSERT). A missing table fails here or at Finish with kDbError.
  Result<std::unique_ptr<BulkWriter>> NewBulkWriter(
      const std::string& /*table*/, const std::vector<std::string>& /*columns*/) override {
    return NotImplemented("DbBackend::NewBulkWriter");
  }
  // NewSoleBulkWriter (default NewBulkWriter) and NewSplitBulkWriter (default: refused, which
  // is right while Capabilities::split_bulk_writers is off) have defaults; see db.h for when to
  // override them, and the *Session() methods that describe them for the record.

  // Product, version and the settings worth recording with a result.
  Result<ServerInfo> Describe() override { return NotImplemented("DbBackend::Describe"); }
  // Whether the database exists (SQLite: the file exists and is not empty). No Status: an
  // unreachable server is "no", and the Connect that follows says why.
  bool Exists() override { return false; }
  // The storebench lock over what the workload tables live in, without waiting: held by the
  // returned object (a server's on a connection of its own); another holder is
  // FailedPrecondition whose message is exactly that holder's `holder_text`. db.h lets a back
  // end with storebench_lock off return a lock that guards nothing (the null back end, which
  // keeps no data); the skeleton refuses instead, so a half-written back end never loads or runs
  // unguarded.
  Result<std::unique_ptr<DbLock>> TryLock(const std::string& /*holder_text*/) override {
    return NotImplemented("DbBackend::TryLock");
  }
  // SavePristine and RestorePristine keep their defaults (refused) while
  // Capabilities::pristine_copy is off.

 private:
  Capabilities caps_;
};

}  // namespace

Result<std::unique_ptr<DbBackend>> OpenSkeleton(const DbUrl& /*url*/,
                                                const BackendOptions& /*options*/) {
  return std::unique_ptr<DbBackend>(new SkeletonBackend());
}

}  // namespace sb::db
