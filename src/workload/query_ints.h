// The counts and sums workloads read from their databases (Snapshot, Verify): one row of
// integers from an aggregate query.
#ifndef STOREBENCH_WORKLOAD_QUERY_INTS_H_
#define STOREBENCH_WORKLOAD_QUERY_INTS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "storebench/db.h"
#include "storebench/status.h"

namespace sb::workload {

// Runs `sql` (no parameters) and returns the first `ncols` integer columns of its first row,
// always `ncols` values: zeros when it returns no row. An aggregate without GROUP BY, which every
// caller's query is, returns one row on a database; only a back end that keeps no data (null)
// returns none, and reads as counts of zero. Any further rows are left unread.
Result<std::vector<int64_t>> QueryInts(db::Connection& conn, const std::string& sql, int ncols = 1);

}  // namespace sb::workload

#endif  // STOREBENCH_WORKLOAD_QUERY_INTS_H_
