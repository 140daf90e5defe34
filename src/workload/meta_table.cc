#include "workload/meta_table.h"

#include <memory>

namespace sb::workload {
namespace {

Result<int64_t> QueryCount(db::Connection& conn, const std::string& sql) {
  auto stmt = conn.Prepare(sql);
  if (!stmt.ok()) return stmt.status();
  SB_RETURN_IF_ERROR((*stmt)->Execute());
  const int64_t n = (*stmt)->Next() ? (*stmt)->GetInt(0) : 0;
  SB_RETURN_IF_ERROR((*stmt)->status());
  (*stmt)->Reset();
  return n;
}

}  // namespace

Result<bool> MetaTable::Exists() {
  auto n = QueryCount(conn_, sql_.at("meta_table_exists"));
  if (!n.ok()) return n.status();
  return *n > 0;
}

Result<int64_t> MetaTable::UserTables() { return QueryCount(conn_, sql_.at("user_table_count")); }

Result<std::string> MetaTable::Get(const std::string& key) {
  auto stmt = conn_.Prepare(sql_.at("meta_get"));
  if (!stmt.ok()) return stmt.status();
  (*stmt)->BindText(1, key);
  SB_RETURN_IF_ERROR((*stmt)->Execute());
  std::string v = (*stmt)->Next() ? std::string((*stmt)->GetText(0)) : "";
  SB_RETURN_IF_ERROR((*stmt)->status());
  (*stmt)->Reset();
  return v;
}

Status MetaTable::Set(const std::string& key, const std::string& value) {
  auto stmt = conn_.Prepare(sql_.at("meta_set"));
  if (!stmt.ok()) return stmt.status();
  (*stmt)->BindText(1, key);
  (*stmt)->BindText(2, value);
  return (*stmt)->Execute();
}

Status GuardLoad(MetaTable& meta, const std::string& workload, const std::string& words, bool force,
                 bool* replace) {
  *replace = false;
  auto has_meta = meta.Exists();
  if (!has_meta.ok()) return has_meta.status();
  if (*has_meta) {
    auto wl = meta.Get("workload");
    if (!wl.ok()) return wl.status();
    if (*wl != workload) {
      return Status::AlreadyExists("the database holds a storebench '" + *wl + "' database, not " +
                                   words + "; refusing to replace it");
    }
    if (!force) {
      return Status::AlreadyExists("the database already holds a storebench " + words +
                                   " database; use --force to replace it");
    }
    *replace = true;
    return Status::Ok();
  }
  auto tables = meta.UserTables();
  if (!tables.ok()) return tables.status();
  if (*tables > 0) {
    return Status::AlreadyExists("the database holds " + std::to_string(*tables) +
                                 " tables that storebench did not create; refusing to touch it");
  }
  return Status::Ok();
}

Status CheckLoaded(MetaTable& meta, const std::string& workload, const std::string& words,
                   const std::string& load_command) {
  auto has_meta = meta.Exists();
  if (!has_meta.ok()) return has_meta.status();
  if (!*has_meta) {
    return Status::FailedPrecondition("the database holds no storebench " + words +
                                      " tables; load them first with '" + load_command + "'");
  }
  auto wl = meta.Get("workload");
  if (!wl.ok()) return wl.status();
  if (*wl != workload) {
    return Status::FailedPrecondition("the database holds a storebench '" + *wl +
                                      "' database, not " + words);
  }
  auto state = meta.Get("state");
  if (!state.ok()) return state.status();
  if (*state != "ready") {
    return Status::FailedPrecondition("the " + words +
                                      " load into this database did not finish; run '" +
                                      load_command + " --force' again");
  }
  return Status::Ok();
}

}  // namespace sb::workload
