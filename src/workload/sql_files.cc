#include "workload/sql_files.h"

#include "workload/named_sql.h"

namespace sb::workload {

const std::string* SqlFiles::Find(std::string_view dialect, std::string_view file) const {
  for (std::string_view dir : {dialect, kCommonSqlDir}) {
    std::string key(dir);
    key.append("/").append(file);
    if (auto it = files_->find(key); it != files_->end()) return &it->second;
  }
  return nullptr;
}

Result<std::string> SqlFiles::Script(std::string_view dialect, std::string_view file) const {
  if (const std::string* text = Find(dialect, file)) return *text;
  return Status::NotFound("the " + workload_ + " workload has no " + std::string(file) +
                          " for the " + std::string(dialect) + " back end");
}

Result<std::map<std::string, std::string>> SqlFiles::Statements(std::string_view dialect,
                                                                std::string_view file) const {
  const std::string* text = Find(dialect, file);
  if (text == nullptr) return Script(dialect, file).status();
  return ParseNamedSql(*text);
}

Result<std::map<std::string, std::string>> SqlFiles::Texts(std::string_view dialect,
                                                           std::string_view file) const {
  const std::string* text = Find(dialect, file);
  if (text == nullptr) return Script(dialect, file).status();
  return ParseNamedText(*text);
}

}  // namespace sb::workload
