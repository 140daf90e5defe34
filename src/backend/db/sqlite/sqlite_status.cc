#include "backend/db/sqlite/sqlite_status.h"

#include <string>

namespace sb::db {

ErrorCategory ClassifySqlite(int code) {
  switch (code & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return ErrorCategory::kTimeout;
    case SQLITE_CONSTRAINT:
      return ErrorCategory::kConstraint;
    case SQLITE_ERROR:
      return ErrorCategory::kSyntax;  // SQL errors: missing table, bad SQL
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN:
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return ErrorCategory::kConnectionLost;
    default:
      return ErrorCategory::kOther;
  }
}

Status SqliteError(sqlite3* db, int code, std::string_view what) {
  std::string msg = std::string(what) + ": " + (db ? sqlite3_errmsg(db) : sqlite3_errstr(code));
  return Status::Db(ClassifySqlite(code), std::move(msg), "", code);
}

}  // namespace sb::db
