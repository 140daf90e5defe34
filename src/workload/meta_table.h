// The storebench_meta table every storebench database carries (workload, size, seed, load
// state), and the load protection built on it: a load refuses to replace a database of another
// workload, or of its own without --force, and never touches tables storebench did not create;
// a run refuses an unfinished load. The SQL comes from the workload's own per-dialect file, with
// the sections user_table_count, meta_table_exists, meta_get and meta_set.
#ifndef STOREBENCH_WORKLOAD_META_TABLE_H_
#define STOREBENCH_WORKLOAD_META_TABLE_H_

#include <cstdint>
#include <map>
#include <string>

#include "backend/db/db.h"
#include "base/status.h"

namespace sb::workload {

class MetaTable {
 public:
  // `sql` must hold the four sections named in the file comment.
  MetaTable(db::Connection& conn, std::map<std::string, std::string> sql)
      : conn_(conn), sql_(std::move(sql)) {}

  Result<bool> Exists();
  // Tables of the database (schema) other than the engine's own.
  Result<int64_t> UserTables();
  // The value of `key`; "" when absent.
  Result<std::string> Get(const std::string& key);
  Status Set(const std::string& key, const std::string& value);

 private:
  db::Connection& conn_;
  std::map<std::string, std::string> sql_;
};

// Before a load of `workload` (its name as stored, e.g. "soe"; `words` as users know it, e.g.
// "Order Entry"): AlreadyExists when the database holds another storebench workload, this one
// without `force`, or tables storebench did not create. `*replace` is set when the database holds
// this workload and `force` is given (the caller drops its tables first).
Status GuardLoad(MetaTable& meta, const std::string& workload, const std::string& words, bool force,
                 bool* replace);

// Before a run or verify: FailedPrecondition when the database holds no storebench database,
// another workload's, or an unfinished load. `load_command` is what loads it ("storebench oltp
// load --workload soe").
Status CheckLoaded(MetaTable& meta, const std::string& workload, const std::string& words,
                   const std::string& load_command);

}  // namespace sb::workload

#endif  // STOREBENCH_WORKLOAD_META_TABLE_H_
