#include "backend/db/mysql/my_util.h"

#include <utility>

#include "backend/db/mysql/mysql_backend.h"

namespace sb::db::my {
namespace {

// Connector/C's length type (unsigned long in its prototypes).
using CLength = unsigned long;  // NOLINT(google-runtime-int)

}  // namespace

Status ConnError(MYSQL* m, std::string_view what) {
  const unsigned int code = mysql_errno(m);
  return Status::Db(ClassifyMysqlError(code), std::string(what) + ": " + mysql_error(m),
                    mysql_sqlstate(m), static_cast<int>(code));
}

Result<std::string> QueryValue(MYSQL* m, const std::string& sql, std::string_view what,
                               bool* null) {
  if (mysql_real_query(m, sql.data(), static_cast<CLength>(sql.size())) != 0) {
    return ConnError(m, what);
  }
  MYSQL_RES* res = mysql_store_result(m);
  if (res == nullptr) return ConnError(m, what);
  MYSQL_ROW row = mysql_fetch_row(res);
  std::string v = row != nullptr && row[0] != nullptr ? row[0] : "";
  if (null != nullptr) *null = row == nullptr || row[0] == nullptr;
  mysql_free_result(res);
  return v;
}

Result<std::vector<std::vector<std::string>>> QueryRows(MYSQL* m, const std::string& sql,
                                                        std::string_view what) {
  if (mysql_real_query(m, sql.data(), static_cast<CLength>(sql.size())) != 0) {
    return ConnError(m, what);
  }
  MYSQL_RES* res = mysql_store_result(m);
  if (res == nullptr) {
    if (mysql_errno(m) != 0) return ConnError(m, what);
    return Status::Db(ErrorCategory::kOther, std::string(what) + ": no result");
  }
  std::vector<std::vector<std::string>> out;
  const unsigned int n = mysql_num_fields(res);
  while (MYSQL_ROW row = mysql_fetch_row(res)) {
    std::vector<std::string> r;
    r.reserve(n);
    for (unsigned int i = 0; i < n; ++i) r.emplace_back(row[i] != nullptr ? row[i] : "");
    out.push_back(std::move(r));
  }
  mysql_free_result(res);
  return out;
}

std::string Quoted(MYSQL* m, const std::string& text) {
  std::string out(text.size() * 2 + 1, '\0');
  out.resize(
      mysql_real_escape_string(m, out.data(), text.data(), static_cast<CLength>(text.size())));
  return "'" + out + "'";
}

}  // namespace sb::db::my
