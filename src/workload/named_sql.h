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

// The same for a file of named texts that are not SQL (choices.sql): each section's lines
// without the newline after the last.
std::map<std::string, std::string> ParseNamedText(std::string_view text);

// Replaces every `placeholder` ("{table}") in a statement or text of such a file with `value`,
// left to right; the inserted value is not searched again.
void ReplaceAll(std::string& text, std::string_view placeholder, std::string_view value);

}  // namespace sb::workload

#endif  // STOREBENCH_WORKLOAD_NAMED_SQL_H_
