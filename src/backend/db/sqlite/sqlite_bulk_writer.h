// SQLite's BulkWriter: rows go in through one prepared multi-row INSERT inside large
// transactions, each field bound in place (no copy per field).
//
// Why it is shaped so (perf record of `storebench oltp load` of DVD Store S into SQLite,
// docs/load-performance.md): a one-row INSERT per row spent about a fifth of the writer's CPU
// around the insert itself: sqlite3_step's start and end (sqlite3VdbeHalt) once per row, a fresh
// descent of the table's B-tree from its root per row (the statement's cursor closes at every
// reset), and a malloc, copy and free per field for SQLITE_TRANSIENT binds. A statement of many
// rows keeps its cursor open (the next row appends at the cursor) and pays the step once.
#ifndef STOREBENCH_BACKEND_DB_SQLITE_SQLITE_BULK_WRITER_H_
#define STOREBENCH_BACKEND_DB_SQLITE_SQLITE_BULK_WRITER_H_

#include <sqlite3.h>

#include <memory>
#include <string>
#include <vector>

#include "storebench/db.h"

namespace sb::db {

// A bulk writer into `table` (`columns`, all bound as text, so SQLite's column affinity decides
// how each is stored, as for a one-row INSERT) on `conn`, which it owns alone; `db` is `conn`'s
// handle. Commits every `rows_per_txn` rows or so (at the end of the multi-row statement that
// reaches it; 0: only in Finish). Rows are held until a statement's worth is there: an error in
// a row surfaces in a later AddRow or in Finish, naming the first row of its statement.
// Rows per multi-row INSERT (fewer for a table whose columns times this pass SQLite's limit on
// parameters), for the record.
int SqliteBulkWriterRowsPerStatement();

Result<std::unique_ptr<BulkWriter>> NewSqliteBulkWriter(std::unique_ptr<Connection> conn,
                                                        sqlite3* db, const std::string& table,
                                                        const std::vector<std::string>& columns,
                                                        int64_t rows_per_txn);

}  // namespace sb::db

#endif  // STOREBENCH_BACKEND_DB_SQLITE_SQLITE_BULK_WRITER_H_
