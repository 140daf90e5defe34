// Access to the workload's SQL files (sql/<dialect>/*.sql, else sql/common/*.sql:
// workload/sql_files.h), compiled into the binary.
#ifndef STOREBENCH_WORKLOAD_DVDSTORE_SQL_FILES_H_
#define STOREBENCH_WORKLOAD_DVDSTORE_SQL_FILES_H_

#include <map>
#include <string>

#include "storebench/status.h"

namespace sb::dvdstore {

// A whole script (e.g. "schema.sql") for `dialect`, with the {DS3_ONLY_BEGIN}..{DS3_ONLY_END}
// parts kept (DS3) or removed (DS2). NotFound when neither exists.
Result<std::string> SqlScript(const std::string& dialect, const std::string& file, bool ds2);

// The named statements of a file such as "queries.sql" ("-- name: x" sections; comment lines
// dropped).
Result<std::map<std::string, std::string>> SqlQueries(const std::string& dialect,
                                                      const std::string& file = "queries.sql");

// The named texts of a file that is not SQL (choices.sql, identifiers.sql, foreign_db.sql).
Result<std::map<std::string, std::string>> SqlTexts(const std::string& dialect,
                                                    const std::string& file);

}  // namespace sb::dvdstore

#endif  // STOREBENCH_WORKLOAD_DVDSTORE_SQL_FILES_H_
