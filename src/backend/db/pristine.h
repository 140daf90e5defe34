// What a database and its pristine copy must share for a restore to go ahead (DbBackend::
// SavePristine / RestorePristine): the same storebench_meta rows (the same load) and the same
// tables (nothing added since that a restore would lose). Each back end reads these with its own
// SQL and compares them here, so every back end refuses with the same words.
#ifndef STOREBENCH_BACKEND_DB_PRISTINE_H_
#define STOREBENCH_BACKEND_DB_PRISTINE_H_

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "storebench/db.h"

namespace sb::db {

struct DbFingerprint {
  std::vector<std::string> tables;                          // sorted
  std::vector<std::pair<std::string, std::string>> meta;    // storebench_meta, sorted by key
  bool has_meta = false;
};

// Reads the fingerprint through `conn`: `tables_sql` returns one column of table names,
// `meta_sql` the (key, value) rows of storebench_meta; it is run only when the table list holds
// storebench_meta. A non-empty `tables_param` is bound to the one parameter of `tables_sql`.
// Tables named in `ignore` are left out.
Result<DbFingerprint> ReadFingerprint(Connection& conn, std::string_view tables_sql,
                                      std::string_view meta_sql,
                                      const std::string& tables_param = "",
                                      const std::string& ignore = "");

// FailedPrecondition unless `fp` holds a storebench workload (`what` names the database).
Status CheckIsStorebenchDatabase(const DbFingerprint& fp, const std::string& what);

// FailedPrecondition unless the database `what` (fingerprint `live`) can be brought back to its
// pristine copy (`pristine`) without losing anything but the changes of runs.
Status CheckRestorable(const DbFingerprint& live, const DbFingerprint& pristine,
                       const std::string& what);

// Whether `writes` (DbBackend::HintRunWrites) describes the database `live`: its storebench_meta
// names the same workload. Only then may a restore bring back just what runs write.
bool RunWritesApply(const std::optional<RunWrites>& writes, const DbFingerprint& live);

}  // namespace sb::db

#endif  // STOREBENCH_BACKEND_DB_PRISTINE_H_
