// The random inputs of one Order Entry transaction, drawn before any statement runs. Client SQL
// and stored procedures (--sql_mode) take the same inputs, so for the same seed both modes make
// the same choices and leave the same rows. A choice among rows the database returns (which of a
// customer's orders to update) is drawn here as a raw number and taken modulo the row count,
// so the draw never depends on what the database holds. Plain data and pure functions.
#ifndef STOREBENCH_WORKLOAD_SOE_TX_INPUTS_H_
#define STOREBENCH_WORKLOAD_SOE_TX_INPUTS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "base/random.h"
#include "workload/soe/soe_model.h"

namespace sb::soe {

struct TxInputs {
  int64_t customer = 0;   // BP, OP, BO
  int64_t warehouse = 0;  // PO, WQ, WA
  int64_t sales_rep = 0;  // SQ
  // NCR (all), UCD (names and the new address).
  std::string first, last, nls_language, nls_territory, email;
  std::string house, town, county, country;
  int64_t credit_limit = 0, account_mgr = 0, dob_days = 0;
  int64_t card_number = 0, expiry_days = 0, security_code = 0;
  std::vector<int64_t> products;  // BP: the products looked up
  // OP: one (warehouse, category) per browse; the order goes to the last browse's warehouse.
  std::vector<int64_t> browse_warehouses, browse_categories;
  int64_t lines = 0;          // OP: order lines wanted (capped by the last browse's rows)
  int64_t delivery_cost = 0;  // OP
  int64_t status = 0;         // OP: the order's final status; PO: the processed status
  int64_t pick_order = 0;     // BO: which of the customer's orders (modulo their count)
  int64_t pick_line = 0;      // BO: which of that order's lines (modulo their count)
  int64_t row_limit = 0;      // PO: unprocessed orders read; BO: the chosen order's lines read
};

// --soe_variant: whose constants the transactions follow (docs/soe.md "Transactions").
// Swingbench's PL/SQL package (version 2) and its JDBC classes (orderentryjdbc) run the same
// steps but draw different ranges and read different row limits; everything else is shared.
enum class SoeVariant { kPlsql, kJdbc };

struct VariantLimits {
  int64_t max_products;    // BP: products looked up, 1..max_products
  int64_t max_browses;     // OP: category browses, 1..max_browses
  int64_t max_po_status;   // PO: the processed status, 5..max_po_status
  int64_t pending_orders;  // PO: unprocessed orders read (the first is processed)
  int64_t bo_lines;        // BO: lines of the chosen order read (one of them is bumped)
};

const VariantLimits& LimitsOf(SoeVariant variant);

// Draws in [0, kPickRange) that choose among rows: index = draw % rows.
inline constexpr int64_t kPickRange = int64_t{1} << 31;

// The inputs of transaction `tx` at database size `size` with `variant`'s constants.
TxInputs DrawInputs(int tx, Random& rng, const SoeSize& size, SoeVariant variant);

}  // namespace sb::soe

#endif  // STOREBENCH_WORKLOAD_SOE_TX_INPUTS_H_
