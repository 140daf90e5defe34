#include "backend/db/sqlite/sqlite_backend.h"

#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "backend/db/call_interrupt.h"
#include "backend/db/pristine.h"
#include "backend/db/sqlite/sqlite_bulk_writer.h"
#include "backend/db/sqlite/sqlite_run_writes_restore.h"
#include "backend/db/sqlite/sqlite_status.h"
#include "backend/db/storage_space.h"
#include "base/file_copy.h"
#include "base/file_lock.h"

namespace sb::db {
namespace {

// The pragmas every storebench connection uses; recorded in the result by Describe(). They set
// per-connection state only and write nothing to the file.
constexpr const char* kConnectionPragmas =
    "PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON; PRAGMA cache_size=-65536; "
    "PRAGMA temp_store=MEMORY;";

class SqliteStatement final : public Statement {
 public:
  SqliteStatement(sqlite3* db, sqlite3_stmt* stmt) : db_(db), stmt_(stmt) {}
  ~SqliteStatement() override { sqlite3_finalize(stmt_); }

  // SQLite ignores bindings on a statement that has been stepped and not reset, so every bind
  // first makes sure the statement is reset.
  void BindInt(int i, int64_t v) override {
    Rewind();
    sqlite3_bind_int64(stmt_, i, v);
  }
  void BindDouble(int i, double v) override {
    Rewind();
    sqlite3_bind_double(stmt_, i, v);
  }
  void BindText(int i, std::string_view v) override {
    Rewind();
    sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
  }
  void BindNull(int i) override {
    Rewind();
    sqlite3_bind_null(stmt_, i);
  }

  Status Execute() override {
    Rewind();
    stepped_ = true;
    status_ = Status::Ok();
    // Step once: for writes this does the work; for queries it fetches the first row, which
    // Next() then returns without stepping again.
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) {
      pending_row_ = true;
      return Status::Ok();
    }
    pending_row_ = false;
    if (rc == SQLITE_DONE) {
      changes_ = sqlite3_changes(db_);
      Rewind();
      return Status::Ok();
    }
    status_ = SqliteError(db_, rc, "statement failed");
    Rewind();
    return status_;
  }

  bool Next() override {
    if (pending_row_) {
      pending_row_ = false;
      return true;
    }
    if (!stepped_ || !status_.ok()) return false;  // at the end, or never executed
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) status_ = SqliteError(db_, rc, "reading rows failed");
    Rewind();
    return false;
  }

  const Status& status() const override { return status_; }
  bool IsNull(int c) const override { return sqlite3_column_type(stmt_, c) == SQLITE_NULL; }
  int64_t GetInt(int c) const override { return sqlite3_column_int64(stmt_, c); }
  double GetDouble(int c) const override { return sqlite3_column_double(stmt_, c); }
  std::string_view GetText(int c) const override {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, c));
    return p ? std::string_view(p, sqlite3_column_bytes(stmt_, c)) : std::string_view();
  }
  void Reset() override { Rewind(); }
  // The interface's loop, here where Next() is known to be this final class's: a direct,
  // inlined call instead of a virtual one per row, and status() read in place (a point select
  // reads one row and the end: about 30 instructions fewer, callgrind, docs/driver-cost.md).
  Status DiscardRows() override {
    while (Next()) {
    }
    return status_;
  }
  int64_t RowsAffected() const override { return changes_; }

 private:
  // Resets the statement if it has been stepped: ends its read transaction and allows binds.
  void Rewind() {
    if (!stepped_) return;
    sqlite3_reset(stmt_);
    stepped_ = false;
    pending_row_ = false;
  }

  sqlite3* db_;
  sqlite3_stmt* stmt_;
  Status status_;
  bool stepped_ = false;
  bool pending_row_ = false;
  int64_t changes_ = 0;
};

class SqliteConnection final : public Connection {
 public:
  explicit SqliteConnection(sqlite3* db) : db_(db) {}
  ~SqliteConnection() override {
    if (interrupt_) interrupt_->Disarm();
    sqlite3_close_v2(db_);
  }

  // sqlite3_interrupt may be called from any thread while the connection is open (SQLite's
  // "Interrupt A Long-Running Query"); it also ends a wait in the busy handler.
  std::function<void()> Interrupter() override {
    if (!interrupt_) {
      sqlite3* db = db_;
      interrupt_ = std::make_shared<CallInterrupt>([db] { sqlite3_interrupt(db); });
    }
    return CallInterrupt::Callable(interrupt_);
  }

  Result<std::unique_ptr<Statement>> Prepare(std::string_view sql) override {
    sqlite3_stmt* stmt = nullptr;
    const int rc = sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()),
                                      SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
    if (rc != SQLITE_OK) return SqliteError(db_, rc, "cannot prepare '" + std::string(sql) + "'");
    return std::unique_ptr<Statement>(new SqliteStatement(db_, stmt));
  }

  Status ExecuteScript(std::string_view sql) override {
    std::string text(sql);
    char* err = nullptr;
    const int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &err);
    if (rc != SQLITE_OK) {
      std::string msg = err ? err : sqlite3_errstr(rc);
      sqlite3_free(err);
      return Status::Db(ClassifySqlite(rc), "SQL failed: " + msg, "", rc);
    }
    return Status::Ok();
  }

  Status Begin(bool write) override { return ExecuteScript(write ? "BEGIN IMMEDIATE" : "BEGIN"); }
  Status Commit() override { return ExecuteScript("COMMIT"); }
  Status Rollback() override {
    if (sqlite3_get_autocommit(db_)) return Status::Ok();  // nothing open
    return ExecuteScript("ROLLBACK");
  }
  int64_t LastInsertId() override { return sqlite3_last_insert_rowid(db_); }

  sqlite3* raw() { return db_; }

 private:
  sqlite3* db_;
  std::shared_ptr<CallInterrupt> interrupt_;
};

class FileDbLock final : public DbLock {
 public:
  explicit FileDbLock(std::unique_ptr<FileLock> lock) : lock_(std::move(lock)) {}

 private:
  std::unique_ptr<FileLock> lock_;
};

class SqliteBackend final : public DbBackend {
 public:
  // NewBulkWriter's writers commit about every this many rows.
  static constexpr int64_t kRowsPerTxn = 50000;

  // `path` as the user named it (for messages), `file` the file it names with every symbolic
  // link resolved (for everything done to the file: see ResolveDatabasePath).
  SqliteBackend(std::string path, std::string file, BackendOptions options)
      : path_(std::move(path)), file_(std::move(file)), options_(options) {
    caps_.full_text_search = true;
    caps_.stored_procedures = false;
    caps_.concurrent_writers = false;
    caps_.server = false;
    caps_.pristine_copy = true;
  }

  const Capabilities& capabilities() const override { return caps_; }
  std::string dialect() const override { return "sqlite"; }

  // SQLITE_OPEN_URI: "file:" names in ATTACH are URIs, so the restore attaches the pristine
  // copy immutable (RestoreSqliteRunWrites). file_ itself is an absolute path (it starts with
  // '/'), never taken for a URI (https://www.sqlite.org/uri.html).
  Result<std::unique_ptr<Connection>> Connect() override {
    sqlite3* db = nullptr;
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI;
    if (options_.create_if_missing) flags |= SQLITE_OPEN_CREATE;
    const int rc = sqlite3_open_v2(file_.c_str(), &db, flags, nullptr);
    if (rc != SQLITE_OK) {
      Status s = Status::Db(ErrorCategory::kConnectionLost,
                            "cannot open database file '" + path_ +
                                "': " + (db ? sqlite3_errmsg(db) : sqlite3_errstr(rc)),
                            "", rc);
      sqlite3_close_v2(db);
      return s;
    }
    sqlite3_busy_timeout(db, options_.busy_timeout_ms);
    auto conn = std::make_unique<SqliteConnection>(db);
    Status s = conn->ExecuteScript(kConnectionPragmas);
    if (s.ok()) s = UseWalIfNew(*conn);
    if (!s.ok()) {
      if ((s.native_code() & 0xff) == SQLITE_NOTADB) {
        return Status::FailedPrecondition("'" + path_ + "' is not an SQLite database");
      }
      if ((s.native_code() & 0xff) == SQLITE_BUSY) {
        return Status::FailedPrecondition("database file '" + path_ +
                                          "' is locked by another process");
      }
      return s;
    }
    return std::unique_ptr<Connection>(std::move(conn));
  }

  // WAL mode (concurrent readers beside the one writer) is a property of the file, kept once set
  // (https://www.sqlite.org/wal.html, "Persistence of WAL mode"), and setting it writes the file
  // header (bytes 18 and 19, https://www.sqlite.org/fileformat.html). So it is set only by a
  // connection that may create a database (load) on a file without any schema yet: a database
  // storebench loaded is in WAL mode already, and a file of someone else's stays byte for byte
  // as it was until the workload has looked at its storebench_meta and refused it. The check
  // reads the schema, which also tells a file that is not a database (SQLITE_NOTADB).
  Status UseWalIfNew(SqliteConnection& conn) {
    std::string mode;
    int64_t objects = 0;
    {
      auto stmt = conn.Prepare("PRAGMA journal_mode");
      if (!stmt.ok()) return stmt.status();
      SB_RETURN_IF_ERROR((*stmt)->Execute());
      if ((*stmt)->Next()) mode = std::string((*stmt)->GetText(0));
      SB_RETURN_IF_ERROR((*stmt)->status());
    }
    {
      auto stmt = conn.Prepare("SELECT count(*) FROM sqlite_master");
      if (!stmt.ok()) return stmt.status();
      SB_RETURN_IF_ERROR((*stmt)->Execute());
      if ((*stmt)->Next()) objects = (*stmt)->GetInt(0);
      SB_RETURN_IF_ERROR((*stmt)->status());
    }
    if (mode == "wal" || objects > 0 || !options_.create_if_missing) return Status::Ok();
    return conn.ExecuteScript("PRAGMA journal_mode=WAL");
  }

  Result<std::unique_ptr<BulkWriter>> NewBulkWriter(
      const std::string& table, const std::vector<std::string>& columns) override {
    return NewInserter(table, columns, kRowsPerTxn);
  }

  // The whole table in one transaction: it holds the database's write lock until Finish.
  Result<std::unique_ptr<BulkWriter>> NewSoleBulkWriter(
      const std::string& table, const std::vector<std::string>& columns) override {
    return NewInserter(table, columns, /*rows_per_txn=*/0);
  }

  std::string SoleBulkWriterSession() const override {
    return "one transaction per table: synchronous = OFF, foreign_keys = OFF";
  }
  std::string BulkWriterSession() const override {
    return "INSERTs of up to " + std::to_string(SqliteBulkWriterRowsPerStatement()) +
           " rows, fields bound in place: synchronous = OFF, foreign_keys = OFF";
  }

  Result<ServerInfo> Describe() override {
    ServerInfo info;
    info.product = "SQLite";
    info.version = sqlite3_libversion();
    auto conn = Connect();
    if (!conn.ok()) return conn.status();
    for (const char* pragma :
         {"journal_mode", "synchronous", "page_size", "cache_size", "foreign_keys", "temp_store"}) {
      auto stmt = (*conn)->Prepare(std::string("PRAGMA ") + pragma);
      if (!stmt.ok()) continue;
      if ((*stmt)->Execute().ok() && (*stmt)->Next()) {
        info.settings[pragma] = std::string((*stmt)->GetText(0));
      }
    }
    info.settings["busy_timeout_ms"] = std::to_string(options_.busy_timeout_ms);
    info.settings["fts5"] = sqlite3_compileoption_used("ENABLE_FTS5") ? "yes" : "no";
    return info;
  }

  bool Exists() override {
    struct stat st {};
    return ::stat(file_.c_str(), &st) == 0 && st.st_size > 0;
  }

  // The file system of the file's directory; the file, its WAL and its journal count as used
  // (a load with --force replaces them).
  Result<StorageSpace> FreeSpace() override {
    StorageSpace space =
        SpaceOfDirectory(std::filesystem::path(file_).parent_path().lexically_normal().string());
    for (const char* suffix : {"", "-wal", "-journal"}) {
      struct stat st {};
      if (::stat((file_ + suffix).c_str(), &st) == 0) space.used_bytes += st.st_size;
    }
    return space;
  }

  // An flock on "<file>.storebench-lock", which also holds the holder's words. Not a lock on the
  // database file itself: SQLite locks byte ranges of it with POSIX locks
  // (https://www.sqlite.org/lockingv3.html), and where flock is emulated with POSIX locks (NFS)
  // an flock there would collide with SQLite's own; the load may also create the file after
  // the lock is taken. The lock is the real file's: its name comes from the path with every
  // symbolic link resolved, so a load through a link finds the lock of a run through another
  // name. A hard link cannot be told from a file of its own by its name, so a database file
  // with more than one (st_nlink > 1) is refused here, before any command uses it; SQLite
  // itself warns against several names for one database, which then gets a journal per name
  // (https://www.sqlite.org/howtocorrupt.html, "Multiple links to the same file").
  Result<std::unique_ptr<DbLock>> TryLock(const std::string& holder_text) override {
    struct stat st {};
    if (::stat(file_.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink > 1) {
      return Status::FailedPrecondition(
          "database file '" + path_ + "' has " + std::to_string(st.st_nlink) +
          " hard links: storebench cannot tell whether another process uses it under another "
          "name, and SQLite keeps a journal per name; remove the other links or copy the file");
    }
    auto lock = TryLockFile(file_ + ".storebench-lock", holder_text);
    if (!lock.ok()) return lock.status();
    return std::unique_ptr<DbLock>(new FileDbLock(std::move(lock).value()));
  }

  // The pristine copy is the file "<file>.storebench-pristine", copied whole (a reflink where
  // the file system has them). The database is checkpointed first, so its main file holds every
  // committed change and its write-ahead log is empty: a copy of the main file is the database.
  Result<std::string> SavePristine(std::unique_ptr<DbLock>* /*lock*/,
                                   const std::string& /*holder_text*/) override {
    auto live = Checkpoint(path_);
    if (!live.ok()) return live.status();
    SB_RETURN_IF_ERROR(CheckIsStorebenchDatabase(*live, "'" + path_ + "'"));
    const std::string pristine = PristinePath();
    const std::string tmp = pristine + ".tmp";
    ::unlink(tmp.c_str());  // left by a copy that did not finish
    auto copied = CopyWholeFile(file_, tmp);
    if (!copied.ok()) return copied.status();
    SB_RETURN_IF_ERROR(RenameDurably(tmp, pristine));
    return std::string(copied->reflink ? "file copy (reflink)" : "file copy");
  }

  // Where the workload says what its runs write (HintRunWrites) and the database is of that
  // workload, and the file system has no reflinks (a reflink copies nothing: the whole file is
  // then as cheap), only that is brought back from the copy, attached, in one transaction
  // (RestoreSqliteRunWrites): its time is that of the run's rows, not of the file's size (4.2 GB
  // at DVD Store M: docs/consolidation.md). Otherwise, or should that fail (nothing changed),
  // the whole copy: it replaces the file by a rename, so a reader never sees half a database
  // and a crash leaves either the old file or the restored one. The write-ahead log and
  // shared-memory index belong to the old file: the old file is checkpointed first (its log is
  // then empty), and both are removed after the rename. Through a symbolic link it is the
  // link's target that is replaced (file_), never the link.
  Result<std::string> RestorePristine(std::unique_ptr<DbLock>* /*lock*/,
                                      const std::string& /*holder_text*/) override {
    const std::string pristine = PristinePath();
    struct stat st {};
    if (::stat(pristine.c_str(), &st) != 0) {
      return Status::FailedPrecondition("'" + path_ + "' has no pristine copy ('" + pristine +
                                        "' does not exist)");
    }
    auto kept = ReadOnlyFingerprint(pristine);
    if (!kept.ok()) return kept.status();
    auto live = Checkpoint(path_);
    if (!live.ok()) return live.status();
    SB_RETURN_IF_ERROR(CheckRestorable(*live, *kept, "'" + path_ + "'"));
    const std::string tmp = file_ + ".storebench-restore";
    ::unlink(tmp.c_str());
    std::string why_whole;
    if (RunWritesApply(hint_, *live)) {
      auto cloned = CloneWholeFile(pristine, tmp);
      if (!cloned.ok()) return cloned.status();
      if (cloned->reflink) return ReplaceWith(tmp, "file copy (reflink)");
      auto rows = RestoreRunWrites(pristine, kept->tables);
      if (rows.ok()) return rows;
      why_whole = " (the restore of what runs write stopped: " + rows.status().message() + ")";
    }
    auto copied = CopyWholeFile(pristine, tmp);
    if (!copied.ok()) return copied.status();
    return ReplaceWith(
        tmp, std::string(copied->reflink ? "file copy (reflink)" : "file copy") + why_whole);
  }

  void HintRunWrites(const RunWrites& writes) override { hint_ = writes; }

 private:
  Result<std::unique_ptr<BulkWriter>> NewInserter(const std::string& table,
                                                  const std::vector<std::string>& columns,
                                                  int64_t rows_per_txn) {
    auto conn = Connect();
    if (!conn.ok()) return conn.status();
    // The loader owns this connection alone; relax durability for speed (a crash mid-load
    // leaves a database that load --force replaces anyway). Tables load in parallel in any
    // order, so foreign keys are not checked row by row (as DVD Store's loaders disable them).
    SB_RETURN_IF_ERROR((*conn)->ExecuteScript("PRAGMA synchronous=OFF; PRAGMA foreign_keys=OFF;"));
    sqlite3* db = static_cast<SqliteConnection&>(**conn).raw();
    return NewSqliteBulkWriter(std::move(conn).value(), db, table, columns, rows_per_txn);
  }

  std::string PristinePath() const { return file_ + ".storebench-pristine"; }

  Result<std::string> RestoreRunWrites(const std::string& pristine,
                                       const std::vector<std::string>& tables) {
    auto conn = Connect();
    if (!conn.ok()) return conn.status();
    return RestoreSqliteRunWrites(**conn, pristine, *hint_, tables);
  }

  // `tmp`, a whole copy of the pristine file, renamed over the database; the old file's log and
  // shared-memory index removed after.
  Result<std::string> ReplaceWith(const std::string& tmp, std::string method) {
    SB_RETURN_IF_ERROR(RenameDurably(tmp, file_));
    ::unlink((file_ + "-wal").c_str());
    ::unlink((file_ + "-shm").c_str());
    return method;
  }

  // The fingerprint of the database at `path` after a full checkpoint (TRUNCATE: the log is
  // emptied, https://www.sqlite.org/pragma.html#pragma_wal_checkpoint).
  Result<DbFingerprint> Checkpoint(const std::string& path) {
    auto conn = Connect();
    if (!conn.ok()) return conn.status();
    auto fp = ReadFingerprint(**conn, kTablesSql, kMetaSql);
    if (!fp.ok()) return fp.status();
    auto stmt = (*conn)->Prepare("PRAGMA wal_checkpoint(TRUNCATE)");
    if (!stmt.ok()) return stmt.status();
    SB_RETURN_IF_ERROR((*stmt)->Execute());
    // One row: busy (1 when a reader or writer kept it from finishing), log pages, checkpointed.
    if ((*stmt)->Next() && (*stmt)->GetInt(0) != 0) {
      return Status::FailedPrecondition("'" + path +
                                        "' is in use by another process (its log could not be "
                                        "checkpointed); close it and try again");
    }
    SB_RETURN_IF_ERROR((*stmt)->status());
    return fp;
  }

  // The fingerprint of a file nobody writes, opened without creating its -wal/-shm files
  // (immutable=1: https://www.sqlite.org/uri.html#uriimmutable; a '?', '#' or '%' in the name
  // percent-encoded, else it would end the name).
  static Result<DbFingerprint> ReadOnlyFingerprint(const std::string& path) {
    sqlite3* db = nullptr;
    const std::string uri = SqliteImmutableUri(path);
    const int rc =
        sqlite3_open_v2(uri.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
    SqliteConnection conn(db);  // closes it
    if (rc != SQLITE_OK) {
      return Status::FailedPrecondition("cannot open the pristine copy '" + path +
                                        "': " + (db ? sqlite3_errmsg(db) : sqlite3_errstr(rc)));
    }
    return ReadFingerprint(conn, kTablesSql, kMetaSql);
  }

  static constexpr const char* kTablesSql =
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'";
  static constexpr const char* kMetaSql = "SELECT key, value FROM storebench_meta";

  std::string path_;
  std::string file_;
  BackendOptions options_;
  Capabilities caps_;
  std::optional<RunWrites> hint_;
};

// SQLite's process-wide settings, made once before its first use (sqlite3_config works only
// before sqlite3_initialize: https://www.sqlite.org/c3ref/config.html). MEMSTATUS off: with it
// on (the default) every sqlite3_malloc and sqlite3_free takes a global mutex to keep the
// memory statistics, which storebench never reads; in `perf record` of an S load the lock and
// unlock were 8-9 % of the CPU.
void ConfigureSqliteOnce() {
  static std::once_flag once;
  std::call_once(once, [] { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); });
}

// The database file `path` names, with every symbolic link resolved: the lock, the pristine
// copy and a restore's rename all act on the real file, whichever name a command was given
// (SQLite resolves links itself for its -wal and -shm files). A file not there yet (a load
// creates it) is its resolved directory and its name; a link whose target is not there (or a
// loop) is refused, as a load through it would create a file somewhere else.
Result<std::string> ResolveDatabasePath(const std::string& path, bool exists) {
  struct stat lst {};
  const bool link = ::lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode);
  if (link && !exists) {
    return Status::InvalidArgument("database path '" + path +
                                   "' is a symbolic link to a file that does not exist (or a "
                                   "loop of links); name the file itself");
  }
  std::error_code ec;
  std::filesystem::path real;
  if (exists) {
    real = std::filesystem::canonical(path, ec);
  } else {
    const std::filesystem::path p(path);
    const std::filesystem::path dir = p.parent_path().empty() ? "." : p.parent_path();
    real = std::filesystem::canonical(dir, ec) / p.filename();
  }
  if (ec) {
    return Status::InvalidArgument("cannot resolve the database path '" + path +
                                   "': " + ec.message());
  }
  return real.string();
}

}  // namespace

Result<std::unique_ptr<DbBackend>> OpenSqlite(const DbUrl& url, const BackendOptions& options) {
  ConfigureSqliteOnce();
  struct stat st {};
  const bool exists = ::stat(url.database.c_str(), &st) == 0;
  if (!exists && !options.create_if_missing) {
    return Status::NotFound("database file '" + url.database +
                            "' does not exist; create it with 'storebench oltp load'");
  }
  if (exists && S_ISDIR(st.st_mode)) {
    return Status::InvalidArgument("database path '" + url.database + "' is a directory");
  }
  if (!exists) {
    // A load creates the database file, never the directory it goes in, as sqlite3 does ("unable
    // to open database file"): a directory that is not there is most often a mistyped path, and
    // a load into it would leave a tree nobody asked for.
    const std::filesystem::path dir = std::filesystem::path(url.database).parent_path();
    struct stat dir_st {};
    if (!dir.empty() && ::stat(dir.c_str(), &dir_st) != 0) {
      return Status::InvalidArgument("the directory '" + dir.string() +
                                     "' of the database file does not exist; storebench creates "
                                     "the file, not its directory (as sqlite3 does): create it "
                                     "first (mkdir -p '" +
                                     dir.string() + "') or fix the path");
    }
    if (!dir.empty() && !S_ISDIR(dir_st.st_mode)) {
      return Status::InvalidArgument("'" + dir.string() +
                                     "', where the database file would go, is not a directory");
    }
  }
  auto file = ResolveDatabasePath(url.database, exists);
  if (!file.ok()) return file.status();
  return std::unique_ptr<DbBackend>(new SqliteBackend(url.database, *file, options));
}

}  // namespace sb::db
