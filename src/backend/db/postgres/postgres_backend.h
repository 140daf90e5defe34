// The PostgreSQL back end (libpq): postgresql://user@host:port/database?sslmode=...
//
// Every URL parameter is passed to libpq as a connection keyword (sslmode, connect_timeout,
// application_name, ...); connect_timeout defaults to 10 s. The password never comes from the
// URL: libpq reads PGPASSWORD or ~/.pgpass itself. Statements are server-side prepared
// (PQprepare, '?' placeholders become $1..$n) and executed with text parameters whose types the
// server infers. Errors are classified by SQLSTATE. Bulk load streams COPY ... FROM STDIN in
// text format, one COPY per writer, with synchronous_commit off on the writer's connection.
#ifndef STOREBENCH_BACKEND_DB_POSTGRES_POSTGRES_BACKEND_H_
#define STOREBENCH_BACKEND_DB_POSTGRES_POSTGRES_BACKEND_H_

#include <memory>
#include <string>
#include <string_view>

#include "backend/db/registry.h"
#include "storebench/db.h"

namespace sb::db {

// Opens the PostgreSQL back end for `url` (no connection is made until Connect()).
Result<std::unique_ptr<DbBackend>> OpenPostgres(const DbUrl& url, const BackendOptions& options);

// Exposed for tests: the error category of a SQLSTATE.
ErrorCategory ClassifyPostgresSqlState(std::string_view sqlstate);
// Exposed for tests: `sql` with each '?' outside quotes, comments and dollar quotes replaced by
// $1, $2, ...; `*count` receives the number of parameters.
std::string TranslatePlaceholders(std::string_view sql, int* count);

}  // namespace sb::db

#endif  // STOREBENCH_BACKEND_DB_POSTGRES_POSTGRES_BACKEND_H_
