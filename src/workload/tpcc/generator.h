// The initial population of a TPC-C-like database (TPC-C revision 5.11, clause 4.3.3.1): ITEM
// once, and every other table per warehouse, each warehouse from random streams of its own so
// warehouses can be generated in parallel and in any order with the same result.
#ifndef STOREBENCH_WORKLOAD_TPCC_GENERATOR_H_
#define STOREBENCH_WORKLOAD_TPCC_GENERATOR_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace sb::tpcc {

enum class Table {
  kItem = 0,
  kWarehouse,
  kDistrict,
  kCustomer,
  kHistory,
  kOrders,
  kNewOrder,
  kOrderLine,
  kStock,
};
constexpr int kNumTables = 9;

const char* TableName(Table t);
const std::vector<std::string>& TableColumns(Table t);
// Rows the initial population holds; ORDER_LINE's (5..15 per order) is its mean.
int64_t ExpectedRows(Table t, int64_t warehouses);

struct GenParams {
  uint64_t seed = 0;
  int64_t c_last_load = 0;  // C-Load of NURand(255, 0, 999) for customers 1001..3000
  std::string now;          // the load's timestamp, "YYYY-MM-DD HH:MM:SS"
  // Customers with bad credit ("BC"), in percent: the specification's 10 (clause 4.3.3.1), or
  // HammerDB's 50 (--profile=hammerdb; docs/tpcc.md).
  int bad_credit_pct = 10;
};

// Receives one generated row (db::kBulkNull marks NULL); returns false to stop generating.
using RowFn = std::function<bool(Table, const std::vector<std::string_view>&)>;

// The 100,000 ITEM rows. Returns false when `emit` asked to stop.
bool GenerateItems(const GenParams& p, const RowFn& emit);
// Warehouse `w`'s rows: WAREHOUSE, STOCK, DISTRICT, CUSTOMER, HISTORY, ORDERS, NEW_ORDER and
// ORDER_LINE, in that order.
bool GenerateWarehouse(const GenParams& p, int64_t w, const RowFn& emit);

}  // namespace sb::tpcc

#endif  // STOREBENCH_WORKLOAD_TPCC_GENERATOR_H_
