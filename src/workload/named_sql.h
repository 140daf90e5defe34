// Workloads keep their per-dialect SQL as data files of named statements:
//   -- name: login
//   SELECT ... WHERE username = ? AND password = ?
// Comment lines and blank lines are dropped; a statement runs to the next "-- name:".
#ifndef STOREBENCH_WORKLOAD_NAMED_SQL_H_
#define STOREBENCH_WORKLOAD_NAMED_SQL_H_

#include <map>
#include <string>
#include <string_view>

namespace sb::workload {

std::map<std::string, std::string> ParseNamedSql(std::string_view text);

}  // namespace sb::workload

#endif  // STOREBENCH_WORKLOAD_NAMED_SQL_H_
