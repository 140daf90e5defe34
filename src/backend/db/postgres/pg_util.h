// The PostgreSQL back end's own statements (DDL, catalog reads, restore steps) through libpq:
// run without parameters, their failures classified by SQLSTATE like a workload's, and the
// quoting of names and text they are built from. Shared by the back end's files; SQL with
// values from a user or a workload goes through bound parameters instead.
#ifndef STOREBENCH_BACKEND_DB_POSTGRES_PG_UTIL_H_
#define STOREBENCH_BACKEND_DB_POSTGRES_PG_UTIL_H_

#include <libpq-fe.h>

#include <string>
#include <string_view>
#include <vector>

#include "storebench/status.h"

namespace sb::db::pg {

// The first line of a libpq message, trailing blanks removed (the rest is detail, hints or a
// second attempt's text); "" for null.
std::string FirstLine(const char* text);

// The Status of a failed result, or of a missing one: `what` and the server's message, the
// category from its SQLSTATE, or kConnectionLost when the connection is gone.
Status ResultError(PGconn* conn, const PGresult* res, std::string_view what);

// Runs `sql`; OK for commands and queries alike (the rows are dropped).
Status Exec(PGconn* conn, const std::string& sql, std::string_view what);

// The one value of a single-row query ("no row" is kOther); `null` set when it is NULL.
Result<std::string> QueryValue(PGconn* conn, const std::string& sql, std::string_view what,
                               bool* null = nullptr);

// Every row of a query, each a vector of its columns' text (NULL as "").
Result<std::vector<std::vector<std::string>>> QueryRows(PGconn* conn, const std::string& sql,
                                                        std::string_view what);

// `name` as a quoted identifier, `text` as a quoted literal (PQescapeIdentifier,
// PQescapeLiteral: the connection's encoding decides what needs escaping).
std::string Ident(PGconn* conn, const std::string& name);
std::string Literal(PGconn* conn, const std::string& text);

}  // namespace sb::db::pg

#endif  // STOREBENCH_BACKEND_DB_POSTGRES_PG_UTIL_H_
