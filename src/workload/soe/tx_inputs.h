// The random inputs of one Order Entry transaction, drawn before any statement runs. Client SQL
// and stored procedures (--sql_mode) take the same inputs, so for the same seed both modes make
// the same choices and leave the same rows. A choice among rows the database returns (which of a
// customer's orders to update) is drawn here as a raw number and taken modulo the row count,
// so the draw never depends on what the database holds. Plain data and pure functions.
#ifndef STOREBENCH_WORKLOAD_SOE_TX_INPUTS_H_
#define STOREBENCH_WORKLOAD_SOE_TX_INPUTS_H_

#include <cstdint>
#include <string>
#include <string_view>
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
  // NCR, BP, OP, BO: whether the logon writes its LOGON row (package 2.1 writes one time in
  // three; package 2.0 and the JDBC classes always do).
  bool logon_row = true;
};

// --soe_variant: whose steps and constants the transactions follow (docs/soe.md "Variants").
// Swingbench's ORDERENTRY PL/SQL package as Swingbench 2.6/2.7 installs it (called 2.1 here;
// its header still says 2.0), the package of 2011 (2.0), and the client-side JDBC classes
// (package orderentryjdbc). They run the same statements but draw different ranges, read
// different row limits and think at different places.
enum class SoeVariant { kPlsql21, kPlsql20, kJdbc };

// The option's words: "plsql21", "plsql20", "jdbc".
const char* VariantName(SoeVariant variant);
// The variant of a word; false when it is none.
bool VariantFromName(std::string_view name, SoeVariant* variant);

struct VariantLimits {
  int64_t max_products;    // BP: products looked up, 1..max_products
  int64_t max_browses;     // OP: category browses, 1..max_browses
  int64_t max_lines;       // OP: order lines wanted, 2..max_lines
  int64_t max_po_status;   // PO: the processed status, 5..max_po_status
  int64_t pending_orders;  // PO: unprocessed orders read (the first is processed)
  int64_t bo_lines;        // BO: lines of the chosen order read (one of them is bumped)
  // A logon writes its row one time in `logon_one_in` (1: always).
  int64_t logon_one_in;
  // UCD writes when at least this many customers have the name; BO when the customer has at
  // least this many orders, and then never picks the last of them (the package draws
  // floor(dbms_random.value(1, count)), 1..count-1) when it is 2.
  int64_t min_rows_to_write;
  // A think time happens only when both MinDelay and MaxDelay are non-zero (the package's
  // sleep procedure); otherwise uniform over [min, max] whenever max is non-zero.
  bool sleep_needs_both;
};

const VariantLimits& LimitsOf(SoeVariant variant);

// Draws in [0, kPickRange) that choose among rows: index = draw % rows.
inline constexpr int64_t kPickRange = int64_t{1} << 31;

// The inputs of transaction `tx` at database size `size` with `variant`'s constants.
TxInputs DrawInputs(int tx, Random& rng, const SoeSize& size, SoeVariant variant);

}  // namespace sb::soe

#endif  // STOREBENCH_WORKLOAD_SOE_TX_INPUTS_H_
