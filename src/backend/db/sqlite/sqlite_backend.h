// The embedded SQLite back end: sqlite:///path/to/file.db.
//
// Each connection opens the file itself (SQLITE_OPEN_NOMUTEX: one thread per connection), with a
// busy timeout so concurrent writers queue instead of failing. Load switches a new database to WAL
// mode; nothing switches or writes an existing file before the workload has checked that it is
// storebench's (a foreign file is refused unchanged). Write transactions
// begin IMMEDIATE, so a transaction waits for the write lock up front rather than failing at its
// first write with SQLITE_BUSY. Full-text search is FTS5.
#ifndef STOREBENCH_BACKEND_DB_SQLITE_SQLITE_BACKEND_H_
#define STOREBENCH_BACKEND_DB_SQLITE_SQLITE_BACKEND_H_

#include <memory>

#include "backend/db/registry.h"
#include "storebench/db.h"

namespace sb::db {

// Opens the SQLite back end for `url`. Unless options.create_if_missing, a missing file is
// NotFound ("database file '/x' does not exist; run 'storebench oltp load' first").
Result<std::unique_ptr<DbBackend>> OpenSqlite(const DbUrl& url, const BackendOptions& options);

}  // namespace sb::db

#endif  // STOREBENCH_BACKEND_DB_SQLITE_SQLITE_BACKEND_H_
