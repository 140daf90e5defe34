#include "backend/db/mysql/mysql_backend.h"

#include <mysql.h>
#include <strings.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "backend/db/bulk_text.h"
#include "backend/db/call_interrupt.h"
#include "backend/db/connect_error.h"
#include "backend/db/mysql/my_util.h"
#include "backend/db/mysql/schema_statements.h"
#include "backend/db/pristine.h"
#include "backend/db/storage_space.h"
#include "base/call_deadline.h"

namespace sb::db {

ErrorCategory ClassifyMysqlError(unsigned int code) {
  switch (code) {
    case 1213:  // ER_LOCK_DEADLOCK
      return ErrorCategory::kDeadlock;
    case 1205:  // ER_LOCK_WAIT_TIMEOUT
    case 1317:  // ER_QUERY_INTERRUPTED
    case 1969:  // ER_STATEMENT_TIMEOUT (max_statement_time)
    case 3024:  // MySQL max_execution_time
      return ErrorCategory::kTimeout;
    case 1020:  // ER_CHECKREAD: record changed since last read (snapshot isolation)
    case 1412:  // ER_TABLE_DEF_CHANGED
      return ErrorCategory::kSerialization;
    case 1022:  // ER_DUP_KEY
    case 1048:  // ER_BAD_NULL_ERROR
    case 1062:  // ER_DUP_ENTRY
    case 1216:  // ER_NO_REFERENCED_ROW
    case 1217:  // ER_ROW_IS_REFERENCED
    case 1451:  // ER_ROW_IS_REFERENCED_2
    case 1452:  // ER_NO_REFERENCED_ROW_2
    case 1557:  // ER_FOREIGN_DUPLICATE_KEY
    case 1586:  // ER_DUP_ENTRY_WITH_KEY_NAME
    case 4025:  // ER_CONSTRAINT_FAILED (CHECK)
      return ErrorCategory::kConstraint;
    case 1053:  // ER_SERVER_SHUTDOWN
    case 1927:  // ER_CONNECTION_KILLED
    case 2002:  // CR_CONNECTION_ERROR
    case 2003:  // CR_CONN_HOST_ERROR
    case 2006:  // CR_SERVER_GONE_ERROR
    case 2013:  // CR_SERVER_LOST
    case 2055:  // CR_SERVER_LOST_EXTENDED
    case 4031:  // ER_CLIENT_INTERACTION_TIMEOUT
      return ErrorCategory::kConnectionLost;
    case 1054:  // ER_BAD_FIELD_ERROR
    case 1064:  // ER_PARSE_ERROR
    case 1146:  // ER_NO_SUCH_TABLE
    case 1149:  // ER_SYNTAX_ERROR
    case 1305:  // ER_SP_DOES_NOT_EXIST
    case 1109:  // ER_UNKNOWN_TABLE
      return ErrorCategory::kSyntax;
    default:
      return ErrorCategory::kOther;
  }
}

namespace {

using my::ConnError;
using my::QueryValue;
using my::Quoted;

// One client library initialization per process (mysql_library_init is not thread-safe).
void InitLibrary() {
  static std::once_flag once;
  std::call_once(once, [] { mysql_library_init(0, nullptr, nullptr); });
}

Status StmtError(MYSQL_STMT* s, std::string_view what) {
  const unsigned int code = mysql_stmt_errno(s);
  return Status::Db(ClassifyMysqlError(code), std::string(what) + ": " + mysql_stmt_error(s),
                    mysql_stmt_sqlstate(s), static_cast<int>(code));
}

// A connection shared by the Connection and the statements it prepared, so a statement that
// outlives its Connection object stays safe.
struct MyConn {
  MYSQL* mysql = nullptr;
  int64_t last_insert_id = 0;
  // When this connection last read the server counters (steady clock), for "other_sessions".
  std::chrono::steady_clock::time_point counters_read_at{};
  // Shuts down the connection's socket (backend/db/call_interrupt.h).
  std::shared_ptr<CallInterrupt> interrupt;
  ~MyConn() {
    if (interrupt) interrupt->Disarm();
    if (mysql) mysql_close(mysql);
  }
};

// Runs one or more statements, discarding every result; the first error ends it.
Status Query(MYSQL* m, std::string_view sql, std::string_view what) {
  if (mysql_real_query(m, sql.data(), static_cast<unsigned long>(sql.size())) != 0) {
    return ConnError(m, what);
  }
  for (;;) {
    if (MYSQL_RES* res = mysql_store_result(m))
      mysql_free_result(res);
    else if (mysql_field_count(m) != 0)
      return ConnError(m, what);
    const int next = mysql_next_result(m);
    if (next == -1) break;  // no more results
    if (next > 0) return ConnError(m, what);
  }
  return Status::Ok();
}

class MyStatement final : public Statement {
 public:
  MyStatement(std::shared_ptr<MyConn> conn, MYSQL_STMT* stmt)
      : conn_(std::move(conn)), stmt_(stmt) {
    const unsigned long n = mysql_stmt_param_count(stmt_);
    params_.resize(n);
    binds_.resize(n);
  }
  ~MyStatement() override { mysql_stmt_close(stmt_); }

  void BindInt(int i, int64_t v) override {
    if (Param* p = At(i)) {
      SetType(p, MYSQL_TYPE_LONGLONG);
      p->i = v;
    }
  }
  void BindDouble(int i, double v) override {
    if (Param* p = At(i)) {
      SetType(p, MYSQL_TYPE_DOUBLE);
      p->d = v;
    }
  }
  void BindText(int i, std::string_view v) override {
    if (Param* p = At(i)) {
      SetType(p, MYSQL_TYPE_STRING);
      const char* before = p->s.data();
      p->s.assign(v);
      p->len = p->s.size();  // read through MYSQL_BIND::length at each execute
      if (p->s.data() != before) params_bound_ = false;  // the buffer moved
    }
  }
  void BindNull(int i) override {
    if (Param* p = At(i)) SetType(p, MYSQL_TYPE_NULL);
  }

  Status Execute() override {
    Reset();
    // The library reads the bound buffers at each execute, so the binding is given again only
    // when a type or a text buffer changed (as sysbench binds once): mysql_stmt_bind_param
    // costs ~120 instructions per statement (callgrind, bench/driver_instructions.sh).
    if (!params_bound_ && !BindParams()) {
      return status_ = StmtError(stmt_, "binding parameters failed");
    }
    if (mysql_stmt_execute(stmt_) != 0) return status_ = StmtError(stmt_, "statement failed");
    status_ = Status::Ok();
    const unsigned int ncols = mysql_stmt_field_count(stmt_);
    if (ncols == 0) {
      affected_ = static_cast<int64_t>(mysql_stmt_affected_rows(stmt_));
      const auto id = static_cast<int64_t>(mysql_stmt_insert_id(stmt_));
      if (id != 0) conn_->last_insert_id = id;
      return status_ = DrainResults();
    }
    if (mysql_stmt_store_result(stmt_) != 0)
      return status_ = StmtError(stmt_, "reading rows failed");
    has_result_ = true;
    results_bound_ = false;  // bound by the first Next(): DiscardRows needs no buffers
    return status_;
  }

  bool Next() override {
    if (!has_result_) return false;
    if (!results_bound_) {
      if (!BindResults()) {
        status_ = StmtError(stmt_, "binding result columns failed");
        Reset();
        return false;
      }
      results_bound_ = true;
    }
    const int rc = mysql_stmt_fetch(stmt_);
    if (rc == MYSQL_NO_DATA) {
      mysql_stmt_free_result(stmt_);
      has_result_ = false;
      status_ = DrainResults();
      return false;
    }
    if (rc == 1) {
      status_ = StmtError(stmt_, "reading rows failed");
      Reset();
      return false;
    }
    for (unsigned int c = 0; c < cols_.size(); ++c) {
      Column& col = cols_[c];
      if (rc == MYSQL_DATA_TRUNCATED && col.truncated) {
        // Grow the buffer and fetch the whole value again into it.
        std::vector<char> big(col.len + 1);
        MYSQL_BIND b;
        std::memset(&b, 0, sizeof b);
        b.buffer_type = MYSQL_TYPE_STRING;
        b.buffer = big.data();
        b.buffer_length = col.len;
        unsigned long len = 0;
        b.length = &len;
        mysql_stmt_fetch_column(stmt_, &b, c, 0);
        col.big.assign(big.data(), len);
        col.use_big = true;
      } else {
        col.use_big = false;
        col.buf[std::min<size_t>(col.len, col.buf.size() - 1)] = '\0';
      }
    }
    return true;
  }

  const Status& status() const override { return status_; }
  bool IsNull(int c) const override { return cols_[c].is_null != 0; }
  int64_t GetInt(int c) const override { return std::strtoll(Text(c), nullptr, 10); }
  double GetDouble(int c) const override { return std::strtod(Text(c), nullptr); }
  std::string_view GetText(int c) const override {
    const Column& col = cols_[c];
    if (col.is_null) return {};
    if (col.use_big) return col.big;
    return std::string_view(col.buf.data(), std::min<size_t>(col.len, col.buf.size() - 1));
  }
  void Reset() override {
    if (has_result_) {
      mysql_stmt_free_result(stmt_);
      has_result_ = false;
      DrainResults().IgnoreError();
    }
  }
  // mysql_stmt_store_result (in Execute) received every row already.
  Status DiscardRows() override {
    if (has_result_) {
      mysql_stmt_free_result(stmt_);
      has_result_ = false;
      status_ = DrainResults();
    }
    return status_;
  }
  int64_t RowsAffected() const override { return affected_; }

 private:
  static constexpr size_t kInitialColumnBytes = 256;
  struct Param {
    enum_field_types type = MYSQL_TYPE_NULL;
    int64_t i = 0;
    double d = 0;
    std::string s;
    unsigned long len = 0;
  };
  struct Column {
    std::vector<char> buf;
    unsigned long len = 0;
    my_bool is_null = 0;
    my_bool truncated = 0;
    std::string big;
    bool use_big = false;
  };
  Param* At(int i) {
    if (i < 1 || i > static_cast<int>(params_.size())) return nullptr;
    return &params_[i - 1];
  }
  void SetType(Param* p, enum_field_types type) {
    if (p->type != type) params_bound_ = false;
    p->type = type;
  }
  bool BindParams() {
    for (size_t i = 0; i < params_.size(); ++i) {
      Param& p = params_[i];
      MYSQL_BIND& b = binds_[i];
      std::memset(&b, 0, sizeof b);
      b.buffer_type = p.type;
      switch (p.type) {
        case MYSQL_TYPE_LONGLONG:
          b.buffer = &p.i;
          break;
        case MYSQL_TYPE_DOUBLE:
          b.buffer = &p.d;
          break;
        case MYSQL_TYPE_STRING:
          b.buffer = p.s.data();
          b.buffer_length = p.len;
          b.length = &p.len;
          break;
        default:
          b.buffer_type = MYSQL_TYPE_NULL;
      }
    }
    if (!binds_.empty() && mysql_stmt_bind_param(stmt_, binds_.data()) != 0) return false;
    params_bound_ = true;
    return true;
  }
  // Binds every column of the current result as text into the columns' reused buffers.
  bool BindResults() {
    const unsigned int ncols = mysql_stmt_field_count(stmt_);
    if (cols_.size() != ncols) {
      cols_.assign(ncols, Column());
      out_.assign(ncols, MYSQL_BIND());
    }
    for (unsigned int c = 0; c < ncols; ++c) {
      Column& col = cols_[c];
      if (col.buf.size() < kInitialColumnBytes) col.buf.resize(kInitialColumnBytes);
      MYSQL_BIND& b = out_[c];
      std::memset(&b, 0, sizeof b);
      b.buffer_type = MYSQL_TYPE_STRING;
      b.buffer = col.buf.data();
      b.buffer_length = col.buf.size() - 1;  // room for a terminating NUL
      b.length = &col.len;
      b.is_null = &col.is_null;
      b.error = &col.truncated;
    }
    return mysql_stmt_bind_result(stmt_, out_.data()) == 0;
  }
  // A CALL answers with its procedure's result sets and then a final status; the connection
  // accepts no other command until all of them are read. Only the first result set is offered
  // to the caller (storebench's procedures return one); the rest are discarded here. An error
  // raised by the procedure after its first result set arrives here.
  Status DrainResults() {
    while (mysql_stmt_more_results(stmt_)) {
      if (mysql_stmt_next_result(stmt_) > 0) return StmtError(stmt_, "statement failed");
      if (mysql_stmt_field_count(stmt_) > 0) mysql_stmt_free_result(stmt_);
    }
    return Status::Ok();
  }
  const char* Text(int c) const {
    const Column& col = cols_[c];
    if (col.is_null) return "0";
    return col.use_big ? col.big.c_str() : col.buf.data();
  }

  std::shared_ptr<MyConn> conn_;
  MYSQL_STMT* stmt_;
  std::vector<Param> params_;
  std::vector<MYSQL_BIND> binds_;
  std::vector<Column> cols_;
  std::vector<MYSQL_BIND> out_;
  bool has_result_ = false;
  bool params_bound_ = false;   // binds_ describe params_ as they are and are given
  bool results_bound_ = false;  // out_ is bound for the current result
  int64_t affected_ = 0;
  Status status_;
};

class MyConnection final : public Connection {
 public:
  explicit MyConnection(std::shared_ptr<MyConn> conn) : conn_(std::move(conn)) {}

  std::function<void()> Interrupter() override {
    if (!conn_->interrupt) {
      conn_->interrupt = SocketInterrupt(static_cast<int>(mysql_get_socket(conn_->mysql)));
    }
    return CallInterrupt::Callable(conn_->interrupt);
  }

  Result<std::unique_ptr<Statement>> Prepare(std::string_view sql) override {
    MYSQL_STMT* stmt = mysql_stmt_init(conn_->mysql);
    if (stmt == nullptr) return ConnError(conn_->mysql, "cannot create a statement");
    if (mysql_stmt_prepare(stmt, sql.data(), static_cast<unsigned long>(sql.size())) != 0) {
      Status s = StmtError(stmt, "cannot prepare '" + std::string(sql) + "'");
      mysql_stmt_close(stmt);
      return s;
    }
    return std::unique_ptr<Statement>(new MyStatement(conn_, stmt));
  }

  Status ExecuteScript(std::string_view sql) override {
    return Query(conn_->mysql, sql, "SQL failed");
  }
  Status Begin(bool /*write*/) override {
    return Query(conn_->mysql, "START TRANSACTION", "START TRANSACTION failed");
  }
  Status Commit() override {
    if (mysql_commit(conn_->mysql) != 0) return ConnError(conn_->mysql, "COMMIT failed");
    return Status::Ok();
  }
  Status Rollback() override {
    if (mysql_rollback(conn_->mysql) != 0) return ConnError(conn_->mysql, "ROLLBACK failed");
    return Status::Ok();
  }
  int64_t LastInsertId() override { return conn_->last_insert_id; }
  Result<std::vector<ServerCounter>> ServerCounters() override;

 private:
  std::shared_ptr<MyConn> conn_;
};

// The SHOW GLOBAL STATUS counters storebench records, with their meanings. Com_<kind> counts
// statements of that kind however they arrive (text or binary protocol: a prepared statement's
// executions count both here and in Com_stmt_execute); Com_commit and Com_rollback count COMMIT
// and ROLLBACK statements (autocommit statements are in neither).
constexpr std::pair<const char*, const char*> kStatusCounters[] = {
    {"Com_begin", "statements.begin"},
    {"Com_commit", "commits"},
    {"Com_rollback", "rollbacks"},
    {"Com_select", "statements.select"},
    {"Com_insert", "statements.insert"},
    {"Com_update", "statements.update"},
    {"Com_delete", "statements.delete"},
    {"Com_stmt_prepare", ""},
    {"Com_stmt_execute", ""},
    // MySQL and MariaDB before 10.6 only; later MariaDB dropped them.
    {"Innodb_rows_inserted", "rows_inserted"},
    {"Innodb_rows_updated", "rows_updated"},
    {"Innodb_rows_deleted", "rows_deleted"},
    // Row operations of every storage engine, internal temporary tables included, so shown
    // only.
    {"Handler_write", ""},
    {"Handler_update", ""},
    {"Handler_delete", ""},
    {"Questions", ""},
    {"Connections", "connections"},
};

Result<std::vector<ServerCounter>> MyConnection::ServerCounters() {
  std::string sql = "SHOW GLOBAL STATUS WHERE Variable_name IN (";
  for (const auto& [name, meaning] : kStatusCounters) {
    sql += std::string(sql.back() == '(' ? "'" : ", '") + name + "'";
  }
  sql += ")";
  MYSQL* m = conn_->mysql;
  // Where performance_schema counts the run's schema's BEGIN, COMMIT and ROLLBACK statements,
  // those stand in for the global ones, which are compared only when the schema's counts missed
  // statements during the span (schema_statements.h; ServerCounter::replaced_by). Its
  // SELECTs count in the global Com_select: on a connection's first reading (the start of a
  // span) they come before SHOW GLOBAL STATUS, on later ones (its end) after, so they fall
  // outside the span the global counters measure, as the workload's probe does.
  const bool first = conn_->counters_read_at == std::chrono::steady_clock::time_point{};
  std::vector<ServerCounter> own;
  bool per_schema = false;
  auto read_own = [&]() -> Status {
    std::string schema;
    per_schema = SchemaStatementsReadable(m, &schema);
    if (!per_schema) return Status::Ok();
    auto counts = ReadSchemaStatements(m, schema);
    if (!counts.ok()) return counts.status();
    own = std::move(counts).value();
    return Status::Ok();
  };
  if (first) SB_RETURN_IF_ERROR(read_own());
  if (mysql_real_query(m, sql.data(), static_cast<unsigned long>(sql.size())) != 0) {
    return ConnError(m, "cannot read server counters");
  }
  MYSQL_RES* res = mysql_store_result(m);
  if (res == nullptr) return ConnError(m, "cannot read server counters");
  std::map<std::string, int64_t> values;
  while (MYSQL_ROW row = mysql_fetch_row(res)) {
    if (row[0] && row[1]) values[row[0]] = std::strtoll(row[1], nullptr, 10);
  }
  mysql_free_result(res);
  if (!first) SB_RETURN_IF_ERROR(read_own());
  std::vector<ServerCounter> out;
  const std::string replaced_by = own.empty() ? "" : own[0].source;
  auto by_schema = [&](const char* name) {
    return per_schema &&
           (strcasecmp(name, "Com_begin") == 0 || strcasecmp(name, "Com_commit") == 0 ||
            strcasecmp(name, "Com_rollback") == 0);
  };
  // In the table's order; a counter this server does not have is left out. Every one counts
  // the whole server's work (global status).
  for (const auto& [name, meaning] : kStatusCounters) {
    // Variable_name matches case-insensitively; MariaDB answers in its own case.
    for (const auto& [got, value] : values) {
      if (strcasecmp(got.c_str(), name) != 0) continue;
      out.push_back({name, meaning, value, true, "SHOW GLOBAL STATUS (server-wide)",
                     by_schema(name) ? replaced_by : ""});
    }
  }
  for (ServerCounter& c : own) out.push_back(std::move(c));
  // Sessions other than this one that worked since its previous reading: their last command
  // ended or their current one began in that time (TIME_MS), or they are still running one,
  // except a storebench lock's waiter, which waits in GET_LOCK ("User lock") from before the run
  // to its end. Server threads (no USER, or Daemon) are no clients.
  const auto now = std::chrono::steady_clock::now();
  if (conn_->counters_read_at != std::chrono::steady_clock::time_point{}) {
    const auto since_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(now - conn_->counters_read_at)
            .count();
    const std::string others =
        "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID <> CONNECTION_ID() AND "
        "COMMAND NOT IN ('Daemon', 'Binlog Dump', 'Slave_IO', 'Slave_SQL', 'Slave_worker') AND "
        "USER NOT IN ('', 'system user', 'event_scheduler') AND (TIME_MS < " +
        std::to_string(since_ms) +
        " OR (COMMAND <> 'Sleep' AND COALESCE(STATE, '') <> 'User lock'))";
    // A session closed just now (the run's own workers, right before the end reading) leaves
    // the list a moment after its client returned (mysql_close does not wait): asked again for
    // up to a second, only sessions that stay are counted.
    int64_t count = 0;
    for (int i = 0; i < 10; ++i) {
      auto n = QueryValue(m, others, "cannot read the process list");
      if (!n.ok()) return n.status();
      count = std::strtoll(n->c_str(), nullptr, 10);
      if (count == 0) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    out.push_back(
        {"other_sessions", "other_sessions", count, true, "information_schema.PROCESSLIST"});
  }
  conn_->counters_read_at = now;
  return out;
}

// The local-infile handler: LOAD DATA LOCAL INFILE reads the buffered rows from memory.
struct InfileSource {
  const std::string* data = nullptr;
  size_t pos = 0;
};
int InfileInit(void** ptr, const char*, void* userdata) {
  *ptr = userdata;
  return 0;
}
int InfileRead(void* ptr, char* buf, unsigned int len) {
  auto* src = static_cast<InfileSource*>(ptr);
  const size_t n = std::min<size_t>(len, src->data->size() - src->pos);
  std::memcpy(buf, src->data->data() + src->pos, n);
  src->pos += n;
  return static_cast<int>(n);
}
void InfileEnd(void*) {}
int InfileError(void*, char* msg, unsigned int len) {
  std::snprintf(msg, len, "storebench bulk load stream error");
  return 2000;  // CR_UNKNOWN_ERROR
}

class MyBulkWriter final : public BulkWriter {
 public:
  static constexpr size_t kFlushBytes = 4 << 20;
  // `commit`: the statements run in one transaction of the writer's own (autocommit off),
  // committed by Finish.
  MyBulkWriter(std::shared_ptr<MyConn> conn, std::string table, std::vector<std::string> columns,
               bool commit)
      : conn_(std::move(conn)),
        table_(std::move(table)),
        ncols_(static_cast<int>(columns.size())),
        commit_(commit) {
    sql_ = "LOAD DATA LOCAL INFILE 'storebench-stream' INTO TABLE " + table_ +
           " CHARACTER SET utf8mb4 (";
    for (size_t i = 0; i < columns.size(); ++i) sql_ += (i ? "," : "") + columns[i];
    sql_ += ")";
    buf_.reserve(kFlushBytes + 4096);
  }

  Status AddRow(const std::vector<std::string_view>& fields) override {
    if (static_cast<int>(fields.size()) != ncols_) {
      return Status::Internal("bulk row has " + std::to_string(fields.size()) +
                              " fields, table has " + std::to_string(ncols_));
    }
    for (size_t i = 0; i < fields.size(); ++i) {
      if (i) buf_ += '\t';
      AppendTabSeparatedField(&buf_, fields[i]);
    }
    buf_ += '\n';
    if (buf_.size() >= kFlushBytes) return Flush();
    return Status::Ok();
  }

  Status Finish() override {
    SB_RETURN_IF_ERROR(Flush());
    if (!commit_) return Status::Ok();
    return Query(conn_->mysql, "COMMIT", "LOAD DATA into " + table_ + ": COMMIT failed");
  }

 private:
  Status Flush() {
    if (buf_.empty()) return Status::Ok();
    InfileSource src{&buf_, 0};
    mysql_set_local_infile_handler(conn_->mysql, InfileInit, InfileRead, InfileEnd, InfileError,
                                   &src);
    Status s = Query(conn_->mysql, sql_, "LOAD DATA into " + table_ + " failed");
    buf_.clear();
    return s;
  }

  std::shared_ptr<MyConn> conn_;
  std::string table_;
  int ncols_;
  bool commit_;
  std::string sql_;
  std::string buf_;
};

// The connections of a database's storebench lock. `holder` owns the user-level locks;
// `notice` waits for one of them with a statement that carries the holder's words, so other
// clients can read them in the process list (an idle connection shows no statement there).
// When the holder closes, the waiting statement gets its lock and its connection ends too; a
// process that dies loses both connections and with them the locks.
// How long a lock's release may wait for the server (it takes milliseconds).
constexpr int64_t kLockReleaseNanos = int64_t{5} * 1000 * 1000 * 1000;

class MyDbLock final : public DbLock {
 public:
  MyDbLock(std::shared_ptr<MyConn> holder, std::shared_ptr<MyConn> notice, std::string sql_names)
      : holder_(std::move(holder)), notice_(std::move(notice)), sql_names_(std::move(sql_names)) {}
  ~MyDbLock() override {
    // Released by a statement, not by closing alone: the server ends a closed connection's
    // session a moment after the client has gone, and a storebench started right after this
    // one must find the database free.
    // Bounded: a server that does not answer ends the session when it answers again. A server
    // known silent would only make the statement wait out its deadline: closing is enough.
    if (!server_silent_) {
      if (!holder_->interrupt) {
        holder_->interrupt = SocketInterrupt(static_cast<int>(mysql_get_socket(holder_->mysql)));
      }
      CallDeadline deadline(CallInterrupt::Callable(holder_->interrupt), kLockReleaseNanos);
      Query(holder_->mysql, "DO RELEASE_LOCK(" + sql_names_ + ")", "RELEASE_LOCK").IgnoreError();
    }
    holder_.reset();  // before the notice: its statement ends only once the holder has gone
    notice_.reset();
  }
  void ServerSilent() override { server_silent_ = true; }

 private:
  std::shared_ptr<MyConn> holder_;
  std::shared_ptr<MyConn> notice_;
  std::string sql_names_;  // the quoted name of the database's lock
  bool server_silent_ = false;
};

constexpr char kHolderMarker[] = "' AS storebench_lock_holder";

// The session of a sole bulk writer (MyBackend::NewSoleBulkWriter).
constexpr char kSoleSessionSql[] = "SET unique_checks = 0, foreign_key_checks = 0, autocommit = 0";
// The session of a split bulk writer (MyBackend::NewSplitBulkWriter). unique_checks stays on
// (there are no secondary indexes to check during the load) so that InnoDB does not take the
// empty table for a bulk insert: that insert locks the table until its transaction commits,
// and a second writer of the table would wait for the first's COMMIT (measured: 3 s for a
// second session's INSERT behind one that committed after 4 s, 0.02 s with unique_checks on).
constexpr char kSplitSessionSql[] = "SET unique_checks = 1, foreign_key_checks = 0, autocommit = 0";

class MyBackend final : public DbBackend {
 public:
  explicit MyBackend(DbUrl url) : url_(std::move(url)) {
    caps_.full_text_search = true;
    caps_.stored_procedures = true;
    caps_.concurrent_writers = true;
    caps_.server = true;
    caps_.server_counters = true;
    caps_.pristine_copy = true;
    caps_.statement_counters_include_failed = true;
    caps_.split_bulk_writers = true;
  }

  const Capabilities& capabilities() const override { return caps_; }
  std::string dialect() const override { return "mysql"; }

  Result<std::unique_ptr<Connection>> Connect() override {
    auto conn = Open(false);
    if (!conn.ok()) return conn.status();
    return std::unique_ptr<Connection>(new MyConnection(std::move(conn).value()));
  }

  Result<std::unique_ptr<BulkWriter>> NewBulkWriter(
      const std::string& table, const std::vector<std::string>& columns) override {
    // The loader's own connection: tables load in parallel in any order, and keys are known to
    // be unique, so neither check runs row by row (as DVD Store's MySQL loader).
    return OpenBulkWriter(table, columns, "SET unique_checks = 0, foreign_key_checks = 0",
                          /*commit=*/false);
  }

  // One transaction for the whole table: InnoDB loads an empty table inserted into with both
  // checks off as one bulk insert (MariaDB 10.6+: no undo record per row, the table locked for
  // the transaction; 10.7+: the keys sorted and built at the end,
  // https://mariadb.com/kb/en/innodb-online-ddl-overview/ and MDEV-24621), where one
  // autocommitted LOAD DATA per 4 MiB is that only for the first statement.
  Result<std::unique_ptr<BulkWriter>> NewSoleBulkWriter(
      const std::string& table, const std::vector<std::string>& columns) override {
    return OpenBulkWriter(table, columns, kSoleSessionSql, /*commit=*/true);
  }

  std::string SoleBulkWriterSession() const override {
    return std::string("one connection per table, one transaction: ") + kSoleSessionSql;
  }

  // Row locks and an undo record per row where the sole writer has neither, for a second
  // server thread on the same table.
  Result<std::unique_ptr<BulkWriter>> NewSplitBulkWriter(
      const std::string& table, const std::vector<std::string>& columns) override {
    return OpenBulkWriter(table, columns, kSplitSessionSql, /*commit=*/true);
  }

  std::string SplitBulkWriterSession() const override { return kSplitSessionSql; }

  Result<ServerInfo> Describe() override {
    auto conn = Open(false);
    if (!conn.ok()) return conn.status();
    MYSQL* m = (*conn)->mysql;
    ServerInfo info;
    const char* v = mysql_get_server_info(m);
    info.version = v ? v : "";
    info.product = info.version.find("MariaDB") != std::string::npos ? "MariaDB" : "MySQL";
    const char* sql =
        "SHOW GLOBAL VARIABLES WHERE Variable_name IN ('innodb_buffer_pool_size', "
        "'innodb_flush_log_at_trx_commit', 'innodb_log_file_size', 'innodb_doublewrite', "
        "'innodb_flush_method', 'sync_binlog', 'log_bin', 'max_connections', "
        "'transaction_isolation', 'tx_isolation', 'innodb_ft_min_token_size', "
        "'innodb_ft_enable_stopword', 'character_set_server', 'sql_mode', 'local_infile', "
        "'innodb_deadlock_detect', 'innodb_lock_wait_timeout')";
    if (mysql_query(m, sql) == 0) {
      if (MYSQL_RES* res = mysql_store_result(m)) {
        while (MYSQL_ROW row = mysql_fetch_row(res)) {
          info.settings[row[0] ? row[0] : ""] = row[1] ? row[1] : "";
        }
        mysql_free_result(res);
      }
    }
    info.settings["client_version"] = mysql_get_client_info();
    return info;
  }

  bool Exists() override { return Open(false).ok(); }

  // @@datadir is readable by every account; InnoDB's files (file_per_table) are under it.
  Result<StorageSpace> FreeSpace() override {
    return ServerSpace(*this, url_.host,
                       "SELECT COALESCE(SUM(data_length + index_length), 0) FROM "
                       "information_schema.tables WHERE table_schema = DATABASE()",
                       "SELECT @@datadir");
  }

  // GET_LOCK('storebench.<database>', 0): user-level locks are named server-wide, so the name
  // carries the database the workload's tables are in.
  Result<std::unique_ptr<DbLock>> TryLock(const std::string& holder_text) override {
    auto opened = Open(false, /*no_database=*/true);
    if (!opened.ok()) return opened.status();
    std::shared_ptr<MyConn> holder = std::move(opened).value();
    MYSQL* m = holder->mysql;
    // An idle connection is closed by the server after wait_timeout (8 h by default); the
    // lock lives as long as the run, so its connection waits as long as the server allows.
    Query(m, "SET SESSION wait_timeout = 31536000", "lock session setup").IgnoreError();
    const std::string name = Quoted(m, LockName());
    bool null = false;
    auto got = QueryValue(m, "SELECT GET_LOCK(" + name + ", 0)", "GET_LOCK", &null);
    if (!got.ok()) return got.status();
    if (*got == "1") {
      auto id = QueryValue(m, "SELECT CONNECTION_ID()", "CONNECTION_ID()");
      std::shared_ptr<MyConn> notice;
      if (id.ok()) {
        const std::string notice_name = "'storebench.holder." + *id + "'";
        auto second = QueryValue(m, "SELECT GET_LOCK(" + notice_name + ", 0)", "GET_LOCK");
        auto waiter = second.ok() && *second == "1"
                          ? Open(false, /*no_database=*/true)
                          : Result<std::shared_ptr<MyConn>>(Status::Internal("no notice lock"));
        if (waiter.ok()) {
          const std::string sql = "SELECT GET_LOCK(" + notice_name + ", 31536000), " +
                                  Quoted((*waiter)->mysql, holder_text) +
                                  " AS storebench_lock_holder";
          // Sent, never read: it returns only when the holder has closed.
          if (mysql_send_query((*waiter)->mysql, sql.c_str(),
                               static_cast<unsigned long>(sql.size())) == 0) {
            notice = std::move(waiter).value();
          }
        }
      }
      return std::unique_ptr<DbLock>(new MyDbLock(std::move(holder), std::move(notice), name));
    }
    if (null) return Status::Db(ErrorCategory::kOther, "GET_LOCK(" + name + ") failed");
    // Held by another connection: find the words its notice statement carries.
    auto id = QueryValue(m, "SELECT IS_USED_LOCK(" + name + ")", "IS_USED_LOCK", &null);
    std::string who;
    if (id.ok() && !null) {
      auto info = QueryValue(m,
                             "SELECT INFO FROM information_schema.PROCESSLIST WHERE INFO LIKE "
                             "'SELECT GET_LOCK(''storebench.holder." +
                                 *id + "'',%' LIMIT 1",
                             "the process list");
      if (info.ok()) {
        const size_t end = info->find(kHolderMarker);
        const size_t begin = end == std::string::npos ? end : info->rfind('\'', end - 1);
        if (begin != std::string::npos) who = info->substr(begin + 1, end - begin - 1);
      }
      if (who.empty()) {
        auto host = QueryValue(m,
                               "SELECT concat(USER, '@', HOST) FROM information_schema.PROCESSLIST "
                               "WHERE ID = " +
                                   *id,
                               "the process list");
        who = "connection " + *id + (host.ok() && !host->empty() ? " of " + *host : "") +
              " of the server";
      }
    }
    return Status::FailedPrecondition(who.empty() ? "another connection" : who);
  }

  // The pristine copy is the database "<name>_sbpristine": each base table copied with CREATE
  // TABLE ... AS SELECT (rows only; the copy is read, never run on, so it needs no indexes),
  // then the table storebench_pristine_of naming <name>, written last, so a copy that did not
  // finish is never restored from. MariaDB has no server-side database copy (no TEMPLATE), and
  // copying InnoDB tablespace files needs the server's data directory and a server without
  // full-text indexes on the tables; a copy in SQL works against any server.
  Result<std::string> SavePristine(std::unique_ptr<DbLock>* /*lock*/,
                                   const std::string& /*holder_text*/) override {
    auto copy = PristineName();
    if (!copy.ok()) return copy.status();
    auto opened = Open(false, /*no_database=*/true);
    if (!opened.ok()) return opened.status();
    MyConnection conn(*opened);
    MYSQL* m = (*opened)->mysql;
    auto live = Fingerprint(conn, url_.database);
    if (!live.ok()) return live.status();
    SB_RETURN_IF_ERROR(CheckIsStorebenchDatabase(*live, Described()));
    auto mark = CopyMarker(conn, *copy);
    if (!mark.ok()) return mark.status();
    if (mark->exists && !mark->ours) {
      return Status::FailedPrecondition("the database " + *copy +
                                        " exists and is not storebench's "
                                        "pristine copy of " +
                                        url_.database + "; rename or drop it");
    }
    if (mark->exists) SB_RETURN_IF_ERROR(Query(m, "DROP DATABASE " + Ident(*copy), "drop copy"));
    SB_RETURN_IF_ERROR(Query(m, "CREATE DATABASE " + Ident(*copy), "CREATE DATABASE " + *copy));
    SB_RETURN_IF_ERROR(Query(m,
                             "CREATE TABLE " + Ident(*copy) +
                                 ".storebench_pristine_of "
                                 "(source VARCHAR(64) NOT NULL) ENGINE = InnoDB",
                             "pristine marker"));
    for (const std::string& t : live->tables) {
      SB_RETURN_IF_ERROR(Query(m,
                               "CREATE TABLE " + Ident(*copy) + "." + Ident(t) +
                                   " ENGINE = InnoDB AS SELECT * FROM " + Ident(url_.database) +
                                   "." + Ident(t),
                               "copy of table " + t));
    }
    auto mark_row =
        conn.Prepare("INSERT INTO " + Ident(*copy) + ".storebench_pristine_of (source) VALUES (?)");
    if (!mark_row.ok()) return mark_row.status();
    (*mark_row)->BindText(1, url_.database);
    SB_RETURN_IF_ERROR((*mark_row)->Execute());
    return std::string("CREATE TABLE ... AS SELECT per table");
  }

  // Each table whose rows differ from the copy's (CHECKSUM TABLE of both; the tables a run does
  // not write are left alone) is brought back the cheapest way that gives the copy's rows:
  //  - a table keyed by one integer column loses the rows whose key is above the copy's largest
  //    (what runs append: orders, customers, reviews), and is done if the checksums then agree;
  //  - otherwise it is emptied (TRUNCATE) and refilled from the copy (INSERT ... SELECT), with
  //    foreign-key and unique checks off as for a load.
  // Refilled row by row into indexed tables, the second way costs more than a fresh load for
  // big tables (measured: 70 s for DVD Store S, whose 4-million-row REVIEWS_HELPFULNESS a run
  // only appends to), which the first way avoids. AUTO_INCREMENT counters are set back to the
  // loaded state's (the largest key + 1). Procedures, views and grants stay as they are.
  Result<std::string> RestorePristine(std::unique_ptr<DbLock>* /*lock*/,
                                      const std::string& /*holder_text*/) override {
    auto copy = PristineName();
    if (!copy.ok()) return copy.status();
    auto opened = Open(false, /*no_database=*/true);
    if (!opened.ok()) return opened.status();
    MyConnection conn(*opened);
    MYSQL* m = (*opened)->mysql;
    auto mark = CopyMarker(conn, *copy);
    if (!mark.ok()) return mark.status();
    if (!mark->exists || !mark->ours || !mark->complete) {
      return Status::FailedPrecondition(Described() +
                                        " has no pristine copy (no complete database " + *copy +
                                        " made by storebench)");
    }
    auto kept = Fingerprint(conn, *copy);
    if (!kept.ok()) return kept.status();
    auto live = Fingerprint(conn, url_.database);
    if (!live.ok()) return live.status();
    SB_RETURN_IF_ERROR(CheckRestorable(*live, *kept, Described()));
    SB_RETURN_IF_ERROR(Query(m, "SET foreign_key_checks = 0, unique_checks = 0", "restore setup"));
    if (RunWritesApply(hint_, *live)) return RestoreWhatRunsWrite(conn, m, *copy, kept->tables);
    int trimmed = 0, refilled = 0;
    for (const std::string& t : kept->tables) {
      const std::string from = Ident(*copy) + "." + Ident(t);
      const std::string to = Ident(url_.database) + "." + Ident(t);
      auto same = SameChecksum(m, from, to);
      if (!same.ok()) return same.status();
      if (*same) continue;
      auto key = IntegerKey(conn, t);
      if (!key.ok()) return key.status();
      if (!key->empty()) {
        auto top = QueryValue(m, "SELECT coalesce(max(" + Ident(*key) + "), 0) FROM " + from,
                              "largest key of " + t);
        if (!top.ok()) return top.status();
        auto trim = conn.Prepare("DELETE FROM " + to + " WHERE " + Ident(*key) + " > ?");
        if (!trim.ok()) return trim.status();
        (*trim)->BindInt(1, std::stoll(*top));
        SB_RETURN_IF_ERROR((*trim)->Execute());
        auto now_same = SameChecksum(m, from, to);
        if (!now_same.ok()) return now_same.status();
        if (*now_same) {
          SB_RETURN_IF_ERROR(
              Query(m, "ALTER TABLE " + to + " AUTO_INCREMENT = 1", "AUTO_INCREMENT of " + t));
          ++trimmed;
          continue;
        }
      }
      SB_RETURN_IF_ERROR(Query(m, "TRUNCATE TABLE " + to, "TRUNCATE " + t));
      SB_RETURN_IF_ERROR(
          Query(m, "INSERT INTO " + to + " SELECT * FROM " + from, "restore of table " + t));
      ++refilled;
    }
    return "of the " + std::to_string(kept->tables.size()) + " tables, " + std::to_string(trimmed) +
           " lost the rows runs appended and " + std::to_string(refilled) +
           " were refilled (TRUNCATE + INSERT ... SELECT); the others matched (CHECKSUM TABLE)";
  }

  void HintRunWrites(const RunWrites& writes) override { hint_ = writes; }

 private:
  // The restore when the workload says what runs write (RunWrites): the rows above the copy's
  // largest value of an appended table's column are deleted (an index range where the column
  // leads one), the rewritten tables are emptied and refilled from the copy, and every other
  // table is left alone, so the time is that of the run's rows, not of the tables' (no
  // CHECKSUM TABLE of the whole database).
  Result<std::string> RestoreWhatRunsWrite(MyConnection& conn, MYSQL* m, const std::string& copy,
                                           const std::vector<std::string>& tables) {
    const auto has = [&](const std::string& t) {
      return std::find(tables.begin(), tables.end(), t) != tables.end();
    };
    int trimmed = 0, refilled = 0;
    for (const auto& [t, column] : hint_->appended) {
      if (!has(t)) continue;
      const std::string from = Ident(copy) + "." + Ident(t);
      const std::string to = Ident(url_.database) + "." + Ident(t);
      auto top = CopyMaximum(conn, m, copy, t, column);
      if (!top.ok()) return top.status();
      auto trim = conn.Prepare("DELETE FROM " + to + " WHERE " + Ident(column) + " > ?");
      if (!trim.ok()) return trim.status();
      (*trim)->BindInt(1, *top);
      SB_RETURN_IF_ERROR((*trim)->Execute());
      // Back to the loaded state's counter (the largest key + 1) where the table has one.
      SB_RETURN_IF_ERROR(
          Query(m, "ALTER TABLE " + to + " AUTO_INCREMENT = 1", "AUTO_INCREMENT of " + t));
      ++trimmed;
    }
    for (const std::string& t : hint_->rewritten) {
      if (!has(t)) continue;
      const std::string from = Ident(copy) + "." + Ident(t);
      const std::string to = Ident(url_.database) + "." + Ident(t);
      SB_RETURN_IF_ERROR(Query(m, "TRUNCATE TABLE " + to, "TRUNCATE " + t));
      std::string refill = "INSERT INTO " + to;
      refill += " SELECT * FROM " + from;
      SB_RETURN_IF_ERROR(Query(m, refill, "restore of table " + t));
      ++refilled;
    }
    return "what " + hint_->workload + " runs write: " + std::to_string(trimmed) +
           " tables lost the rows above their loaded largest id, " + std::to_string(refilled) +
           " were refilled (TRUNCATE + INSERT ... SELECT), the other " +
           std::to_string(tables.size() - static_cast<size_t>(trimmed + refilled)) +
           " are never written by a run";
  }

  // The copy's largest `column` of `table`. The copy has no indexes, so the first restore
  // scans it and keeps the value in the copy's table storebench_pristine_max, which later
  // restores read (the copy never changes; SavePristine replaces the whole database).
  Result<int64_t> CopyMaximum(MyConnection& conn, MYSQL* m, const std::string& copy,
                              const std::string& table, const std::string& column) {
    const std::string cache = Ident(copy) + ".storebench_pristine_max";
    SB_RETURN_IF_ERROR(Query(m,
                             "CREATE TABLE IF NOT EXISTS " + cache +
                                 " (tbl VARCHAR(64) NOT NULL, col VARCHAR(64) NOT NULL, top BIGINT "
                                 "NOT NULL, PRIMARY KEY (tbl, col)) ENGINE = InnoDB",
                             "pristine maxima"));
    auto read = conn.Prepare("SELECT top FROM " + cache + " WHERE tbl = ? AND col = ?");
    if (!read.ok()) return read.status();
    (*read)->BindText(1, table);
    (*read)->BindText(2, column);
    SB_RETURN_IF_ERROR((*read)->Execute());
    if ((*read)->Next()) {
      const int64_t top = (*read)->GetInt(0);
      (*read)->Reset();
      return top;
    }
    SB_RETURN_IF_ERROR((*read)->status());
    (*read)->Reset();
    auto top = QueryValue(
        m,
        "SELECT coalesce(max(" + Ident(column) + "), 0) FROM " + Ident(copy) + "." + Ident(table),
        "largest " + column + " of " + table);
    if (!top.ok()) return top.status();
    auto keep = conn.Prepare("INSERT INTO " + cache + " (tbl, col, top) VALUES (?, ?, ?)");
    if (!keep.ok()) return keep.status();
    (*keep)->BindText(1, table);
    (*keep)->BindText(2, column);
    (*keep)->BindInt(3, std::stoll(*top));
    SB_RETURN_IF_ERROR((*keep)->Execute());
    return std::stoll(*top);
  }

  std::optional<RunWrites> hint_;

  struct CopyMarkerInfo {
    bool exists = false;    // a database of the copy's name exists
    bool ours = false;      // it holds storebench_pristine_of
    bool complete = false;  // ... naming this database: the copy finished
  };

  std::string Described() const { return "the MariaDB/MySQL database " + url_.database; }

  Result<std::string> PristineName() const {
    std::string name = url_.database + "_sbpristine";
    if (url_.database.empty() || name.size() > 64) {
      return Status::FailedPrecondition("the database name '" + url_.database +
                                        "' leaves no room for the name of its pristine "
                                        "copy (" +
                                        name + ": MariaDB names have at most 64 characters)");
    }
    return name;
  }

  static std::string Ident(const std::string& name) {
    std::string out = "`";
    for (char c : name) out += c == '`' ? std::string("``") : std::string(1, c);
    return out + "`";
  }

  // The base tables of `database` (views and the copy's marker left out) and its
  // storebench_meta.
  Result<DbFingerprint> Fingerprint(Connection& conn, const std::string& database) {
    return ReadFingerprint(conn,
                           "SELECT table_name FROM information_schema.tables WHERE table_schema = "
                           "? AND table_type = 'BASE TABLE' AND table_name <> "
                           "'storebench_pristine_max'",
                           "SELECT `key`, value FROM " + Ident(database) + ".storebench_meta",
                           database, "storebench_pristine_of");
  }

  Result<CopyMarkerInfo> CopyMarker(Connection& conn, const std::string& copy) {
    CopyMarkerInfo info;
    auto count = [&](const std::string& sql, const std::string& param) -> Result<int64_t> {
      auto stmt = conn.Prepare(sql);
      if (!stmt.ok()) return stmt.status();
      (*stmt)->BindText(1, param);
      SB_RETURN_IF_ERROR((*stmt)->Execute());
      int64_t n = (*stmt)->Next() ? (*stmt)->GetInt(0) : 0;
      SB_RETURN_IF_ERROR((*stmt)->status());
      return n;
    };
    auto schemas =
        count("SELECT count(*) FROM information_schema.schemata WHERE schema_name = ?", copy);
    if (!schemas.ok()) return schemas.status();
    info.exists = *schemas > 0;
    if (!info.exists) return info;
    auto marker = count(
        "SELECT count(*) FROM information_schema.tables WHERE table_schema = ? AND table_name = "
        "'storebench_pristine_of'",
        copy);
    if (!marker.ok()) return marker.status();
    info.ours = *marker > 0;
    if (!info.ours) return info;
    auto rows =
        count("SELECT count(*) FROM " + Ident(copy) + ".storebench_pristine_of WHERE source = ?",
              url_.database);
    if (!rows.ok()) return rows.status();
    info.complete = *rows > 0;
    return info;
  }

  // The column of `table`'s primary key when that key is one integer column, else "".
  Result<std::string> IntegerKey(Connection& conn, const std::string& table) {
    auto stmt = conn.Prepare(
        "SELECT s.column_name, c.data_type FROM information_schema.statistics s JOIN "
        "information_schema.columns c ON c.table_schema = s.table_schema AND c.table_name = "
        "s.table_name AND c.column_name = s.column_name WHERE s.table_schema = ? AND "
        "s.table_name = ? AND s.index_name = 'PRIMARY'");
    if (!stmt.ok()) return stmt.status();
    (*stmt)->BindText(1, url_.database);
    (*stmt)->BindText(2, table);
    SB_RETURN_IF_ERROR((*stmt)->Execute());
    std::vector<std::pair<std::string, std::string>> cols;
    while ((*stmt)->Next()) {
      cols.emplace_back(std::string((*stmt)->GetText(0)), std::string((*stmt)->GetText(1)));
    }
    SB_RETURN_IF_ERROR((*stmt)->status());
    if (cols.size() != 1) return std::string();
    const std::string& type = cols[0].second;
    const bool integer = type == "int" || type == "bigint" || type == "mediumint" ||
                         type == "smallint" || type == "tinyint";
    return integer ? cols[0].first : std::string();
  }

  // True when CHECKSUM TABLE gives the same value for both tables.
  static Result<bool> SameChecksum(MYSQL* m, const std::string& a, const std::string& b) {
    const std::string sql = "CHECKSUM TABLE " + a + ", " + b;
    if (mysql_real_query(m, sql.data(), static_cast<unsigned long>(sql.size())) != 0) {
      return ConnError(m, "CHECKSUM TABLE");
    }
    MYSQL_RES* res = mysql_store_result(m);
    if (res == nullptr) return ConnError(m, "CHECKSUM TABLE");
    std::vector<std::string> sums;
    while (MYSQL_ROW row = mysql_fetch_row(res)) sums.emplace_back(row[1] ? row[1] : "");
    mysql_free_result(res);
    return sums.size() == 2 && !sums[0].empty() && sums[0] == sums[1];
  }

  // "storebench.<database>", within the 64 characters a lock name may have.
  std::string LockName() const {
    std::string name = "storebench." + url_.database;
    if (name.size() <= 64) return name;
    uint64_t h = 1469598103934665603ULL;  // FNV-1a
    for (unsigned char c : url_.database) h = (h ^ c) * 1099511628211ULL;
    return "storebench." + url_.database.substr(0, 30) + "." + std::to_string(h);
  }

  // A bulk writer on a connection of its own with LOAD DATA LOCAL allowed, after `session_sql`
  // (NewBulkWriter's, NewSoleBulkWriter's and NewSplitBulkWriter's settings); `commit`: one
  // transaction committed by Finish.
  Result<std::unique_ptr<BulkWriter>> OpenBulkWriter(const std::string& table,
                                                     const std::vector<std::string>& columns,
                                                     const char* session_sql, bool commit) {
    auto conn = Open(true);
    if (!conn.ok()) return conn.status();
    SB_RETURN_IF_ERROR(Query((*conn)->mysql, session_sql, "bulk load setup"));
    return std::unique_ptr<BulkWriter>(
        new MyBulkWriter(std::move(conn).value(), table, columns, commit));
  }

  // `no_database`: connect without a default database (the lock's connections: their lock names
  // say the database, and they are no sessions working in it).
  Result<std::shared_ptr<MyConn>> Open(bool local_infile, bool no_database = false) {
    InitLibrary();
    auto conn = std::make_shared<MyConn>();
    conn->mysql = mysql_init(nullptr);
    if (conn->mysql == nullptr)
      return Status::Db(ErrorCategory::kOther, "libmariadb: out of memory");
    MYSQL* m = conn->mysql;
    // Option files' [client] group: the usual place for a password other than MYSQL_PWD.
    mysql_options(m, MYSQL_READ_DEFAULT_GROUP, "client");
    unsigned int timeout = 10;
    if (auto it = url_.params.find("connect_timeout"); it != url_.params.end()) {
      timeout = static_cast<unsigned int>(std::strtoul(it->second.c_str(), nullptr, 10));
    }
    mysql_options(m, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
    for (const char* key : {"read_timeout", "write_timeout"}) {
      if (auto it = url_.params.find(key); it != url_.params.end()) {
        unsigned int t = static_cast<unsigned int>(std::strtoul(it->second.c_str(), nullptr, 10));
        mysql_options(m,
                      std::strcmp(key, "read_timeout") == 0 ? MYSQL_OPT_READ_TIMEOUT
                                                            : MYSQL_OPT_WRITE_TIMEOUT,
                      &t);
      }
    }
    if (auto it = url_.params.find("ssl"); it != url_.params.end() && it->second == "1") {
      my_bool enforce = 1;
      mysql_options(m, MYSQL_OPT_SSL_ENFORCE, &enforce);
    }
    mysql_options(m, MYSQL_SET_CHARSET_NAME, "utf8mb4");
    unsigned int infile = local_infile ? 1 : 0;
    mysql_options(m, MYSQL_OPT_LOCAL_INFILE, &infile);
    const char* password = std::getenv("MYSQL_PWD");
    const std::string host = url_.host.empty() ? "127.0.0.1" : url_.host;
    if (!mysql_real_connect(m, host.c_str(), url_.user.empty() ? nullptr : url_.user.c_str(),
                            password,
                            url_.database.empty() || no_database ? nullptr : url_.database.c_str(),
                            static_cast<unsigned int>(url_.port), nullptr,
                            CLIENT_MULTI_STATEMENTS | CLIENT_FOUND_ROWS)) {
      const unsigned int code = mysql_errno(m);
      ConnectFailure f;
      f.product = "MySQL/MariaDB";
      f.host = host;
      // Port 0 is the client library's default, MySQL's 3306 (MYSQL_PORT).
      f.port = std::to_string(url_.port > 0 ? url_.port : MYSQL_PORT);
      f.url = url_.redacted;
      f.why = mysql_error(m);
      // 2002/2003 (CR_CONNECTION_ERROR, CR_CONN_HOST_ERROR) end in a bare "(errno)": name it,
      // and say what to do.
      if (code == 2002 || code == 2003) {
        const size_t open = f.why.rfind('(');
        if (open != std::string::npos && f.why.back() == ')') {
          const int err = std::atoi(f.why.c_str() + open + 1);
          if (err > 0) f.why += " (" + std::string(std::strerror(err)) + ")";
        }
        f.no_server = true;
      }
      // A server that accepts the connection but never answers (stopped, overloaded): the
      // library says "system error: 110", the number of ETIMEDOUT; say what it means.
      if (const size_t e = f.why.find("system error: 110"); e != std::string::npos) {
        f.why = f.why.substr(0, e) + "timed out after " + std::to_string(timeout) +
                " s without an answer (connect_timeout=" + std::to_string(timeout) + ")";
      }
      f.password_sources = "MYSQL_PWD or ~/.my.cnf";
      f.category = code == 1045 || code == 1044 || code == 1049 ? ErrorCategory::kOther
                                                                : ClassifyMysqlError(code);
      f.native_code = static_cast<int>(code);
      return ConnectError(f);
    }
    return conn;
  }

  DbUrl url_;
  Capabilities caps_;
};

}  // namespace

Result<std::unique_ptr<DbBackend>> OpenMysql(const DbUrl& url, const BackendOptions& /*options*/) {
  return std::unique_ptr<DbBackend>(new MyBackend(url));
}

}  // namespace sb::db
