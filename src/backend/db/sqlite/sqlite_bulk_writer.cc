#include "backend/db/sqlite/sqlite_bulk_writer.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "backend/db/sqlite/sqlite_status.h"

namespace sb::db {
namespace {

// Rows per multi-row INSERT, fewer when the table has so many columns that the statement would
// pass SQLite's limit on parameters. DVD Store S's data phase, alternating builds: 5.2 s with
// one row per statement, 4.25 s with 16, 3.85 s with 64, 3.9 s with 256 (whose larger program
// also costs more CPU), docs/load-performance.md.
constexpr int kRowsPerStatement = 64;

// One held field: its bytes in the writer's text buffer, or NULL (size < 0).
struct HeldField {
  uint32_t offset;
  int32_t size;
};

class SqliteBulkWriter final : public BulkWriter {
 public:
  SqliteBulkWriter(std::unique_ptr<Connection> conn, int ncols, int rows_per_statement,
                   int64_t rows_per_txn, sqlite3_stmt* many_rows, sqlite3_stmt* one_row)
      : conn_(std::move(conn)),
        ncols_(ncols),
        rows_per_statement_(rows_per_statement),
        rows_per_txn_(rows_per_txn),
        many_rows_(many_rows),
        one_row_(one_row) {
    fields_.reserve(static_cast<size_t>(ncols) * static_cast<size_t>(rows_per_statement));
  }
  // The statements go before the connection (a member, destroyed after this body) closes.
  ~SqliteBulkWriter() override {
    sqlite3_finalize(many_rows_);
    sqlite3_finalize(one_row_);
  }
  SqliteBulkWriter(const SqliteBulkWriter&) = delete;
  SqliteBulkWriter& operator=(const SqliteBulkWriter&) = delete;

  Status AddRow(const std::vector<std::string_view>& fields) override {
    if (static_cast<int>(fields.size()) != ncols_) {
      return Status::Internal("bulk row has " + std::to_string(fields.size()) +
                              " fields, table has " + std::to_string(ncols_));
    }
    // Copied once, into one buffer: the caller's fields live only until this call returns.
    for (std::string_view f : fields) {
      if (f == kBulkNull) {
        fields_.push_back({0, -1});
      } else {
        fields_.push_back({static_cast<uint32_t>(text_.size()), static_cast<int32_t>(f.size())});
        text_.append(f);
      }
    }
    if (++held_rows_ == rows_per_statement_) return Flush();
    return Status::Ok();
  }

  Status Finish() override {
    SB_RETURN_IF_ERROR(Flush());
    if (!in_txn_) return Status::Ok();
    in_txn_ = false;
    rows_in_txn_ = 0;
    return conn_->Commit();
  }

 private:
  // Inserts the held rows (a full statement's worth at once, fewer one by one) and commits when
  // the transaction has its rows.
  Status Flush() {
    if (held_rows_ == 0) return Status::Ok();
    if (!in_txn_) {
      SB_RETURN_IF_ERROR(conn_->Begin(true));
      in_txn_ = true;
    }
    if (held_rows_ == rows_per_statement_) {
      SB_RETURN_IF_ERROR(Insert(many_rows_, 0, held_rows_));
    } else {
      for (int r = 0; r < held_rows_; ++r) SB_RETURN_IF_ERROR(Insert(one_row_, r, 1));
    }
    rows_in_txn_ += held_rows_;
    held_rows_ = 0;
    text_.clear();
    fields_.clear();
    if (rows_per_txn_ > 0 && rows_in_txn_ >= rows_per_txn_) {
      in_txn_ = false;
      rows_in_txn_ = 0;
      return conn_->Commit();
    }
    return Status::Ok();
  }

  // Binds held rows [first, first + rows) to `stmt` and runs it. SQLITE_STATIC: SQLite reads
  // the bytes in place during the step (the buffer does not change until the next Flush) and
  // copies them into the row it builds.
  Status Insert(sqlite3_stmt* stmt, int first, int rows) {
    const HeldField* f = fields_.data() + static_cast<size_t>(first) * ncols_;
    const int n = rows * ncols_;
    for (int i = 0; i < n; ++i) {
      if (f[i].size < 0) {
        sqlite3_bind_null(stmt, i + 1);
      } else {
        sqlite3_bind_text(stmt, i + 1, text_.data() + f[i].offset, f[i].size, SQLITE_STATIC);
      }
    }
    const int rc = sqlite3_step(stmt);
    if (rc == SQLITE_DONE) {
      sqlite3_reset(stmt);
      return Status::Ok();
    }
    // Name the rows: a load error is otherwise hard to trace back to the data.
    const std::string first_field =
        f[0].size < 0 ? std::string("NULL") : text_.substr(f[0].offset, f[0].size);
    Status s = SqliteError(sqlite3_db_handle(stmt), rc,
                           rows == 1 ? "insert failed (row starting '" + first_field + "')"
                                     : "insert failed (one of " + std::to_string(rows) +
                                           " rows, the first starting '" + first_field + "')");
    sqlite3_reset(stmt);
    return s;
  }

  std::unique_ptr<Connection> conn_;
  const int ncols_;
  const int rows_per_statement_;
  const int64_t rows_per_txn_;
  sqlite3_stmt* many_rows_;
  sqlite3_stmt* one_row_;
  std::string text_;
  std::vector<HeldField> fields_;
  int held_rows_ = 0;
  int64_t rows_in_txn_ = 0;
  bool in_txn_ = false;
};

Result<sqlite3_stmt*> PrepareInsert(sqlite3* db, const std::string& head, int ncols, int rows) {
  std::string row = "(";
  for (int i = 0; i < ncols; ++i) row += i ? ",?" : "?";
  row += ")";
  std::string sql = head;
  sql.reserve(head.size() + static_cast<size_t>(rows) * (row.size() + 1));
  for (int r = 0; r < rows; ++r) {
    if (r > 0) sql += ',';
    sql += row;
  }
  sqlite3_stmt* stmt = nullptr;
  const int rc = sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()),
                                    SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
  if (rc != SQLITE_OK) return SqliteError(db, rc, "cannot prepare '" + head + "(...)'");
  return stmt;
}

}  // namespace

int SqliteBulkWriterRowsPerStatement() { return kRowsPerStatement; }

Result<std::unique_ptr<BulkWriter>> NewSqliteBulkWriter(std::unique_ptr<Connection> conn,
                                                        sqlite3* db, const std::string& table,
                                                        const std::vector<std::string>& columns,
                                                        int64_t rows_per_txn) {
  const int ncols = static_cast<int>(columns.size());
  if (ncols == 0) return Status::Internal("bulk writer for '" + table + "' without columns");
  std::string head = "INSERT INTO " + table + " (";
  for (int i = 0; i < ncols; ++i) head += (i ? "," : "") + columns[i];
  head += ") VALUES ";
  const int max_params = sqlite3_limit(db, SQLITE_LIMIT_VARIABLE_NUMBER, -1);
  const int rows_per_statement = std::max(1, std::min(kRowsPerStatement, max_params / ncols));
  auto one = PrepareInsert(db, head, ncols, 1);
  if (!one.ok()) return one.status();
  auto many = PrepareInsert(db, head, ncols, rows_per_statement);
  if (!many.ok()) {
    sqlite3_finalize(*one);
    return many.status();
  }
  return std::unique_ptr<BulkWriter>(
      new SqliteBulkWriter(std::move(conn), ncols, rows_per_statement, rows_per_txn, *many, *one));
}

}  // namespace sb::db
