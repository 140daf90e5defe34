#include "backend/db/postgres/pg_util.h"

#include "backend/db/postgres/postgres_backend.h"

namespace sb::db::pg {

std::string FirstLine(const char* text) {
  std::string s = text != nullptr ? text : "";
  s = s.substr(0, s.find('\n'));
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.pop_back();
  return s;
}

Status ResultError(PGconn* conn, const PGresult* res, std::string_view what) {
  const char* state = res != nullptr ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : nullptr;
  std::string msg =
      FirstLine(res != nullptr ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : nullptr);
  if (msg.empty()) msg = FirstLine(PQerrorMessage(conn));
  if (state == nullptr && PQstatus(conn) == CONNECTION_BAD) {
    return Status::Db(ErrorCategory::kConnectionLost,
                      std::string(what) + ": connection to PostgreSQL lost: " + msg, "08006", 0);
  }
  const std::string sqlstate = state != nullptr ? state : "";
  return Status::Db(ClassifyPostgresSqlState(sqlstate), std::string(what) + ": " + msg, sqlstate,
                    0);
}

Status Exec(PGconn* conn, const std::string& sql, std::string_view what) {
  PGresult* res = PQexec(conn, sql.c_str());
  const ExecStatusType st = res != nullptr ? PQresultStatus(res) : PGRES_FATAL_ERROR;
  Status s;
  if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK && st != PGRES_EMPTY_QUERY) {
    s = ResultError(conn, res, what);
  }
  PQclear(res);
  return s;
}

Result<std::string> QueryValue(PGconn* conn, const std::string& sql, std::string_view what,
                               bool* null) {
  PGresult* res = PQexec(conn, sql.c_str());
  if (res == nullptr || PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) < 1) {
    Status s = res != nullptr && PQresultStatus(res) == PGRES_TUPLES_OK
                   ? Status::Db(ErrorCategory::kOther, std::string(what) + ": no row")
                   : ResultError(conn, res, what);
    PQclear(res);
    return s;
  }
  if (null != nullptr) *null = PQgetisnull(res, 0, 0) != 0;
  std::string v = PQgetvalue(res, 0, 0);
  PQclear(res);
  return v;
}

Result<std::vector<std::vector<std::string>>> QueryRows(PGconn* conn, const std::string& sql,
                                                        std::string_view what) {
  PGresult* res = PQexec(conn, sql.c_str());
  const ExecStatusType st = res != nullptr ? PQresultStatus(res) : PGRES_FATAL_ERROR;
  if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
    Status s = ResultError(conn, res, what);
    PQclear(res);
    return s;
  }
  std::vector<std::vector<std::string>> rows(static_cast<size_t>(PQntuples(res)));
  for (int r = 0; r < PQntuples(res); ++r) {
    for (int c = 0; c < PQnfields(res); ++c) rows[r].emplace_back(PQgetvalue(res, r, c));
  }
  PQclear(res);
  return rows;
}

std::string Ident(PGconn* conn, const std::string& name) {
  char* q = PQescapeIdentifier(conn, name.c_str(), name.size());
  std::string out = q != nullptr ? q : "\"\"";
  PQfreemem(q);
  return out;
}

std::string Literal(PGconn* conn, const std::string& text) {
  char* q = PQescapeLiteral(conn, text.c_str(), text.size());
  std::string out = q != nullptr ? q : "''";
  PQfreemem(q);
  return out;
}

}  // namespace sb::db::pg
