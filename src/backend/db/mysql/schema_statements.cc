#include "backend/db/mysql/schema_statements.h"

#include <cstdlib>
#include <utility>

#include "backend/db/mysql/my_util.h"

namespace sb::db {
namespace {

// The rows of a query, NULL as "", or the error.
Result<std::vector<std::vector<std::string>>> Rows(MYSQL* m, const std::string& sql) {
  return my::QueryRows(m, sql, "cannot read performance_schema");
}

}  // namespace

bool SchemaStatementsReadable(MYSQL* m, std::string* schema) {
  // A SHOW first: with performance_schema off (MariaDB's default) no SELECT is sent, so the
  // global counters see exactly what they saw before per-schema counts existed.
  auto on = Rows(m, "SHOW GLOBAL VARIABLES WHERE Variable_name = 'performance_schema'");
  if (!on.ok() || on->size() != 1 || (*on)[0].size() != 2 || (*on)[0][1] != "ON") return false;
  auto r = Rows(m,
                "SELECT @@performance_schema, DATABASE(), "
                "(SELECT COUNT(*) FROM performance_schema.setup_consumers WHERE ENABLED = 'YES' "
                "AND NAME IN ('global_instrumentation', 'thread_instrumentation', "
                "'statements_digest')), "
                "(SELECT COUNT(*) FROM performance_schema.setup_instruments WHERE ENABLED = "
                "'YES' AND NAME IN ('statement/sql/begin', 'statement/sql/commit', "
                "'statement/sql/rollback')), "
                "(SELECT COUNT(*) FROM performance_schema.threads WHERE PROCESSLIST_ID = "
                "CONNECTION_ID() AND INSTRUMENTED = 'YES')");
  if (!r.ok() || r->size() != 1 || (*r)[0].size() != 5) return false;
  const std::vector<std::string>& v = (*r)[0];
  if (v[0] != "1" || v[1].empty() || v[2] != "3" || v[3] != "3" || v[4] != "1") return false;
  *schema = v[1];
  return true;
}

Result<std::vector<ServerCounter>> ReadSchemaStatements(MYSQL* m, const std::string& schema) {
  // DIGEST_TEXT is the normalized statement ("COMMIT ", with MariaDB's trailing space).
  const std::string quoted = my::Quoted(m, schema);
  auto r = Rows(m,
                "SELECT TRIM(DIGEST_TEXT), SUM(COUNT_STAR) FROM "
                "performance_schema.events_statements_summary_by_digest WHERE SCHEMA_NAME = " +
                    quoted +
                    " AND TRIM(DIGEST_TEXT) IN ('START TRANSACTION', 'BEGIN', 'COMMIT', "
                    "'ROLLBACK') GROUP BY TRIM(DIGEST_TEXT) "
                    "UNION ALL SELECT 'overflow', COALESCE(SUM(COUNT_STAR), 0) FROM "
                    "performance_schema.events_statements_summary_by_digest WHERE DIGEST IS NULL "
                    "UNION ALL SELECT 'programs', COALESCE(SUM(COUNT_STAR), 0) FROM "
                    "performance_schema.events_statements_summary_by_program WHERE OBJECT_SCHEMA "
                    "= " +
                    quoted + " AND OBJECT_TYPE IN ('PROCEDURE', 'FUNCTION', 'EVENT')");
  if (!r.ok()) return r.status();
  int64_t begin = 0, commit = 0, rollback = 0, overflow = 0, programs = 0;
  for (const auto& row : *r) {
    const int64_t n = std::strtoll(row[1].c_str(), nullptr, 10);
    if (row[0] == "START TRANSACTION" || row[0] == "BEGIN") begin += n;
    if (row[0] == "COMMIT") commit += n;
    if (row[0] == "ROLLBACK") rollback += n;
    if (row[0] == "overflow") overflow = n;
    if (row[0] == "programs") programs = n;
  }
  const std::string source =
      "performance_schema.events_statements_summary_by_digest, SCHEMA_NAME = '" + schema + "'";
  return std::vector<ServerCounter>{
      {"START TRANSACTION", "statements.begin", begin, false, source},
      {"COMMIT", "commits", commit, false, source},
      {"ROLLBACK", "rollbacks", rollback, false, source},
      {"digests overflow (DIGEST IS NULL)", "statement_evictions", overflow, false, source},
      {"stored program calls (events_statements_summary_by_program)", "statement_evictions",
       programs, false, source},
  };
}

}  // namespace sb::db
