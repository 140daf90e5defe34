#include "backend/db/sqlite/sqlite_run_writes_restore.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <utility>

namespace sb::db {
namespace {

// The schema name the pristine copy is attached under.
constexpr char kCopy[] = "storebench_pristine";

std::string Quote(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    out += c;
    if (c == '"') out += '"';
  }
  return out + "\"";
}

std::string InMain(const std::string& table) { return "main." + Quote(table); }
std::string InCopy(const std::string& table) { return std::string(kCopy) + "." + Quote(table); }

Status Restore(std::string_view what, Status s) {
  if (s.ok()) return s;
  return Status::Db(s.category(), "restore: " + std::string(what) + ": " + s.message(), "",
                    s.native_code());
}

// Runs `sql` with the text parameters `params`; returns the rows of its first `ncols` columns as
// text and, in `changes`, the rows it wrote.
Result<std::vector<std::vector<std::string>>> Query(Connection& conn, const std::string& sql,
                                                    const std::vector<std::string>& params,
                                                    int ncols, std::string_view what,
                                                    int64_t* changes = nullptr) {
  auto stmt = conn.Prepare(sql);
  if (!stmt.ok()) return Restore(what, stmt.status());
  for (size_t i = 0; i < params.size(); ++i) (*stmt)->BindText(static_cast<int>(i) + 1, params[i]);
  SB_RETURN_IF_ERROR(Restore(what, (*stmt)->Execute()));
  std::vector<std::vector<std::string>> rows;
  while ((*stmt)->Next()) {
    auto& row = rows.emplace_back();
    for (int c = 0; c < ncols; ++c) row.emplace_back((*stmt)->GetText(c));
  }
  SB_RETURN_IF_ERROR(Restore(what, (*stmt)->status()));
  if (changes != nullptr) *changes = (*stmt)->RowsAffected();
  return rows;
}

Status Run(Connection& conn, const std::string& sql, std::string_view what,
           int64_t* changes = nullptr) {
  auto rows = Query(conn, sql, {}, 0, what, changes);
  return rows.ok() ? Status::Ok() : rows.status();
}

// The columns an INSERT ... SELECT carries for `table` of the copy: every stored column (hidden
// 0 in table_xinfo: not a generated column), and its rowid first where the table has one that
// no column stands for (a table without an INTEGER PRIMARY KEY, such as DVD Store's REORDER),
// so the refilled rows keep the copy's rowids and the next rowid is the copy's next one.
Result<std::string> RefillColumns(Connection& conn, const std::string& table) {
  auto cols = Query(conn,
                    "SELECT name, pk, upper(type) FROM pragma_table_xinfo(?1, ?2) WHERE hidden = "
                    "0 ORDER BY cid",
                    {table, kCopy}, 3, "the columns of " + table);
  if (!cols.ok()) return cols.status();
  auto kind = Query(conn, "SELECT wr FROM pragma_table_list(?1) WHERE schema = ?2", {table, kCopy},
                    1, "the kind of " + table);
  if (!kind.ok()) return kind.status();
  const bool without_rowid = !kind->empty() && (*kind)[0][0] == "1";
  int pk_columns = 0;
  bool integer_pk = false;
  bool named_rowid = false;
  std::string list;
  for (const auto& c : *cols) {
    if (c[1] != "0") {
      ++pk_columns;
      integer_pk = c[2] == "INTEGER";
    }
    std::string lower = c[0];
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    named_rowid = named_rowid || lower == "rowid" || lower == "_rowid_" || lower == "oid";
    list += (list.empty() ? "" : ", ") + Quote(c[0]);
  }
  // An INTEGER PRIMARY KEY of one column is the rowid itself
  // (https://www.sqlite.org/lang_createtable.html#rowid).
  const bool rowid_is_a_column = pk_columns == 1 && integer_pk;
  if (without_rowid || rowid_is_a_column || named_rowid) return list;
  return "rowid, " + list;
}

struct Counts {
  int trimmed = 0;
  int64_t deleted = 0;
  std::vector<std::string> refilled;
  bool sequences = false;
};

Status Body(Connection& conn, const RunWrites& writes, const std::vector<std::string>& tables,
            Counts* counts) {
  const auto has = [&](const std::string& t) {
    return std::find(tables.begin(), tables.end(), t) != tables.end();
  };
  // Last appended first: rows that reference an earlier table's new rows (an order's lines) go
  // before them, as they would with the foreign keys enforced.
  for (size_t i = writes.appended.size(); i-- > 0;) {
    const auto& [t, column] = writes.appended[i];
    if (!has(t)) continue;
    auto top = Query(
        conn,
        "SELECT max(" + Quote(column) + "), typeof(max(" + Quote(column) + ")) FROM " + InCopy(t),
        {}, 2, "the largest " + column + " of " + t + " in the pristine copy");
    if (!top.ok()) return top.status();
    const std::string& value = (*top)[0][0];
    const std::string& type = (*top)[0][1];
    int64_t deleted = 0;
    if (type == "null") {  // the copy's table is empty: so is the restored one
      SB_RETURN_IF_ERROR(Run(conn, "DELETE FROM " + InMain(t), "DELETE of " + t, &deleted));
    } else if (type == "integer") {
      // The column is the rowid or leads an index in DVD Store's schema (ORDERLINES and
      // CUST_HIST by ORDERID): the delete reads only the rows above the value.
      auto del = conn.Prepare("DELETE FROM " + InMain(t) + " WHERE " + Quote(column) + " > ?1");
      if (!del.ok()) return Restore("DELETE of the rows runs added to " + t, del.status());
      (*del)->BindInt(1, std::stoll(value));
      SB_RETURN_IF_ERROR(Restore("DELETE of the rows runs added to " + t, (*del)->Execute()));
      deleted = (*del)->RowsAffected();
    } else {
      return Status::FailedPrecondition("restore: " + column + " of " + t +
                                        " is not an integer column (its largest value in the "
                                        "pristine copy is of type " +
                                        type + ")");
    }
    counts->deleted += deleted;
    ++counts->trimmed;
  }
  for (const std::string& t : writes.rewritten) {
    if (!has(t)) continue;
    auto cols = RefillColumns(conn, t);
    if (!cols.ok()) return cols.status();
    // Without a WHERE (and with no DELETE trigger and the foreign keys off) SQLite empties the
    // table in one step (the truncate optimization, https://www.sqlite.org/lang_delete.html).
    SB_RETURN_IF_ERROR(Run(conn, "DELETE FROM " + InMain(t), "DELETE of " + t));
    SB_RETURN_IF_ERROR(
        Run(conn,
            "INSERT INTO " + InMain(t) + " (" + *cols + ") SELECT " + *cols + " FROM " + InCopy(t),
            "refill of " + t + " from the pristine copy"));
    counts->refilled.push_back(t);
  }
  auto seq = Query(conn,
                   "SELECT (SELECT count(*) FROM main.sqlite_master WHERE name = "
                   "'sqlite_sequence'), (SELECT count(*) FROM storebench_pristine.sqlite_master "
                   "WHERE name = 'sqlite_sequence')",
                   {}, 2, "sqlite_sequence");
  if (!seq.ok()) return seq.status();
  if ((*seq)[0][0] == "1" && (*seq)[0][1] == "1") {
    SB_RETURN_IF_ERROR(Run(conn, "DELETE FROM main.sqlite_sequence", "DELETE of sqlite_sequence"));
    SB_RETURN_IF_ERROR(Run(conn,
                           "INSERT INTO main.sqlite_sequence (name, seq) SELECT name, seq FROM "
                           "storebench_pristine.sqlite_sequence",
                           "sqlite_sequence from the pristine copy"));
    counts->sequences = true;
  }
  return Status::Ok();
}

}  // namespace

std::string SqliteImmutableUri(const std::string& path) {
  std::string uri = "file:";
  for (char c : path) {
    if (c == '%' || c == '?' || c == '#') {
      static constexpr char kHex[] = "0123456789ABCDEF";
      uri += '%';
      uri += kHex[(static_cast<unsigned char>(c) >> 4) & 0xf];
      uri += kHex[static_cast<unsigned char>(c) & 0xf];
    } else {
      uri += c;
    }
  }
  return uri + "?immutable=1";
}

Result<std::string> RestoreSqliteRunWrites(Connection& conn, const std::string& pristine,
                                           const RunWrites& writes,
                                           const std::vector<std::string>& tables) {
  SB_RETURN_IF_ERROR(Run(conn, "PRAGMA foreign_keys = OFF", "foreign keys off"));
  // The commit flushes the log (fsync), as the file copy flushes the file it renames.
  SB_RETURN_IF_ERROR(Run(conn, "PRAGMA synchronous = FULL", "synchronous"));
  auto attached = Query(conn, std::string("ATTACH DATABASE ?1 AS ") + kCopy,
                        {SqliteImmutableUri(pristine)}, 0, "ATTACH of the pristine copy");
  if (!attached.ok()) return attached.status();
  Counts counts;
  Status s = Restore("BEGIN", conn.Begin(/*write=*/true));
  if (s.ok()) s = Body(conn, writes, tables, &counts);
  if (s.ok()) s = Restore("COMMIT", conn.Commit());
  if (!s.ok()) conn.Rollback().IgnoreError();
  Status detached = Run(conn, std::string("DETACH DATABASE ") + kCopy, "DETACH");
  SB_RETURN_IF_ERROR(s);
  SB_RETURN_IF_ERROR(detached);
  SB_RETURN_IF_ERROR(Run(conn, "PRAGMA wal_checkpoint(TRUNCATE)", "checkpoint"));
  const size_t others =
      tables.size() - static_cast<size_t>(counts.trimmed) - counts.refilled.size();
  return "what " + writes.workload + " runs write: " + std::to_string(counts.trimmed) +
         " tables lost the rows above their loaded largest id (" + std::to_string(counts.deleted) +
         " rows), " + std::to_string(counts.refilled.size()) +
         " were refilled (DELETE + INSERT ... SELECT from the attached copy)" +
         (counts.sequences ? ", sqlite_sequence set back" : "") +
         ", in one transaction; the other " + std::to_string(others) +
         " are never written by a run";
}

}  // namespace sb::db
