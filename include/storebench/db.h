// The database back-end interface: one implementation per database (sqlite, postgres, mysql,
// null), chosen by URL scheme through the registry. Workloads see only these types.
//
// Threading: a DbBackend is shared and thread-safe; a Connection and everything it creates are
// used by one thread at a time.
//
// Errors: every call that talks to the database returns a Status; a failed call has
// code kDbError and an ErrorCategory (see storebench/status.h) so the driver's retry policy can decide
// what to do without knowing the database. What a back end lacks (a Capabilities flag off) is
// refused with a Status that says so (FailedPrecondition, as the defaults below).
//
// A new back end: src/backend/db/skeleton/ is one that refuses everything, commented method by
// method; tests/unit/conformance/ checks this contract on every back end; docs/contributing.md
// walks through the steps.
#ifndef STOREBENCH_INCLUDE_STOREBENCH_DB_H_
#define STOREBENCH_INCLUDE_STOREBENCH_DB_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "storebench/status.h"

namespace sb::db {

// What a back end can do; workloads branch on these, never on a back-end name. Fixed for the
// back end's life (DbBackend::capabilities() may be read from any thread).
struct Capabilities {
  bool full_text_search = false;   // the workload's full-text SQL for this dialect works
  bool stored_procedures = false;  // CREATE FUNCTION/PROCEDURE and CALL
  bool concurrent_writers = true;  // false: writers serialize (SQLite); use short write txns
  bool server = false;             // a network server (has server-side counters, restarts, ...)
  // Connection::ServerCounters returns the server's own counters (not just an empty list).
  bool server_counters = false;
  // Other sessions' work reaches those counters late: PostgreSQL's backends flush their
  // statistics at most once a second while busy, after ~10 s idle, and when they disconnect.
  // Readers wait for the counters to settle after the sessions they measure have closed.
  bool server_counters_lag = false;
  // Its "statements.<kind>" counters also count statements that failed (MariaDB's Com_<kind>
  // counts a statement as it starts); false: only statements that completed
  // (pg_stat_statements records a statement when it ends without error).
  bool statement_counters_include_failed = false;
  // DbBackend::TryLock guards the database against a second storebench process. False: there is
  // nothing to guard (the null back end keeps no data), and TryLock returns a lock guarding
  // nothing.
  bool storebench_lock = true;
  // False: statements touch nothing and return no rows (the null back end). A workload that
  // runs on it measures the driver's own cost; it keeps no load record and has nothing to check.
  bool keeps_data = true;
  // DbBackend::SavePristine and RestorePristine work: the database can be brought back to its
  // loaded state before every run, as consolidation reports do ("restored from backup before
  // every run").
  bool pristine_copy = false;
  // CREATE INDEX statements on one table may run at the same time on several connections and
  // each gets on with its own sort (PostgreSQL: CREATE INDEX takes a SHARE lock, which does not
  // conflict with itself). False: they would only wait for each other (MariaDB rebuilds or
  // locks the table per ALTER) or there is one writer (SQLite). The load's index phase then
  // builds a table's indexes one after another on one connection (workload/index_build.h).
  bool concurrent_index_builds = false;
  // DbBackend::NewSplitBulkWriter works: several writers may load one table created empty for
  // the load at the same time, each its own rows in its own transaction, so a large table's
  // rows go through more than one server thread. False: a table has one sole writer
  // (PostgreSQL: COPY FREEZE needs the TRUNCATE in the writer's own transaction; SQLite: one
  // writer at a time).
  bool split_bulk_writers = false;
};

// One of the server's own cumulative counters, read by Connection::ServerCounters.
struct ServerCounter {
  std::string name;  // the server's own name: "xact_commit", "Com_commit"
  // A server-neutral meaning a workload can match on, or "" for a counter shown only:
  //   "commits", "rollbacks"                   transactions (what exactly counts differs: docs)
  //   "rows_inserted", "rows_updated", "rows_deleted"
  //   "statements.<kind>"                       statements run, by the first keyword (select,
  //                                             insert, update, delete, begin, commit, ...)
  //   "statement_evictions"                     statement entries the server dropped to make
  //                                             room (their counts are lost with them)
  //   "connections"                             sessions opened on the server (all clients)
  //   "other_sessions"                          sessions other than the reader's that worked
  //                                             since its previous reading (a value, not a count
  //                                             to subtract)
  std::string meaning;
  int64_t value = 0;
  // The server's count over all its databases and clients (MariaDB's SHOW GLOBAL STATUS), not
  // this database's alone (PostgreSQL's pg_stat_database): other sessions' work lands in it.
  bool server_wide = false;
  // Where the value was read, when a back end reads counters from more than one place ("" when
  // it does not say): the result records it. A "statement_evictions" counter that grew during
  // the span makes every counter of its source uncompared (their counts lost entries).
  std::string source{};
  // The source of counters that stand in for this one with the same meaning (MariaDB's
  // per-schema counts for a global one), or "": this one is then shown only, unless that
  // source lost counts during the span, when this one is compared instead.
  std::string replaced_by{};
};

// A parsed database URL: scheme://user@host:port/database?key=value, or sqlite:///path.
struct DbUrl {
  std::string scheme;  // "sqlite", "postgresql", "mysql", "null"
  std::string user;
  std::string host;
  int port = 0;
  std::string database;  // for sqlite: the file path
  std::map<std::string, std::string> params;
  // The URL as given, with any password removed; safe to print and to record.
  std::string redacted;
};

// Parses a URL; user, host, database and parameters are percent-decoded. Each scheme accepts its
// own list of parameters (sqlite: none; null: latency_us, a time every statement takes; postgresql:
// libpq keywords; mysql: connect_timeout, read_timeout, write_timeout, ssl) and refuses others
// naming that list. A password or any other secret (password, sslpassword, ...) is refused without
// being quoted: secrets come from the environment or the client's own files, never the command
// line. A mysql:// URL must name a database.
Result<DbUrl> ParseDbUrl(std::string_view url);

// A prepared statement. Parameters are 1-based, columns 0-based (as in most client APIs).
// Usage: Bind*(...); Execute(); while (Next()) Get*(...); Binds persist until rebound.
// Used by one thread at a time (its connection's).
class Statement {
 public:
  virtual ~Statement() = default;
  // Bind* set parameter `index` for the following Executes; a parameter may change type from one
  // execution to the next (text, then an integer, then NULL). They return nothing: a bad index
  // or value is reported by Execute. BindText copies what it needs (the view may die after).
  virtual void BindInt(int index, int64_t value) = 0;
  virtual void BindDouble(int index, double value) = 0;
  virtual void BindText(int index, std::string_view value) = 0;
  virtual void BindNull(int index) = 0;

  // Runs the statement with the current bindings, discarding any earlier unread rows.
  virtual Status Execute() = 0;
  // Advances to the next row. Returns false at the end or on error (then status() says why).
  virtual bool Next() = 0;
  // The status of the last Execute/Next; OK when Next() returned false at the end of rows.
  virtual const Status& status() const = 0;

  // The current row's values (REQUIRES: the last Next() returned true).
  virtual bool IsNull(int column) const = 0;
  virtual int64_t GetInt(int column) const = 0;
  virtual double GetDouble(int column) const = 0;
  virtual std::string_view GetText(int column) const = 0;  // valid until the next Next/Execute
  // Stops reading the current result early and releases it (and any read snapshot it holds).
  virtual void Reset() = 0;
  // Consumes the rest of the current result without decoding its values: the database still
  // produces and sends every row (a workload that does not look at its rows, as sysbench's,
  // costs the server the same). Returns what status() says at the end of rows. Back ends whose
  // client library has already received the whole result release it without walking it.
  virtual Status DiscardRows() {
    while (Next()) {
    }
    return status();
  }
  // Rows changed by the last INSERT/UPDATE/DELETE.
  virtual int64_t RowsAffected() const = 0;
};

// One session with the database, used by one thread at a time (each worker owns one).
class Connection {
 public:
  virtual ~Connection() = default;
  // Prepares `sql` (with '?' placeholders; the back end translates them if it must).
  virtual Result<std::unique_ptr<Statement>> Prepare(std::string_view sql) = 0;
  // Runs one or more statements without parameters (DDL, pragmas). Rows are discarded.
  virtual Status ExecuteScript(std::string_view sql) = 0;
  // BEGIN. `write` says the transaction will write: back ends with a single writer take the
  // write lock up front (SQLite BEGIN IMMEDIATE) so a transaction never fails half-way on it.
  virtual Status Begin(bool write) = 0;
  virtual Status Commit() = 0;
  // Rollback with no transaction open is a no-op that returns OK (a workload rolls back after
  // any failed step without tracking whether the failure ended the transaction).
  virtual Status Rollback() = 0;
  // The id generated by the last INSERT on this connection into a table with an auto-increment
  // key.
  virtual int64_t LastInsertId() = 0;
  // The server's own cumulative counters as they are now (PostgreSQL: pg_stat_database of the
  // connected database, plus pg_stat_statements calls by statement kind when that extension is
  // installed; MariaDB/MySQL: SHOW GLOBAL STATUS, server-wide). Reading them adds nothing to the
  // statement counts they hold (SHOW is no SELECT; PostgreSQL leaves out statements on pg_stat
  // views). Empty for back ends without a server.
  // Call outside a transaction.
  virtual Result<std::vector<ServerCounter>> ServerCounters() {
    return std::vector<ServerCounter>{};
  }
  // A callable that any thread may call, at any time while this connection or after it is
  // gone, to make a call of this connection that waits on the server return at once with an
  // error (a frozen server never answers; docs/measurement.md#stalled-workers). The connection
  // is unusable afterwards. Empty when the back end cannot (the null back end never waits).
  virtual std::function<void()> Interrupter() { return nullptr; }
};

// The field that stands for SQL NULL in BulkWriter::AddRow: one NUL byte, which no loaded text
// holds (PostgreSQL cannot store a NUL in text at all).
inline constexpr std::string_view kBulkNull{"\0", 1};

// Bulk insert of many rows into one table, as fast as the back end can (COPY, multi-row
// INSERT, a prepared statement in big transactions). Not thread-safe; one per loader thread.
// Destroyed without Finish: a sole or split writer leaves none of its rows (one transaction,
// rolled back); NewBulkWriter's may have committed some already (SQLite's commits in batches).
class BulkWriter {
 public:
  virtual ~BulkWriter() = default;
  // Appends one row; values are given as text exactly as in the CSV ("" = empty string,
  // kBulkNull = NULL).
  virtual Status AddRow(const std::vector<std::string_view>& fields) = 0;
  // Flushes and commits everything added.
  virtual Status Finish() = 0;
};

// A database's storebench lock (DbBackend::TryLock); released when destroyed, and by the
// operating system or the server when the process dies.
class DbLock {
 public:
  virtual ~DbLock() = default;
  // The caller knows the server has stopped answering (a run's workers stalled on it,
  // docs/measurement.md#stalled-workers): the release then closes the lock's connections
  // without waiting for the server to answer a statement first. The server ends those
  // sessions, and with them the lock, once it answers again. Back ends with nothing to wait
  // for ignore it.
  virtual void ServerSilent() {}
};

// What a run of a workload can change in its database (Workload::WhatRunsWrite), so a restore
// (DbBackend::RestorePristine) can bring back only that instead of comparing every table. It
// applies only to a database whose storebench_meta names `workload`.
struct RunWrites {
  std::string workload;
  // Tables a run only appends to, each with the integer column whose values above the loaded
  // maximum are exactly the rows runs added (table and column as the dialect's schema spells
  // them).
  std::vector<std::pair<std::string, std::string>> appended;
  // Tables a run changes otherwise (updates, or rows in a table loaded empty).
  std::vector<std::string> rewritten;
  // Every other table is never written by a run.
};

// The free space where a database's data would be written, as far as the back end can tell
// (`oltp load --dry_run` refuses a load that would not fit). A server's space is known only when
// the server runs on this machine and its data directory can be measured from here.
struct StorageSpace {
  bool known = false;
  std::string where;        // the directory measured
  int64_t free_bytes = 0;   // available to unprivileged writers (statvfs f_bavail × f_frsize)
  int64_t used_bytes = 0;   // what the database holds now (a load with --force replaces it)
  std::string why_unknown;  // when !known: one sentence
};

struct ServerInfo {
  std::string product;  // "SQLite", "PostgreSQL", ...
  std::string version;
  std::map<std::string, std::string> settings;  // pragmas or server settings worth recording
};

// The database as a whole, opened from a URL by a BackendFactory (backend/db/registry.h), which
// checks the URL and the file but does not talk to a server (the server back ends connect in
// Connect, TryLock, Describe, ...). Shared by every thread: each method may be called from
// several threads at once.
class DbBackend {
 public:
  virtual ~DbBackend() = default;
  virtual const Capabilities& capabilities() const = 0;
  // The dialect name that selects the workload's SQL files ("sqlite", "postgres", "mysql";
  // "null", which has none of its own): sql/<dialect>/, else sql/common/ (workload/sql_files.h).
  virtual std::string dialect() const = 0;
  // Opens a new connection (each worker owns one). A server that cannot be reached is
  // db::ConnectError (backend/db/connect_error.h), so every command words it the same way.
  virtual Result<std::unique_ptr<Connection>> Connect() = 0;
  // A bulk writer for `table` with `columns`, on its own connection. A table that does not exist
  // fails with kDbError here or, at the latest, at Finish.
  virtual Result<std::unique_ptr<BulkWriter>> NewBulkWriter(
      const std::string& table, const std::vector<std::string>& columns) = 0;
  // A bulk writer that is the only one to write `table`, which was created empty for this load
  // and holds nothing anyone else needs: the back end may take the table for itself until
  // Finish, which is called once, and commit everything there (PostgreSQL: TRUNCATE and
  // COPY FREEZE in one transaction; MariaDB: one transaction, InnoDB's bulk insert into an empty
  // table). Rows are not visible to others before Finish. The default is NewBulkWriter.
  virtual Result<std::unique_ptr<BulkWriter>> NewSoleBulkWriter(
      const std::string& table, const std::vector<std::string>& columns) {
    return NewBulkWriter(table, columns);
  }
  // What NewSoleBulkWriter's writers do and the session settings they use, in words, for the
  // record ("" when they are NewBulkWriter's).
  virtual std::string SoleBulkWriterSession() const { return ""; }
  // REQUIRES: capabilities().split_bulk_writers. One of several writers that load `table`
  // (created empty for this load, needed by no one else) at the same time, each with rows of
  // its own and on its own connection: like NewSoleBulkWriter, one transaction committed by
  // Finish and nothing visible before, but it never takes the table for itself, so the other
  // writers are not held up. The default says the back end has none.
  virtual Result<std::unique_ptr<BulkWriter>> NewSplitBulkWriter(
      const std::string& table, const std::vector<std::string>& /*columns*/) {
    return Status::FailedPrecondition("this database has no split bulk writers (for " + table +
                                      ")");
  }
  // The session settings NewSplitBulkWriter's writers use, in words, for the record.
  virtual std::string SplitBulkWriterSession() const { return ""; }
  // The same for NewBulkWriter's writers, where they do more than send rows in the back end's
  // ordinary way ("" otherwise).
  virtual std::string BulkWriterSession() const { return ""; }
  // Product, version and the settings worth recording with a result (it may connect).
  virtual Result<ServerInfo> Describe() = 0;
  // True when the database (file) exists; SQLite: the file exists and is non-empty. No Status:
  // "cannot tell" is false, and the Connect that follows says why.
  virtual bool Exists() = 0;
  // Takes the advisory lock that keeps two storebench processes that change or count the data
  // (load, run, verify) off one database, without waiting; `holder_text` says who holds it
  // (LockHolderText in base/file_lock.h). When another process holds it: FailedPrecondition whose
  // message is only that holder's description, as exactly as the back end can learn it. Other
  // failures (no server, no permission) keep their own codes; a connection that cannot be
  // established is the back end's db::ConnectError (backend/db/connect_error.h), as Connect's. The lock covers what the workload
  // tables live in: the SQLite file, the PostgreSQL schema, the MariaDB database. It is held by
  // the returned object (for a server, on a connection of its own) until that is destroyed.
  virtual Result<std::unique_ptr<DbLock>> TryLock(const std::string& holder_text) = 0;
  // Where the database's data would go and the space free there (StorageSpace); connects to a
  // server to ask for its data directory. The default cannot tell.
  virtual Result<StorageSpace> FreeSpace() {
    StorageSpace space;
    space.why_unknown = "this back end cannot tell how much space its database has";
    return space;
  }

  // Pristine copies (Capabilities::pristine_copy). The caller holds the database's storebench
  // lock, passed as `lock`, and has no connection of its own open to the database. A back end
  // that must close every session of the database to copy or replace it (PostgreSQL) releases
  // that lock for the moment and takes it again with `holder_text`; if another process took it
  // meanwhile, the call fails with FailedPrecondition naming that process.
  //
  // SavePristine copies the database as it is now to a place of storebench's own: SQLite the
  // file "<file>.storebench-pristine"; PostgreSQL and MariaDB the database "<name>_sbpristine",
  // marked as the copy of <name>. It replaces an earlier pristine copy of the same database,
  // never anything else: a database of that name that is not storebench's copy of this one is
  // refused. The database must hold a storebench workload (a storebench_meta table). Returns how
  // it copied, in words ("file copy (reflink)").
  virtual Result<std::string> SavePristine(std::unique_ptr<DbLock>* /*lock*/,
                                           const std::string& /*holder_text*/) {
    return Status::FailedPrecondition("this back end keeps no pristine copies");
  }
  // RestorePristine brings the database back to its pristine copy. Refused with
  // FailedPrecondition, nothing changed, when there is no pristine copy, when the copy's
  // storebench_meta differs from the database's (it was loaded again since), or when the
  // database holds tables the copy lacks (they would be lost). Returns how it restored, in
  // words.
  virtual Result<std::string> RestorePristine(std::unique_ptr<DbLock>* /*lock*/,
                                              const std::string& /*holder_text*/) {
    return Status::FailedPrecondition("this back end keeps no pristine copies");
  }
  // What runs of the database's workload write, told before RestorePristine; a back end whose
  // restore costs what the tables hold (MariaDB) restores only those tables. The default
  // ignores it.
  virtual void HintRunWrites(const RunWrites& /*writes*/) {}
};

}  // namespace sb::db

#endif  // STOREBENCH_INCLUDE_STOREBENCH_DB_H_
