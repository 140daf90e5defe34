// The MySQL/MariaDB back end (MariaDB Connector/C, libmariadb): mysql://user@host:port/database.
//
// URL parameters: connect_timeout (seconds, default 10), read_timeout, write_timeout, ssl
// ("1" to require TLS). The password never comes from the URL: MYSQL_PWD or the [client] group of
// the usual option files (~/.my.cnf). Statements are server-side prepared (mysql_stmt_*) with
// typed parameters; rows are fetched as text. Errors are classified by native error code. Bulk
// load streams LOAD DATA LOCAL INFILE from memory (a local-infile handler, no file on disk), with
// unique and foreign-key checks off on the loader's connection.
#ifndef STOREBENCH_BACKEND_DB_MYSQL_MYSQL_BACKEND_H_
#define STOREBENCH_BACKEND_DB_MYSQL_MYSQL_BACKEND_H_

#include <memory>

#include "backend/db/registry.h"
#include "storebench/db.h"

namespace sb::db {

// Opens the MySQL/MariaDB back end for `url` (no connection is made until Connect()).
Result<std::unique_ptr<DbBackend>> OpenMysql(const DbUrl& url, const BackendOptions& options);

// Exposed for tests: the error category of a MySQL/MariaDB native error code.
ErrorCategory ClassifyMysqlError(unsigned int code);

}  // namespace sb::db

#endif  // STOREBENCH_BACKEND_DB_MYSQL_MYSQL_BACKEND_H_
