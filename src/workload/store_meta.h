// storebench_meta: the key/value table every storebench workload writes into the database it
// loads ("workload", "state" = loading | ready, its size, the seed). It keeps `load` from
// touching a database storebench did not make or replacing another workload's without being
// asked, and `run`/`verify` from using an unfinished load. One implementation for every
// workload; the statements per dialect are in sql/<dialect>/meta.sql (compiled in).
#ifndef STOREBENCH_WORKLOAD_STORE_META_H_
#define STOREBENCH_WORKLOAD_STORE_META_H_

#include <map>
#include <string>

#include "storebench/db.h"
#include "storebench/status.h"

namespace sb::workload {

class StoreMeta {
 public:
  // The meta statements of `dialect` ("sqlite", "postgres", "mysql") on `conn`, which must
  // outlive this object. InvalidArgument for a dialect without them.
  static Result<StoreMeta> Open(db::Connection& conn, const std::string& dialect);

  // Whether the database has a storebench_meta table.
  Result<bool> Exists();
  // Tables in the database (schema) other than the database's own.
  Result<int64_t> UserTables();
  // The value of `key`; "" when it is not set.
  Result<std::string> Get(const std::string& key);
  Status Set(const std::string& key, const std::string& value);
  // Creates storebench_meta when it does not exist.
  Status CreateTable();
  // The dialect's statement writing one key: parameters (key, value).
  const std::string& set_sql() const { return sql_.at("meta_set"); }

 private:
  StoreMeta(db::Connection& conn, std::map<std::string, std::string> sql)
      : conn_(&conn), sql_(std::move(sql)) {}
  Result<int64_t> Count(const std::string& name);
  db::Connection* conn_;
  std::map<std::string, std::string> sql_;
};

// Names a workload's databases in the guards' messages.
struct MetaOwner {
  std::string workload;      // the "workload" value: "dvdstore", "tpcc"
  std::string display;       // in messages: "DVD Store", "TPC-C-like"
  std::string size_key;      // the meta key named when a load is refused: "db_size"
  std::string load_command;  // how to load one: "storebench oltp load --workload tpcc"
};

// Before a load. OK with *replace = false when the database holds no tables (nothing to keep);
// OK with *replace = true when it holds this workload's database and `force` is set (the caller
// drops its tables); the database's state is then already "loading", so a load that stops or
// fails while dropping leaves one that CheckLoadedAndReady refuses, and *previous_state (when
// given) is the state before, for a caller whose drop turns out to have removed nothing.
// AlreadyExists, in one sentence, when it holds tables storebench did not create, another
// workload's database, or this workload's without `force`.
Status CheckLoadTarget(StoreMeta& meta, const MetaOwner& owner, bool force, bool* replace,
                       std::string* previous_state = nullptr);

// Before a run or verify: FailedPrecondition, in one sentence, unless the database holds this
// workload's database and its load finished.
Status CheckLoadedAndReady(StoreMeta& meta, const MetaOwner& owner);

}  // namespace sb::workload

#endif  // STOREBENCH_WORKLOAD_STORE_META_H_
