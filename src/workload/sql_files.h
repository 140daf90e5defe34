// A workload's SQL files, compiled into the binary by cmake/embed_text.cmake from its
// sql/<dialect>/*.sql and sql/common/*.sql. A file of the back end's dialect wins; otherwise the
// one in sql/common/, which every dialect without its own shares. So a file is kept once when
// the dialects agree on it, and a dialect differs only where it must.
#ifndef STOREBENCH_WORKLOAD_SQL_FILES_H_
#define STOREBENCH_WORKLOAD_SQL_FILES_H_

#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "storebench/status.h"

namespace sb::workload {

// The folder of the files every dialect shares (sql/common/).
inline constexpr std::string_view kCommonSqlDir = "common";

class SqlFiles {
 public:
  // `embedded`: "<dir>/<file>" -> text, as a generated Embedded() returns it (it must outlive
  // this object); `workload` names the workload in messages ("tpcc", "DVD Store").
  SqlFiles(const std::map<std::string, std::string>& embedded, std::string workload)
      : files_(&embedded), workload_(std::move(workload)) {}

  // The text of `file` ("schema.sql") for `dialect`: sql/<dialect>/<file>, else
  // sql/common/<file>; nullptr when neither exists.
  const std::string* Find(std::string_view dialect, std::string_view file) const;
  // The same as a copy; NotFound "the <workload> workload has no <file> for the <dialect> back
  // end" when neither exists (an optional file: test ok()).
  Result<std::string> Script(std::string_view dialect, std::string_view file) const;
  // The named statements of the file (workload/named_sql.h).
  Result<std::map<std::string, std::string>> Statements(std::string_view dialect,
                                                        std::string_view file) const;
  // The named texts of a file that is not SQL (choices.sql; workload/named_sql.h).
  Result<std::map<std::string, std::string>> Texts(std::string_view dialect,
                                                   std::string_view file) const;

 private:
  const std::map<std::string, std::string>* files_;
  std::string workload_;
};

}  // namespace sb::workload

#endif  // STOREBENCH_WORKLOAD_SQL_FILES_H_
