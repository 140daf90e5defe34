// The MariaDB/MySQL back end's own statements (catalog and status reads, locks, restore steps)
// through Connector/C's text protocol: their failures classified by native error code like a
// workload's, and the quoting of text they are built from. Shared by the back end's files; SQL
// with values from a user or a workload goes through bound parameters instead.
#ifndef STOREBENCH_BACKEND_DB_MYSQL_MY_UTIL_H_
#define STOREBENCH_BACKEND_DB_MYSQL_MY_UTIL_H_

#include <mysql.h>

#include <string>
#include <string_view>
#include <vector>

#include "storebench/status.h"

namespace sb::db::my {

// The Status of the connection's last failure: `what`, the server's message, its SQLSTATE and
// code, the category from the code.
Status ConnError(MYSQL* m, std::string_view what);

// The single value of a one-row query ("" for NULL, `null` set), or the error.
Result<std::string> QueryValue(MYSQL* m, const std::string& sql, std::string_view what,
                               bool* null = nullptr);

// Every row of a query, each a vector of its columns' text (NULL as ""), or the error; a
// statement that returns no result set is an error too.
Result<std::vector<std::vector<std::string>>> QueryRows(MYSQL* m, const std::string& sql,
                                                        std::string_view what);

// `text` as a quoted string literal (mysql_real_escape_string: the connection's character set
// decides what needs escaping).
std::string Quoted(MYSQL* m, const std::string& text);

}  // namespace sb::db::my

#endif  // STOREBENCH_BACKEND_DB_MYSQL_MY_UTIL_H_
