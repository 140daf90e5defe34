// A connection to a database server that cannot be established, reported the same way by every
// server back end: which server (host and port), the server's or the client library's own words,
// and what to check. Callers tell it from other database errors (a lock statement that failed,
// a missing table) by its SQLSTATE, so that it is never reported as something else.
#ifndef STOREBENCH_BACKEND_DB_CONNECT_ERROR_H_
#define STOREBENCH_BACKEND_DB_CONNECT_ERROR_H_

#include <string>

#include "storebench/status.h"

namespace sb::db {

// The SQL standard's "SQL-client unable to establish SQL-connection" (class 08, connection
// exception; PostgreSQL's errcodes table, Appendix A of its manual, names it
// sqlclient_unable_to_establish_sqlconnection). The server's own code stays the native code.
inline constexpr char kCannotConnectState[] = "08001";

struct ConnectFailure {
  std::string product;  // "PostgreSQL", "MySQL/MariaDB"
  std::string host;     // as the client library used it (a socket directory for PostgreSQL)
  std::string port;
  std::string url;  // redacted (DbUrl::redacted)
  std::string why;  // the server's or the client library's message, one line
  // Nothing listens there (connection refused, no socket): how to start the project's servers.
  bool no_server = false;
  std::string password_sources;  // where the password comes from, e.g. "PGPASSWORD or ~/.pgpass"
  ErrorCategory category = ErrorCategory::kConnectionLost;
  int native_code = 0;
};

// "cannot connect to <product> at host H port P (<url>): <why>; is the server running? is the
// password right? (...)": kDbError with SQLSTATE kCannotConnectState.
Status ConnectError(const ConnectFailure& f);

// True for a Status made by ConnectError.
bool IsConnectError(const Status& s);

}  // namespace sb::db

#endif  // STOREBENCH_BACKEND_DB_CONNECT_ERROR_H_
