#include "backend/db/postgres/pg_run_writes_restore.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <system_error>
#include <utility>

#include "backend/db/postgres/pg_util.h"

namespace sb::db {
namespace {

// The Status of a failed step, said as the restore's.
Status Failed(PGconn* pg, const PGresult* res, std::string_view what) {
  return pg::ResultError(pg, res, "restore: " + std::string(what));
}

Result<std::vector<std::vector<std::string>>> Rows(PGconn* pg, const std::string& sql,
                                                   std::string_view what) {
  return pg::QueryRows(pg, sql, "restore: " + std::string(what));
}

Status Run(PGconn* pg, const std::string& sql, std::string_view what) {
  return pg::Exec(pg, sql, "restore: " + std::string(what));
}

using pg::Ident;
using pg::Literal;

// The rows of `table` from `from` into the same table on `to`, streamed through COPY
// (https://www.postgresql.org/docs/current/libpq-copy.html): no row is parsed here. FREEZE
// because `to` truncated the table in its open transaction, as the loader's COPY does.
Status CopyTable(PGconn* from, PGconn* to, const std::string& table) {
  PGresult* out = PQexec(from, ("COPY " + Ident(from, table) + " TO STDOUT").c_str());
  if (out == nullptr || PQresultStatus(out) != PGRES_COPY_OUT) {
    Status s = Failed(from, out, "COPY " + table + " TO STDOUT (the pristine copy)");
    PQclear(out);
    return s;
  }
  PQclear(out);
  PGresult* in = PQexec(to, ("COPY " + Ident(to, table) + " FROM STDIN (FREEZE)").c_str());
  const bool in_ok = in != nullptr && PQresultStatus(in) == PGRES_COPY_IN;
  Status s = in_ok ? Status::Ok() : Failed(to, in, "COPY " + table + " FROM STDIN");
  PQclear(in);
  // Read the copy's stream to its end even when the other side failed: `from` stays usable.
  for (;;) {
    char* buf = nullptr;
    const int n = PQgetCopyData(from, &buf, 0);
    if (n > 0) {
      if (s.ok() && PQputCopyData(to, buf, n) != 1) s = Failed(to, nullptr, "COPY " + table);
      PQfreemem(buf);
      continue;
    }
    if (n == -2) s = Failed(from, nullptr, "COPY " + table + " TO STDOUT");
    break;
  }
  for (PGresult* r = PQgetResult(from); r != nullptr; r = PQgetResult(from)) {
    if (s.ok() && PQresultStatus(r) != PGRES_COMMAND_OK) s = Failed(from, r, "COPY " + table);
    PQclear(r);
  }
  if (in_ok) {
    const bool ended = PQputCopyEnd(to, s.ok() ? nullptr : "restore stopped") == 1;
    if (s.ok() && !ended) s = Failed(to, nullptr, "COPY " + table);
    for (PGresult* r = PQgetResult(to); r != nullptr; r = PQgetResult(to)) {
      if (s.ok() && PQresultStatus(r) != PGRES_COMMAND_OK) s = Failed(to, r, "COPY " + table);
      PQclear(r);
    }
  }
  return s;
}

Status SetSequencesBack(PGconn* live, PGconn* copy) {
  auto seqs = Rows(copy,
                   "SELECT sequencename, coalesce(last_value, start_value), last_value IS NOT "
                   "NULL FROM pg_sequences WHERE schemaname = current_schema()",
                   "the pristine copy's sequences");
  if (!seqs.ok()) return seqs.status();
  for (const auto& s : *seqs) {
    SB_RETURN_IF_ERROR(Run(live,
                           "SELECT setval(" + Literal(live, Ident(live, s[0])) + ", " + s[1] +
                               ", " + (s[2] == "t" ? "true" : "false") + ")",
                           "setval of " + s[0]));
  }
  return Status::Ok();
}

// The foreign keys onto `table`'s `column` whose referencing column leads no index: deleting a
// row of `table` then scans the whole referencing table for its ON DELETE action, once per row
// (measured at DVD Store M: 64 new customers took 34.4 s, REVIEWS has no index on CUSTOMERID).
// Each gets an index of the rows above `top` only, built in one scan and dropped after the
// delete in the same transaction (0.54 s there, the delete then 5 ms); the ON DELETE query's
// plan uses it for its key's value, which the index's predicate covers
// (https://www.postgresql.org/docs/current/indexes-partial.html).
Result<std::vector<std::string>> IndexReferences(PGconn* live, const std::string& table,
                                                 const std::string& column,
                                                 const std::string& top) {
  auto refs = Rows(live,
                   "SELECT c.conrelid::regclass::text, a.attname, (SELECT "
                   "relnamespace::regnamespace::text FROM pg_class WHERE oid = c.conrelid) "
                   "FROM pg_constraint c JOIN "
                   "pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1] JOIN "
                   "pg_attribute p ON p.attrelid = c.confrelid AND p.attnum = c.confkey[1] WHERE "
                   "c.contype = 'f' AND cardinality(c.conkey) = 1 AND c.confrelid = " +
                       Literal(live, Ident(live, table)) +
                       "::regclass AND p.attname = " + Literal(live, column) +
                       " AND NOT EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = "
                       "c.conrelid AND i.indkey[0] = c.conkey[1] AND i.indpred IS NULL)",
                   "foreign keys onto " + table);
  if (!refs.ok()) return refs.status();
  std::vector<std::string> made;
  for (const auto& r : *refs) {
    const std::string name = "storebench_restore_" + std::to_string(made.size());
    const std::string key = Ident(live, r[1]);
    // A predicate cannot be a bound parameter: `top` is the copy's integer, parsed and printed
    // again by Body.
    std::string sql = "CREATE INDEX " + name;
    sql += " ON " + r[0];
    sql += " (" + key;
    sql += ") WHERE " + key;
    sql += " > " + top;
    std::string what = "index of " + r[0];
    what += "." + r[1];
    what += " for the delete";
    SB_RETURN_IF_ERROR(Run(live, sql, what));
    // The index is made in its table's schema, which the search path need not hold.
    made.push_back(r[2] + "." + name);
  }
  return made;
}

Status Body(PGconn* live, PGconn* copy, const RunWrites& writes,
            const std::vector<std::string>& tables, int* trimmed,
            std::vector<std::string>* refilled) {
  const auto has = [&](const std::string& t) {
    return std::find(tables.begin(), tables.end(), t) != tables.end();
  };
  for (const std::string& t : writes.rewritten) {
    if (!has(t)) continue;
    SB_RETURN_IF_ERROR(Run(live, "TRUNCATE " + Ident(live, t), "TRUNCATE " + t));
    SB_RETURN_IF_ERROR(CopyTable(copy, live, t));
    refilled->push_back(t);
  }
  // Last appended first: rows that reference an earlier table's new rows (an order's lines)
  // go before them.
  for (size_t i = writes.appended.size(); i-- > 0;) {
    const auto& [t, column] = writes.appended[i];
    if (!has(t)) continue;
    std::string largest = "SELECT coalesce(max(" + Ident(copy, column);
    largest += "), 0) FROM " + Ident(copy, t);
    auto top = Rows(copy, largest, "largest " + column + " in the pristine copy");
    if (!top.ok()) return top.status();
    // The SQL below carries the number as the text of a parsed int64_t, never the server's.
    const std::string& text = (*top)[0][0];
    int64_t largest_id = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), largest_id);
    if (ec != std::errc() || end != text.data() + text.size()) {
      std::string why = "restore: " + column;
      why += " of " + t;
      why += " is not an integer column (" + text;
      why += ")";
      return Status::FailedPrecondition(why);
    }
    const std::string value = std::to_string(largest_id);
    auto helpers = IndexReferences(live, t, column, value);
    if (!helpers.ok()) return helpers.status();
    std::string del = "DELETE FROM " + Ident(live, t);
    del += " WHERE " + Ident(live, column);
    del += " > " + value;
    SB_RETURN_IF_ERROR(Run(live, del, "DELETE of the rows runs added to " + t));
    for (const std::string& name : *helpers) {
      SB_RETURN_IF_ERROR(Run(live, "DROP INDEX " + name, "DROP INDEX " + name));
    }
    ++*trimmed;
  }
  return Status::Ok();
}

}  // namespace

Result<std::string> RestorePgRunWrites(PGconn* live, PGconn* copy, const RunWrites& writes,
                                       const std::vector<std::string>& tables) {
  SB_RETURN_IF_ERROR(Run(live, "BEGIN", "BEGIN"));
  int trimmed = 0;
  std::vector<std::string> refilled;
  Status s = Body(live, copy, writes, tables, &trimmed, &refilled);
  if (s.ok()) s = Run(live, "COMMIT", "COMMIT");
  if (!s.ok()) {
    Run(live, "ROLLBACK", "ROLLBACK").IgnoreError();
    return s;
  }
  SB_RETURN_IF_ERROR(SetSequencesBack(live, copy));
  // TRUNCATE left the refilled tables without the planner's row counts; the copy has them.
  for (const std::string& t : refilled) {
    SB_RETURN_IF_ERROR(Run(live, "ANALYZE " + Ident(live, t), "ANALYZE " + t));
  }
  return "what " + writes.workload + " runs write: " + std::to_string(trimmed) +
         " tables lost the rows above their loaded largest id, " + std::to_string(refilled.size()) +
         " were refilled (TRUNCATE + COPY from the copy), sequences set back, the other " +
         std::to_string(tables.size() - static_cast<size_t>(trimmed) - refilled.size()) +
         " are never written by a run";
}

}  // namespace sb::db
