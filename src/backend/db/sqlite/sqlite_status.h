// SQLite result codes as storebench Statuses, shared by the SQLite back end's files.
#ifndef STOREBENCH_BACKEND_DB_SQLITE_SQLITE_STATUS_H_
#define STOREBENCH_BACKEND_DB_SQLITE_SQLITE_STATUS_H_

#include <sqlite3.h>

#include <string_view>

#include "storebench/status.h"

namespace sb::db {

// The driver's category of an SQLite result code (extended codes are reduced to their primary).
ErrorCategory ClassifySqlite(int code);

// A kDbError Status "<what>: <SQLite's message>" with the code's category and the code as the
// native code; the message is the connection's last error when `db` is not null.
Status SqliteError(sqlite3* db, int code, std::string_view what);

}  // namespace sb::db

#endif  // STOREBENCH_BACKEND_DB_SQLITE_SQLITE_STATUS_H_
