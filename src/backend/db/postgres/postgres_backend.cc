#include "backend/db/postgres/postgres_backend.h"

#include <endian.h>
#include <libpq-fe.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "backend/db/bulk_text.h"
#include "backend/db/call_interrupt.h"
#include "backend/db/connect_error.h"
#include "backend/db/postgres/pg_run_writes_restore.h"
#include "backend/db/postgres/pg_util.h"
#include "backend/db/pristine.h"
#include "backend/db/storage_space.h"
#include "base/call_deadline.h"

namespace sb::db {

ErrorCategory ClassifyPostgresSqlState(std::string_view s) {
  if (s == "40001") return ErrorCategory::kSerialization;
  if (s == "40P01") return ErrorCategory::kDeadlock;
  if (s.substr(0, 2) == "23") return ErrorCategory::kConstraint;
  if (s.substr(0, 2) == "08" || s == "57P01" || s == "57P02" || s == "57P03") {
    return ErrorCategory::kConnectionLost;
  }
  if (s == "57014" || s == "55P03") return ErrorCategory::kTimeout;  // canceled, lock timeout
  if (s.substr(0, 2) == "42") return ErrorCategory::kSyntax;
  return ErrorCategory::kOther;
}

std::string TranslatePlaceholders(std::string_view sql, int* count) {
  std::string out;
  out.reserve(sql.size() + 16);
  int n = 0;
  size_t i = 0;
  while (i < sql.size()) {
    const char c = sql[i];
    if (c == '\'' || c == '"') {  // quoted literal or identifier ('' and "" escape themselves)
      const size_t end = sql.find(c, i + 1);
      const size_t stop = end == std::string_view::npos ? sql.size() : end + 1;
      out.append(sql.substr(i, stop - i));
      i = stop;
    } else if (c == '-' && i + 1 < sql.size() && sql[i + 1] == '-') {  // comment to end of line
      const size_t end = sql.find('\n', i);
      const size_t stop = end == std::string_view::npos ? sql.size() : end;
      out.append(sql.substr(i, stop - i));
      i = stop;
    } else if (c == '$' && i + 1 < sql.size() && (sql[i + 1] == '$' || std::isalpha(sql[i + 1]))) {
      // Dollar quote $tag$ ... $tag$ (function bodies).
      const size_t tag_end = sql.find('$', i + 1);
      if (tag_end == std::string_view::npos) {
        out.append(sql.substr(i));
        break;
      }
      const std::string_view tag = sql.substr(i, tag_end - i + 1);
      const size_t close = sql.find(tag, tag_end + 1);
      const size_t stop = close == std::string_view::npos ? sql.size() : close + tag.size();
      out.append(sql.substr(i, stop - i));
      i = stop;
    } else if (c == '?') {
      out += '$';
      out += std::to_string(++n);
      ++i;
    } else {
      out += c;
      ++i;
    }
  }
  if (count != nullptr) *count = n;
  return out;
}

namespace {

using pg::Exec;
using pg::FirstLine;
using pg::Ident;
using pg::Literal;
using pg::QueryValue;
using pg::ResultError;

// A libpq connection shared by the Connection and the statements it prepared, so a statement
// outliving its connection object stays safe.
struct PgConn {
  PGconn* conn = nullptr;
  int next_statement = 0;
  bool no_statement_stats = false;  // pg_stat_statements could not be read (ServerCounters)
  bool no_statement_info = false;   // nor pg_stat_statements_info (PostgreSQL 14 and later)
  // The driver's own work, kept out of the server's transaction counts (xact_commit), which the
  // cross-check and TPC-C's TPM read: statements prepared while idle share one transaction
  // (PQprepare and PQdescribePrepared are one transaction each otherwise, some 95 per TPC-C
  // session), and a dropped statement's DEALLOCATE waits for the connection's next use, so a
  // session that closes sends none (its prepared statements end with it).
  bool prepare_batch = false;           // a BEGIN of Prepare's is open
  std::vector<std::string> deallocate;  // statements to deallocate at the next use
  std::shared_ptr<CallInterrupt> interrupt;  // shuts down PQsocket (backend/db/call_interrupt.h)
  ~PgConn() {
    if (interrupt) interrupt->Disarm();
    if (conn) PQfinish(conn);
  }
};

// Before the connection runs anything but a Prepare: commits Prepare's open transaction and
// sends the deallocations waiting, all in one round trip (one transaction on the server).
Status SettleDriverWork(PgConn& c) {
  if (!c.prepare_batch && c.deallocate.empty()) return Status::Ok();
  const bool idle = PQtransactionStatus(c.conn) == PQTRANS_IDLE;
  if (!c.prepare_batch && !idle) return Status::Ok();  // kept for when it is idle again
  std::string sql;
  for (const std::string& name : c.deallocate) sql += "DEALLOCATE " + name + ";";
  c.deallocate.clear();
  // END, PostgreSQL's spelling of COMMIT: pg_stat_statements counts it apart from the workload's
  // COMMITs, so statement counts compared with the client's hold the workload's alone.
  if (c.prepare_batch) sql += "END";
  c.prepare_batch = false;
  return Exec(c.conn, sql, "cannot end the statement preparation");
}

void IgnoreNotice(void*, const char*) {}

// The parameter types a statement's integers are sent as binary values for: PostgreSQL's
// int2, int4 and int8 (their fixed OIDs in the system catalog, pg_type.dat), in network byte
// order (the types' send and receive functions, PostgreSQL's "Binary Format" of the frontend/
// backend protocol).
constexpr Oid kInt8Oid = 20, kInt2Oid = 21, kInt4Oid = 23;

// How BindInt sends a parameter of the server's inferred type: in binary when the type is an
// integer one and the value fits it, else as text (the server then parses it, and a value out
// of the type's range gets the server's own error, as before binary values).
enum class IntWire : unsigned char { kText, kInt2, kInt4, kInt8 };

IntWire IntWireOf(Oid type) {
  switch (type) {
    case kInt8Oid:
      return IntWire::kInt8;
    case kInt4Oid:
      return IntWire::kInt4;
    case kInt2Oid:
      return IntWire::kInt2;
    default:
      return IntWire::kText;
  }
}

class PgStatement final : public Statement {
 public:
  // `types`: the server's type for each parameter (PQdescribePrepared), one per placeholder.
  PgStatement(std::shared_ptr<PgConn> conn, std::string name, const std::vector<Oid>& types)
      : conn_(std::move(conn)),
        name_(std::move(name)),
        values_(types.size()),
        ints_(types.size()),
        params_(types.size(), nullptr),
        lengths_(types.size(), 0),
        formats_(types.size(), 0) {
    wire_.reserve(types.size());
    for (Oid t : types) wire_.push_back(IntWireOf(t));
  }
  ~PgStatement() override {
    Clear();
    if (conn_->conn && PQstatus(conn_->conn) == CONNECTION_OK) conn_->deallocate.push_back(name_);
  }

  // An integer for an integer parameter goes in binary, in network byte order, from the
  // parameter's own buffer: no digits to write on this side, none to parse on the server's (as
  // text, a point select's BindInt cost 73 instructions for a six-digit key against 30;
  // callgrind, docs/driver-cost.md). Any other value is text in the parameter's kept string.
  // Each bind sets the parameter's entries in params_, lengths_ and formats_, so Execute passes
  // them as they are.
  void BindInt(int i, int64_t v) override {
    if (i < 1 || i > static_cast<int>(values_.size())) return;
    const auto k = static_cast<size_t>(i - 1);
    switch (wire_[k]) {
      case IntWire::kInt8:
        if (BindBinary<int64_t>(k, v)) return;
        break;
      case IntWire::kInt4:
        if (BindBinary<int32_t>(k, v)) return;
        break;
      case IntWire::kInt2:
        if (BindBinary<int16_t>(k, v)) return;
        break;
      case IntWire::kText:
        break;
    }
    BindIntAsText(i, v);
  }
  void BindDouble(int i, double v) override {
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, v);  // shortest round-trip form
    Set(i, std::string_view(buf, r.ptr));
  }
  void BindText(int i, std::string_view v) override { Set(i, v); }
  void BindNull(int i) override {
    if (i < 1 || i > static_cast<int>(values_.size())) return;
    params_[i - 1] = nullptr;  // NULL: no value is sent, whatever the format says
  }

  Status Execute() override {
    Clear();
    if (conn_->prepare_batch || !conn_->deallocate.empty()) {
      if (status_ = SettleDriverWork(*conn_); !status_.ok()) return status_;
    }
    res_ = PQexecPrepared(conn_->conn, name_.c_str(), static_cast<int>(params_.size()),
                          params_.data(), lengths_.data(), formats_.data(), 0);
    const ExecStatusType st = res_ ? PQresultStatus(res_) : PGRES_FATAL_ERROR;
    if (st == PGRES_TUPLES_OK) {
      rows_ = PQntuples(res_);
      affected_ = rows_;  // what PQcmdTuples says for a query, without parsing it
    } else if (st == PGRES_COMMAND_OK) {
      affected_ = std::atoll(PQcmdTuples(res_));
      Clear();
    } else {
      status_ = ResultError(conn_->conn, res_, "statement failed");
      Clear();
      return status_;
    }
    status_ = Status::Ok();
    return status_;
  }

  bool Next() override {
    if (res_ == nullptr) return false;
    if (++row_ < rows_) return true;
    Clear();
    return false;
  }
  const Status& status() const override { return status_; }
  bool IsNull(int c) const override { return PQgetisnull(res_, row_, c) != 0; }
  int64_t GetInt(int c) const override {
    return std::strtoll(PQgetvalue(res_, row_, c), nullptr, 10);
  }
  double GetDouble(int c) const override { return std::strtod(PQgetvalue(res_, row_, c), nullptr); }
  std::string_view GetText(int c) const override {
    return std::string_view(PQgetvalue(res_, row_, c), PQgetlength(res_, row_, c));
  }
  void Reset() override { Clear(); }
  // PQexecPrepared returned every row already.
  Status DiscardRows() override {
    Clear();
    return status_;
  }
  int64_t RowsAffected() const override { return affected_; }

 private:
  void Set(int i, std::string_view v) {
    if (i < 1 || i > static_cast<int>(values_.size())) return;
    values_[i - 1].assign(v);
    params_[i - 1] = values_[i - 1].c_str();  // valid until the next assign
    formats_[i - 1] = 0;                      // text: libpq ignores the length
  }
  // BindInt's other case, out of line: inline, its buffer and the string's assign made every
  // binary bind save and restore six registers.
  [[gnu::noinline]] void BindIntAsText(int i, int64_t v) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    Set(i, std::string_view(buf, r.ptr));
  }
  // Parameter k as a binary T (int2, int4 or int8), most significant byte first; false when v
  // does not fit a T.
  template <typename T>
  bool BindBinary(size_t k, int64_t v) {
    if (v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max()) return false;
    char* const p = ints_[k].data();
    // One byte swap (a loop over the bytes was not merged into one: 22 instructions more per
    // point select, callgrind).
    if constexpr (sizeof(T) == 8) {
      const uint64_t be = htobe64(static_cast<uint64_t>(v));
      std::memcpy(p, &be, 8);
    } else if constexpr (sizeof(T) == 4) {
      const uint32_t be = htobe32(static_cast<uint32_t>(v));
      std::memcpy(p, &be, 4);
    } else {
      const uint16_t be = htobe16(static_cast<uint16_t>(v));
      std::memcpy(p, &be, 2);
    }
    params_[k] = p;
    lengths_[k] = static_cast<int>(sizeof(T));
    formats_[k] = 1;
    return true;
  }
  void Clear() {
    if (res_) PQclear(res_);
    res_ = nullptr;
    rows_ = 0;
    row_ = -1;
  }

  std::shared_ptr<PgConn> conn_;
  std::string name_;
  // All sized once (never resized: params_ points into values_ and ints_).
  std::vector<std::string> values_;        // text values
  std::vector<std::array<char, 8>> ints_;  // binary integers
  std::vector<IntWire> wire_;              // how BindInt sends each parameter
  // PQexecPrepared's parameters: nullptr (NULL, also before any bind), into ints_ or values_;
  // each one's length (binary values only) and format (0 text, 1 binary).
  std::vector<const char*> params_;
  std::vector<int> lengths_;
  std::vector<int> formats_;
  PGresult* res_ = nullptr;
  int rows_ = 0;
  int row_ = -1;
  int64_t affected_ = 0;
  Status status_;
};

class PgConnection final : public Connection {
 public:
  explicit PgConnection(std::shared_ptr<PgConn> conn) : conn_(std::move(conn)) {}

  // libpq has no read timeout and its cancel request goes to the same (frozen) server.
  std::function<void()> Interrupter() override {
    if (!conn_->interrupt) conn_->interrupt = SocketInterrupt(PQsocket(conn_->conn));
    return CallInterrupt::Callable(conn_->interrupt);
  }

  Result<std::unique_ptr<Statement>> Prepare(std::string_view sql) override {
    int nparams = 0;
    const std::string text = TranslatePlaceholders(sql, &nparams);
    const std::string name = "sb" + std::to_string(++conn_->next_statement);
    if (!conn_->prepare_batch && PQtransactionStatus(conn_->conn) == PQTRANS_IDLE &&
        Exec(conn_->conn, "BEGIN", "BEGIN failed").ok()) {
      conn_->prepare_batch = true;
    }
    PGresult* res = PQprepare(conn_->conn, name.c_str(), text.c_str(), 0, nullptr);
    bool ok = res && PQresultStatus(res) == PGRES_COMMAND_OK;
    if (!ok && conn_->prepare_batch) {
      // The failure aborted the shared transaction: end it, and prepare alone for the answer
      // (statements prepared before it are kept: a rollback does not drop them).
      PQclear(res);
      conn_->prepare_batch = false;
      Exec(conn_->conn, "ROLLBACK", "ROLLBACK failed").IgnoreError();
      res = PQprepare(conn_->conn, name.c_str(), text.c_str(), 0, nullptr);
      ok = res && PQresultStatus(res) == PGRES_COMMAND_OK;
    }
    Status s = ok ? Status::Ok() : ResultError(conn_->conn, res, "cannot prepare '" + text + "'");
    PQclear(res);
    if (!s.ok()) return s;
    // The types the server inferred for the parameters, so that BindInt can send integers in
    // binary (one more round trip per statement prepared, not per execution).
    std::vector<Oid> types(static_cast<size_t>(nparams), 0);
    if (nparams > 0) {
      res = PQdescribePrepared(conn_->conn, name.c_str());
      if (!res || PQresultStatus(res) != PGRES_COMMAND_OK) {
        s = ResultError(conn_->conn, res, "cannot describe '" + text + "'");
        PQclear(res);
        return s;
      }
      for (int i = 0; i < nparams && i < PQnparams(res); ++i) types[i] = PQparamtype(res, i);
      PQclear(res);
    }
    return std::unique_ptr<Statement>(new PgStatement(conn_, name, types));
  }

  Status ExecuteScript(std::string_view sql) override {
    SB_RETURN_IF_ERROR(SettleDriverWork(*conn_));
    return Exec(conn_->conn, std::string(sql), "SQL failed");
  }
  Status Begin(bool /*write*/) override {
    SB_RETURN_IF_ERROR(SettleDriverWork(*conn_));
    return Exec(conn_->conn, "BEGIN", "BEGIN failed");
  }
  Status Commit() override {
    SB_RETURN_IF_ERROR(SettleDriverWork(*conn_));
    PGresult* res = PQexec(conn_->conn, "COMMIT");
    Status s;
    if (!res || PQresultStatus(res) != PGRES_COMMAND_OK) {
      s = ResultError(conn_->conn, res, "COMMIT failed");
    } else if (std::strcmp(PQcmdStatus(res), "ROLLBACK") == 0) {
      // COMMIT of a transaction that had failed: PostgreSQL rolls it back instead.
      s = Status::Db(ErrorCategory::kOther, "COMMIT failed: the transaction had been aborted");
    }
    PQclear(res);
    return s;
  }
  Status Rollback() override {
    SB_RETURN_IF_ERROR(SettleDriverWork(*conn_));
    if (PQtransactionStatus(conn_->conn) == PQTRANS_IDLE) return Status::Ok();
    return Exec(conn_->conn, "ROLLBACK", "ROLLBACK failed");
  }
  int64_t LastInsertId() override {
    SettleDriverWork(*conn_).IgnoreError();
    PGresult* res = PQexec(conn_->conn, "SELECT lastval()");
    int64_t id = 0;
    if (res && PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1) {
      id = std::strtoll(PQgetvalue(res, 0, 0), nullptr, 10);
    }
    PQclear(res);
    return id;
  }
  Result<std::vector<ServerCounter>> ServerCounters() override;

 private:
  std::shared_ptr<PgConn> conn_;
};

// Rows of (name, value) from a query without parameters, appended to `out` with `meaning(name)`.
Status AppendCounters(PGconn* pg, const char* sql, std::string_view what,
                      std::string (*meaning)(const std::string&), std::vector<ServerCounter>* out) {
  PGresult* res = PQexec(pg, sql);
  if (!res || PQresultStatus(res) != PGRES_TUPLES_OK) {
    Status s = ResultError(pg, res, what);
    PQclear(res);
    return s;
  }
  for (int r = 0; r < PQntuples(res); ++r) {
    ServerCounter c;
    c.name = PQgetvalue(res, r, 0);
    c.meaning = meaning(c.name);
    c.value = std::strtoll(PQgetvalue(res, r, 1), nullptr, 10);
    out->push_back(std::move(c));
  }
  PQclear(res);
  return Status::Ok();
}

std::string DatabaseCounterMeaning(const std::string& name) {
  if (name == "xact_commit") return "commits";
  if (name == "xact_rollback") return "rollbacks";
  if (name == "tup_inserted") return "rows_inserted";
  if (name == "tup_updated") return "rows_updated";
  if (name == "tup_deleted") return "rows_deleted";
  return "";
}

// "pg_stat_statements.select" → "statements.select".
std::string StatementCounterMeaning(const std::string& name) {
  return "statements." + name.substr(name.find('.') + 1);
}

std::string EvictionCounterMeaning(const std::string&) { return "statement_evictions"; }

Result<std::vector<ServerCounter>> PgConnection::ServerCounters() {
  PGconn* pg = conn_->conn;
  SB_RETURN_IF_ERROR(SettleDriverWork(*conn_));
  // Statistics read in a transaction are cached until it ends (stats_fetch_consistency); start
  // from fresh ones.
  SB_RETURN_IF_ERROR(Exec(pg, "SELECT pg_stat_clear_snapshot()", "cannot read server counters"));
  std::vector<ServerCounter> out;
  SB_RETURN_IF_ERROR(AppendCounters(
      pg,
      "SELECT name, value FROM pg_stat_database, LATERAL (VALUES "
      "('xact_commit', xact_commit), ('xact_rollback', xact_rollback), "
      "('tup_inserted', tup_inserted), ('tup_updated', tup_updated), "
      "('tup_deleted', tup_deleted)) AS v(name, value) WHERE datname = current_database()",
      "cannot read pg_stat_database", DatabaseCounterMeaning, &out));
  // pg_stat_statements, when installed in this database and preloaded: calls by the statement's
  // first keyword. Statements naming a pg_stat view (this reader's own: every one of them names
  // one outside its constants, which the view replaces) are left out. When the view is missing
  // or not loaded the query fails once per connection and is not tried again (one error in the
  // server log); the database counters alone are still worth having.
  if (!conn_->no_statement_stats) {
    Status s =
        AppendCounters(pg,
                       "SELECT 'pg_stat_statements.' || kind, sum(calls)::bigint FROM ("
                       "SELECT lower(substring(query FROM '^\\s*([A-Za-z]+)')) AS kind, calls "
                       "FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE "
                       "datname = current_database()) AND query NOT LIKE '%pg\\_stat\\_%') s "
                       "WHERE kind IS NOT NULL GROUP BY kind ORDER BY kind",
                       "cannot read pg_stat_statements", StatementCounterMeaning, &out);
    if (!s.ok()) conn_->no_statement_stats = true;
  }
  // How often pg_stat_statements evicted its least-used entries to make room
  // (pg_stat_statements.max): a statement count that lost an entry is short, so the cross-check
  // does not compare statement counts over a span with evictions (seen on a server shared by
  // several test runs: dealloc 119 with max 5000, a select count 102 lower at the end).
  if (!conn_->no_statement_stats && !conn_->no_statement_info) {
    Status s = AppendCounters(pg,
                              "SELECT 'pg_stat_statements_info.dealloc', dealloc "
                              "FROM pg_stat_statements_info",
                              "cannot read pg_stat_statements_info", EvictionCounterMeaning, &out);
    if (!s.ok()) conn_->no_statement_info = true;
  }
  return out;
}

class PgBulkWriter final : public BulkWriter {
 public:
  static constexpr size_t kFlushBytes = 1 << 20;
  // `commit`: the COPY runs inside a transaction of the writer's own, committed by Finish.
  PgBulkWriter(std::shared_ptr<PgConn> conn, std::string table, int ncols, bool commit)
      : conn_(std::move(conn)), table_(std::move(table)), ncols_(ncols), commit_(commit) {
    buf_.reserve(kFlushBytes + 4096);
  }
  ~PgBulkWriter() override {
    if (!finished_) {
      PQputCopyEnd(conn_->conn, "load abandoned");
      while (PGresult* r = PQgetResult(conn_->conn)) PQclear(r);
    }
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
    if (finished_) return Status::Ok();
    SB_RETURN_IF_ERROR(Flush());
    finished_ = true;
    if (PQputCopyEnd(conn_->conn, nullptr) != 1) return CopyError();
    Status s;
    while (PGresult* r = PQgetResult(conn_->conn)) {
      if (s.ok() && PQresultStatus(r) != PGRES_COMMAND_OK) {
        s = ResultError(conn_->conn, r, "COPY into " + table_ + " failed");
      }
      PQclear(r);
    }
    if (s.ok() && commit_) s = Exec(conn_->conn, "COMMIT", "COPY into " + table_ + ": COMMIT");
    return s;
  }

 private:
  Status Flush() {
    if (buf_.empty()) return Status::Ok();
    if (PQputCopyData(conn_->conn, buf_.data(), static_cast<int>(buf_.size())) != 1) {
      return CopyError();
    }
    buf_.clear();
    return Status::Ok();
  }
  Status CopyError() {
    finished_ = true;
    // The server's reason arrives as the COPY's result.
    PQputCopyEnd(conn_->conn, "client error");
    Status s =
        Status::Db(ErrorCategory::kConnectionLost,
                   "COPY into " + table_ + " failed: " + FirstLine(PQerrorMessage(conn_->conn)));
    while (PGresult* r = PQgetResult(conn_->conn)) {
      if (PQresultStatus(r) == PGRES_FATAL_ERROR)
        s = ResultError(conn_->conn, r, "COPY into " + table_ + " failed");
      PQclear(r);
    }
    return s;
  }

  std::shared_ptr<PgConn> conn_;
  std::string table_;
  int ncols_;
  bool commit_;
  std::string buf_;
  bool finished_ = false;
};

// The session that holds a schema's storebench advisory lock; closing it releases the lock.
// How long a lock's release may wait for the server (it takes milliseconds).
constexpr int64_t kLockReleaseNanos = int64_t{5} * 1000 * 1000 * 1000;

class PgDbLock final : public DbLock {
 public:
  explicit PgDbLock(std::shared_ptr<PgConn> conn) : conn_(std::move(conn)) {}
  // Released by a statement before the session closes: the server ends a closed session a
  // moment after the client has gone, and a storebench started right after this one must find
  // the schema free.
  ~PgDbLock() override {
    // A server known silent would only make the statement wait out its deadline; PQfinish
    // closes the session, which the server ends (lock and all) when it answers again.
    if (server_silent_) return;
    // Bounded: a server that does not answer ends the session when it answers again.
    if (!conn_->interrupt) conn_->interrupt = SocketInterrupt(PQsocket(conn_->conn));
    CallDeadline deadline(CallInterrupt::Callable(conn_->interrupt), kLockReleaseNanos);
    Exec(conn_->conn, "SELECT pg_advisory_unlock_all()", "pg_advisory_unlock_all").IgnoreError();
  }
  void ServerSilent() override { server_silent_ = true; }

 private:
  std::shared_ptr<PgConn> conn_;
  bool server_silent_ = false;
};

// The advisory lock key of a schema: a fixed first half that marks storebench's locks in
// pg_locks, and a hash of the schema name (advisory locks are per database already).
constexpr int32_t kLockClass = 0x53420001;
int32_t SchemaLockKey(const std::string& schema) {
  uint32_t h = 2166136261u;  // FNV-1a
  for (unsigned char c : schema) h = (h ^ c) * 16777619u;
  return static_cast<int32_t>(h & 0x7fffffffu);  // positive: pg_locks shows it as oid
}

// The text between the last quote before `marker` and `marker` in `query`, or "".
std::string QuotedBefore(const std::string& query, const std::string& marker) {
  const size_t end = query.find(marker);
  if (end == std::string::npos) return "";
  const size_t begin = query.rfind('\'', end - 1);
  return begin == std::string::npos ? "" : query.substr(begin + 1, end - begin - 1);
}

class PgBackend final : public DbBackend {
 public:
  explicit PgBackend(DbUrl url) : url_(std::move(url)) {
    caps_.full_text_search = true;
    caps_.stored_procedures = true;
    caps_.concurrent_writers = true;
    caps_.server = true;
    caps_.server_counters = true;
    caps_.server_counters_lag = true;
    caps_.pristine_copy = true;
    caps_.concurrent_index_builds = true;
  }

  const Capabilities& capabilities() const override { return caps_; }
  std::string dialect() const override { return "postgres"; }

  Result<std::unique_ptr<Connection>> Connect() override {
    auto conn = Open();
    if (!conn.ok()) return conn.status();
    return std::unique_ptr<Connection>(new PgConnection(std::move(conn).value()));
  }

  Result<std::unique_ptr<BulkWriter>> NewBulkWriter(
      const std::string& table, const std::vector<std::string>& columns) override {
    return StartCopy(table, columns, /*sole=*/false);
  }

  Result<std::unique_ptr<BulkWriter>> NewSoleBulkWriter(
      const std::string& table, const std::vector<std::string>& columns) override {
    return StartCopy(table, columns, /*sole=*/true);
  }

  std::string SoleBulkWriterSession() const override { return kSoleSession; }

  Result<ServerInfo> Describe() override {
    auto conn = Open();
    if (!conn.ok()) return conn.status();
    PGconn* pg = (*conn)->conn;
    ServerInfo info;
    info.product = "PostgreSQL";
    const char* v = PQparameterStatus(pg, "server_version");
    info.version = v ? v : "";
    PGresult* res = PQexec(
        pg,
        "SELECT name, current_setting(name) FROM pg_settings WHERE name IN ("
        "'shared_buffers', 'max_connections', 'fsync', 'synchronous_commit', 'wal_level', "
        "'default_transaction_isolation', 'work_mem', 'effective_cache_size', 'max_wal_size', "
        "'checkpoint_timeout', 'full_page_writes', 'default_text_search_config', "
        "'deadlock_timeout', 'server_encoding', 'data_checksums')");
    if (res && PQresultStatus(res) == PGRES_TUPLES_OK) {
      for (int r = 0; r < PQntuples(res); ++r)
        info.settings[PQgetvalue(res, r, 0)] = PQgetvalue(res, r, 1);
    }
    PQclear(res);
    info.settings["libpq_version"] = std::to_string(PQlibVersion());
    return info;
  }

  bool Exists() override { return Open().ok(); }

  // data_directory is readable by superusers and pg_read_all_settings only
  // (https://www.postgresql.org/docs/current/runtime-config-file-locations.html); the default
  // tablespace is assumed to be in it.
  Result<StorageSpace> FreeSpace() override {
    return ServerSpace(*this, url_.host, "SELECT pg_database_size(current_database())",
                       "SHOW data_directory");
  }

  // pg_try_advisory_lock on a session of its own, for the schema the workload's tables go to
  // (current_schema(): the URL's options may choose one). The holder's words go where other
  // sessions can read them: the locking statement's text (pg_stat_activity.query keeps an idle
  // session's last statement; shown to the same user and to pg_read_all_stats) and, cut to
  // PostgreSQL's 63 bytes, application_name (shown to everyone).
  Result<std::unique_ptr<DbLock>> TryLock(const std::string& holder_text) override {
    auto opened = Open();
    if (!opened.ok()) return opened.status();
    std::shared_ptr<PgConn> conn = std::move(opened).value();
    PGconn* pg = conn->conn;
    char* app = PQescapeLiteral(pg, holder_text.substr(0, 63).c_str(),
                                std::min<size_t>(holder_text.size(), 63));
    char* holder = PQescapeLiteral(pg, holder_text.c_str(), holder_text.size());
    const std::string app_sql = app ? app : "'storebench'";
    const std::string holder_sql = holder ? holder : "''";
    PQfreemem(app);
    PQfreemem(holder);
    // A lock held for hours must not be ended by an idle-session limit of the server's.
    SB_RETURN_IF_ERROR(Exec(pg, "SET application_name = " + app_sql, "lock session setup"));
    // A lock held for hours must not be ended by an idle-session limit of the server's
    // (idle_session_timeout exists from PostgreSQL 14 on; older servers have no such limit).
    Exec(pg, "SET idle_session_timeout = 0", "lock session setup").IgnoreError();
    auto schema = QueryValue(pg, "SELECT coalesce(current_schema(), '')", "current_schema()");
    if (!schema.ok()) return schema.status();
    const std::string key =
        std::to_string(kLockClass) + ", " + std::to_string(SchemaLockKey(*schema));
    auto got = QueryValue(
        pg,
        "SELECT pg_try_advisory_lock(" + key + "), " + holder_sql + " AS storebench_lock_holder",
        "pg_try_advisory_lock");
    if (!got.ok()) return got.status();
    if (*got == "t") return std::unique_ptr<DbLock>(new PgDbLock(std::move(conn)));
    PGresult* res = PQexec(
        pg,
        ("SELECT a.pid, coalesce(a.query, ''), coalesce(a.application_name, '') "
         "FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid "
         "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 "
         "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
         "AND l.classid = " +
         std::to_string(kLockClass) + " AND l.objid = " + std::to_string(SchemaLockKey(*schema)))
            .c_str());
    std::string who;
    if (res != nullptr && PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) > 0) {
      who = QuotedBefore(PQgetvalue(res, 0, 1), "' AS storebench_lock_holder");
      if (who.empty()) {
        const std::string app_name = PQgetvalue(res, 0, 2);
        who = "the PostgreSQL session of server pid " + std::string(PQgetvalue(res, 0, 0)) +
              (app_name.empty() ? "" : " (" + app_name + ")");
      }
    }
    PQclear(res);
    return Status::FailedPrecondition(who.empty() ? "another session" : who);
  }

  // The pristine copy is the database "<name>_sbpristine", made and brought back with CREATE
  // DATABASE ... TEMPLATE (https://www.postgresql.org/docs/current/manage-ag-templatedbs.html):
  // the server copies the files, no rows pass through a client. STRATEGY FILE_COPY (PostgreSQL
  // 15 and later) copies the files and checkpoints instead of writing every page into the
  // write-ahead log, the faster way for a database of more than a few megabytes. The template
  // must have no other session: the lock session is closed for the moment of the copy.
  Result<std::string> SavePristine(std::unique_ptr<DbLock>* lock,
                                   const std::string& holder_text) override {
    auto copy = PristineName();
    if (!copy.ok()) return copy.status();
    {
      auto live = Fingerprint(url_.database);
      if (!live.ok()) return live.status();
      SB_RETURN_IF_ERROR(CheckIsStorebenchDatabase(*live, Described()));
      // The copy is of the whole database: one that holds anything besides the workload would
      // have that brought back too, and changes to it lost, at every restore.
      for (const std::string& t : live->tables) {
        if (t.find('.') != std::string::npos) {
          return Status::FailedPrecondition(
              Described() + " holds tables outside the workload's schema (" + t +
              "); a pristine copy covers the whole database, so storebench makes none of a "
              "database that holds anything else");
        }
      }
    }
    auto admin = OpenAdmin();
    if (!admin.ok()) return admin.status();
    PGconn* pg = (*admin)->conn;
    auto mark = Marker(pg, *copy);
    if (!mark.ok()) return mark.status();
    if (mark->exists && mark->comment != MarkerText()) {
      return Status::FailedPrecondition("the database " + *copy +
                                        " exists and is not storebench's "
                                        "pristine copy of " +
                                        url_.database + "; rename or drop it");
    }
    SB_RETURN_IF_ERROR(CheckOwnDatabase(pg));
    if (mark->exists)
      SB_RETURN_IF_ERROR(Exec(pg, "DROP DATABASE " + Ident(pg, *copy), "drop copy"));
    lock->reset();
    Status made = CreateFromTemplate(pg, *copy, url_.database);
    if (made.ok()) {
      made =
          Exec(pg, "COMMENT ON DATABASE " + Ident(pg, *copy) + " IS " + Literal(pg, MarkerText()),
               "COMMENT ON DATABASE " + *copy);
    }
    SB_RETURN_IF_ERROR(Relock(lock, holder_text));
    if (!made.ok()) return InUse(made);
    return TemplateMethod(pg);
  }

  // Where the workload says what its runs write (HintRunWrites) and the database is of that
  // workload: only that is brought back from the copy (RestorePgRunWrites), the database stays.
  // Otherwise DROP DATABASE, then CREATE DATABASE ... TEMPLATE from the copy, whose time grows
  // with the database's size (measured at DVD Store M: docs/consolidation.md). Either way the
  // tables and storebench_meta must match the copy's (CheckRestorable). Only a database that loses
  // nothing by it is replaced: its tables and storebench_meta match the copy's
  // (CheckRestorable), and it has no database-level grants or settings (ALTER DATABASE ... SET),
  // which a template copy does not carry. Between the two statements the database does not
  // exist; should the CREATE fail, the copy is intact and the message says how to bring it back.
  Result<std::string> RestorePristine(std::unique_ptr<DbLock>* lock,
                                      const std::string& holder_text) override {
    auto copy = PristineName();
    if (!copy.ok()) return copy.status();
    auto admin = OpenAdmin();
    if (!admin.ok()) return admin.status();
    PGconn* pg = (*admin)->conn;
    auto mark = Marker(pg, *copy);
    if (!mark.ok()) return mark.status();
    if (!mark->exists || mark->comment != MarkerText()) {
      return Status::FailedPrecondition(Described() + " has no pristine copy (no database " +
                                        *copy + " made by storebench)");
    }
    auto kept = Fingerprint(*copy);
    if (!kept.ok()) return kept.status();
    auto live = Fingerprint(url_.database);
    if (!live.ok()) return live.status();
    SB_RETURN_IF_ERROR(CheckRestorable(*live, *kept, Described()));
    if (RunWritesApply(hint_, *live)) {
      // What runs write, from the copy: the database stays (no DROP), so the time is that of
      // the run's rows, not of the database's size.
      auto to = Open(url_.database);
      if (!to.ok()) return to.status();
      auto from = Open(*copy);
      if (!from.ok()) return from.status();
      return RestorePgRunWrites((*to)->conn, (*from)->conn, *hint_, kept->tables);
    }
    SB_RETURN_IF_ERROR(CheckOwnDatabase(pg));
    auto extras = QueryValue(
        pg,
        "SELECT (d.datacl IS NOT NULL)::int + (SELECT count(*) FROM pg_db_role_setting s "
        "WHERE s.setdatabase = d.oid) FROM pg_database d WHERE d.datname = " +
            Literal(pg, url_.database),
        "database settings");
    if (!extras.ok()) return extras.status();
    if (*extras != "0") {
      return Status::FailedPrecondition(
          Described() +
          " has database-level grants or settings (ALTER DATABASE ... SET) that a "
          "restore from its template copy would lose; nothing was changed");
    }
    lock->reset();
    Status dropped =
        Exec(pg, "DROP DATABASE " + Ident(pg, url_.database), "DROP DATABASE " + url_.database);
    if (!dropped.ok()) {
      SB_RETURN_IF_ERROR(Relock(lock, holder_text));
      return InUse(dropped);
    }
    Status made = CreateFromTemplate(pg, url_.database, *copy);
    if (!made.ok()) {
      return Status::FailedPrecondition("the database " + url_.database +
                                        " was dropped for the restore and could not be made "
                                        "again from its pristine copy (" +
                                        made.message() +
                                        "); the copy is intact: CREATE "
                                        "DATABASE " +
                                        url_.database + " TEMPLATE " + *copy + " brings it back");
    }
    SB_RETURN_IF_ERROR(Relock(lock, holder_text));
    return TemplateMethod(pg);
  }

  void HintRunWrites(const RunWrites& writes) override { hint_ = writes; }

 private:
  // What a sole writer does (NewSoleBulkWriter). FREEZE writes the rows already frozen and
  // their pages all-visible, which COPY may do only into a table created or truncated in its
  // own transaction: without it the first scan after the load (the index builds) sets a hint
  // bit on every row and writes every page again, and VACUUM visits them all once more
  // (https://www.postgresql.org/docs/current/sql-copy.html; pgbench -i loads the same way).
  static constexpr char kSoleSession[] =
      "one connection per table: BEGIN; TRUNCATE; COPY FROM STDIN (FREEZE); COMMIT; "
      "synchronous_commit = off";

  Result<std::unique_ptr<BulkWriter>> StartCopy(const std::string& table,
                                                const std::vector<std::string>& columns,
                                                bool sole) {
    auto conn = Open();
    if (!conn.ok()) return conn.status();
    PGconn* pg = (*conn)->conn;
    // The loader's own connection: a crash mid-load leaves a load that 'load --force' redoes.
    SB_RETURN_IF_ERROR(Exec(pg, "SET synchronous_commit = off", "bulk load setup"));
    if (sole) {
      SB_RETURN_IF_ERROR(Exec(pg, "BEGIN", "bulk load setup"));
      SB_RETURN_IF_ERROR(Exec(pg, "TRUNCATE " + table, "bulk load setup: TRUNCATE " + table));
    }
    std::string sql = "COPY " + table + " (";
    for (size_t i = 0; i < columns.size(); ++i) sql += (i ? "," : "") + columns[i];
    sql += sole ? ") FROM STDIN (FREEZE)" : ") FROM STDIN";
    PGresult* res = PQexec(pg, sql.c_str());
    const bool ok = res && PQresultStatus(res) == PGRES_COPY_IN;
    Status s = ok ? Status::Ok() : ResultError(pg, res, "cannot start COPY into " + table);
    PQclear(res);
    if (!s.ok()) return s;
    return std::unique_ptr<BulkWriter>(
        new PgBulkWriter(std::move(conn).value(), table, static_cast<int>(columns.size()), sole));
  }

  struct MarkerInfo {
    bool exists = false;
    std::string comment;
  };

  std::string Described() const { return "the PostgreSQL database " + url_.database; }
  std::string MarkerText() const { return "storebench pristine copy of " + url_.database; }

  Result<std::string> PristineName() const {
    std::string name = url_.database + "_sbpristine";
    if (url_.database.empty() || name.size() > 63) {  // NAMEDATALEN - 1
      return Status::FailedPrecondition("the database name '" + url_.database +
                                        "' leaves no room for the name of its pristine "
                                        "copy (" +
                                        name + ": PostgreSQL names have at most 63 bytes)");
    }
    return name;
  }

  // A session on the server's maintenance database, from which databases are created and
  // dropped (a session cannot drop the database it is connected to).
  Result<std::shared_ptr<PgConn>> OpenAdmin() {
    auto conn = Open("postgres");
    if (!conn.ok()) conn = Open("template1");
    return conn;
  }

  Result<DbFingerprint> Fingerprint(const std::string& database) {
    auto conn = Open(database);
    if (!conn.ok()) return conn.status();
    PgConnection c(std::move(conn).value());
    return ReadFingerprint(
        c,
        "SELECT CASE WHEN table_schema = current_schema() THEN table_name ELSE table_schema || "
        "'.' || table_name END FROM information_schema.tables WHERE table_schema NOT IN "
        "('pg_catalog', 'information_schema')",
        "SELECT key, value FROM storebench_meta");
  }

  Result<MarkerInfo> Marker(PGconn* pg, const std::string& database) {
    const std::string sql =
        "SELECT coalesce(shobj_description(oid, 'pg_database'), '') FROM pg_database "
        "WHERE datname = " +
        Literal(pg, database);
    PGresult* res = PQexec(pg, sql.c_str());
    if (res == nullptr || PQresultStatus(res) != PGRES_TUPLES_OK) {
      Status s = ResultError(pg, res, "pg_database");
      PQclear(res);
      return s;
    }
    MarkerInfo m;
    m.exists = PQntuples(res) > 0;
    if (m.exists) m.comment = PQgetvalue(res, 0, 0);
    PQclear(res);
    return m;
  }

  // The session's role must be able to drop the database (its owner, or a superuser) and
  // create databases (CREATEDB), checked before anything is dropped.
  Status CheckOwnDatabase(PGconn* pg) {
    auto ok = QueryValue(pg,
                         "SELECT (r.rolsuper OR (r.rolcreatedb AND pg_has_role(current_user, "
                         "d.datdba, 'MEMBER')))::int FROM pg_roles r, pg_database d WHERE "
                         "r.rolname = current_user AND d.datname = " +
                             Literal(pg, url_.database),
                         "role rights");
    if (!ok.ok()) return ok.status();
    if (*ok != "1") {
      return Status::FailedPrecondition("a pristine copy of " + url_.database +
                                        " needs a role that owns it and may create "
                                        "databases (ALTER ROLE ... CREATEDB)");
    }
    return Status::Ok();
  }

  // " STRATEGY FILE_COPY" where the server knows it (PostgreSQL 15 and later), else "".
  static std::string FileCopy(PGconn* pg) {
    return PQserverVersion(pg) >= 150000 ? " STRATEGY FILE_COPY" : "";
  }
  // CREATE DATABASE `name` as a copy of `from` (which must have no other session).
  static Status CreateFromTemplate(PGconn* pg, const std::string& name, const std::string& from) {
    return Exec(
        pg, "CREATE DATABASE " + Ident(pg, name) + " TEMPLATE " + Ident(pg, from) + FileCopy(pg),
        "CREATE DATABASE " + name + " TEMPLATE " + from);
  }
  // How a copy was made, in words (DbBackend::SavePristine/RestorePristine).
  static std::string TemplateMethod(PGconn* pg) {
    return std::string("CREATE DATABASE ... TEMPLATE") +
           (FileCopy(pg).empty() ? "" : " (STRATEGY FILE_COPY)");
  }
  // A copy or drop refused because other sessions use the database, said with the way out.
  Status InUse(const Status& s) const {
    if (s.message().find("being accessed by other users") != std::string::npos) {
      return Status::FailedPrecondition(Described() +
                                        " is in use by other sessions "
                                        "(pg_stat_activity lists them); close them and try again");
    }
    return s;
  }
  Status Relock(std::unique_ptr<DbLock>* lock, const std::string& holder_text) {
    auto again = TryLock(holder_text);
    if (!again.ok()) {
      return Status::FailedPrecondition(
          "while " + url_.database +
          " was copied, another process took its storebench lock: " + again.status().message());
    }
    *lock = std::move(again).value();
    return Status::Ok();
  }

  Result<std::shared_ptr<PgConn>> Open(const std::string& database = "") {
    std::vector<std::pair<std::string, std::string>> kv;
    if (!url_.host.empty()) kv.emplace_back("host", url_.host);
    if (url_.port > 0) kv.emplace_back("port", std::to_string(url_.port));
    if (!url_.user.empty()) kv.emplace_back("user", url_.user);
    const std::string& dbname = database.empty() ? url_.database : database;
    if (!dbname.empty()) kv.emplace_back("dbname", dbname);
    kv.emplace_back("fallback_application_name", "storebench");
    if (!url_.params.count("connect_timeout")) kv.emplace_back("connect_timeout", "10");
    for (const auto& [k, v] : url_.params) kv.emplace_back(k, v);
    std::vector<const char*> keys, values;
    for (const auto& [k, v] : kv) {
      keys.push_back(k.c_str());
      values.push_back(v.c_str());
    }
    keys.push_back(nullptr);
    values.push_back(nullptr);
    auto conn = std::make_shared<PgConn>();
    conn->conn = PQconnectdbParams(keys.data(), values.data(), 0);
    if (conn->conn == nullptr) return Status::Db(ErrorCategory::kOther, "libpq: out of memory");
    if (PQstatus(conn->conn) != CONNECTION_OK) {
      ConnectFailure f;
      f.product = "PostgreSQL";
      // What libpq used, defaults and PGHOST/PGPORT included (PQhost, PQport: "Connection
      // Status Functions" of the libpq manual; both answer on a failed connection).
      const char* host = PQhost(conn->conn);
      const char* port = PQport(conn->conn);
      f.host = host != nullptr && *host != '\0' ? host : url_.host;
      f.port = port != nullptr && *port != '\0' ? port : std::to_string(url_.port);
      f.url = url_.redacted;
      f.why = FirstLine(PQerrorMessage(conn->conn));
      // Nothing listens there: say what to do, not only what libpq saw.
      f.no_server = f.why.find("Connection refused") != std::string::npos ||
                    f.why.find("No such file or directory") != std::string::npos;
      f.password_sources = "PGPASSWORD or ~/.pgpass";
      return ConnectError(f);
    }
    PQsetNoticeProcessor(conn->conn, IgnoreNotice, nullptr);
    return conn;
  }

  DbUrl url_;
  Capabilities caps_;
  std::optional<RunWrites> hint_;
};

}  // namespace

Result<std::unique_ptr<DbBackend>> OpenPostgres(const DbUrl& url,
                                                const BackendOptions& /*options*/) {
  for (const auto& [k, v] : url.params) {
    if (k == "password" || k == "passfile_contents") {
      return Status::InvalidArgument(
          "the database URL contains a password; use PGPASSWORD or ~/.pgpass");
    }
  }
  return std::unique_ptr<DbBackend>(new PgBackend(url));
}

}  // namespace sb::db
