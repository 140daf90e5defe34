#include "backend/db/pristine.h"

#include <algorithm>

namespace sb::db {

Result<DbFingerprint> ReadFingerprint(Connection& conn, std::string_view tables_sql,
                                      std::string_view meta_sql, const std::string& tables_param,
                                      const std::string& ignore) {
  DbFingerprint fp;
  {
    auto stmt = conn.Prepare(tables_sql);
    if (!stmt.ok()) return stmt.status();
    if (!tables_param.empty()) (*stmt)->BindText(1, tables_param);
    SB_RETURN_IF_ERROR((*stmt)->Execute());
    while ((*stmt)->Next()) {
      if ((*stmt)->GetText(0) != ignore) fp.tables.emplace_back((*stmt)->GetText(0));
    }
    SB_RETURN_IF_ERROR((*stmt)->status());
  }
  std::sort(fp.tables.begin(), fp.tables.end());
  fp.has_meta = std::find(fp.tables.begin(), fp.tables.end(), "storebench_meta") != fp.tables.end();
  if (!fp.has_meta) return fp;
  auto stmt = conn.Prepare(meta_sql);
  if (!stmt.ok()) return stmt.status();
  SB_RETURN_IF_ERROR((*stmt)->Execute());
  while ((*stmt)->Next()) {
    fp.meta.emplace_back(std::string((*stmt)->GetText(0)), std::string((*stmt)->GetText(1)));
  }
  SB_RETURN_IF_ERROR((*stmt)->status());
  std::sort(fp.meta.begin(), fp.meta.end());
  return fp;
}

Status CheckIsStorebenchDatabase(const DbFingerprint& fp, const std::string& what) {
  const bool has_workload = std::any_of(fp.meta.begin(), fp.meta.end(),
                                        [](const auto& kv) { return kv.first == "workload"; });
  if (!fp.has_meta || !has_workload) {
    return Status::FailedPrecondition(what + " holds no storebench workload; load it first");
  }
  return Status::Ok();
}

Status CheckRestorable(const DbFingerprint& live, const DbFingerprint& pristine,
                       const std::string& what) {
  std::vector<std::string> added;
  std::set_difference(live.tables.begin(), live.tables.end(), pristine.tables.begin(),
                      pristine.tables.end(), std::back_inserter(added));
  if (!added.empty()) {
    std::string list;
    for (size_t i = 0; i < added.size() && i < 5; ++i) list += (i ? ", " : "") + added[i];
    if (added.size() > 5) list += ", ...";
    return Status::FailedPrecondition(what + " holds table(s) its pristine copy lacks (" + list +
                                      "); a restore would lose them, so nothing was changed");
  }
  if (live.meta != pristine.meta) {
    return Status::FailedPrecondition(
        what + " was loaded again since its pristine copy was taken (their storebench_meta "
               "differ); take a new copy (storebench oltp pristine) before restoring");
  }
  return Status::Ok();
}

bool RunWritesApply(const std::optional<RunWrites>& writes, const DbFingerprint& live) {
  if (!writes.has_value() || writes->workload.empty()) return false;
  for (const auto& [key, value] : live.meta) {
    if (key == "workload") return value == writes->workload;
  }
  return false;
}

}  // namespace sb::db
