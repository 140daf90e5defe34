#include "workload/query_ints.h"

namespace sb::workload {

Result<std::vector<int64_t>> QueryInts(db::Connection& conn, const std::string& sql, int ncols) {
  auto stmt = conn.Prepare(sql);
  if (!stmt.ok()) return stmt.status();
  SB_RETURN_IF_ERROR((*stmt)->Execute());
  std::vector<int64_t> out(static_cast<size_t>(ncols), 0);
  if ((*stmt)->Next()) {
    for (int c = 0; c < ncols; ++c) out[static_cast<size_t>(c)] = (*stmt)->GetInt(c);
  }
  SB_RETURN_IF_ERROR((*stmt)->status());
  (*stmt)->Reset();
  return out;
}

}  // namespace sb::workload
