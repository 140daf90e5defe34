#include "workload/soe/tx_inputs.h"

#include "workload/soe/generator.h"

namespace sb::soe {
namespace {

constexpr int64_t kDays = 365;

template <typename T>
const T& Pick(Random& rng, const std::vector<T>& v) {
  return v[static_cast<size_t>(rng.Uniform(0, static_cast<int64_t>(v.size()) - 1))];
}

void DrawAddress(Random& rng, TxInputs& in) {
  in.house = std::to_string(rng.Uniform(1, 199));
  in.town = std::string(Pick(rng, Towns()));
  in.county = std::string(Pick(rng, Counties()));
  in.country = std::string(Pick(rng, Countries()));
}

}  // namespace

const char* VariantName(SoeVariant variant) {
  switch (variant) {
    case SoeVariant::kPlsql21:
      return "plsql21";
    case SoeVariant::kPlsql20:
      return "plsql20";
    case SoeVariant::kJdbc:
      return "jdbc";
  }
  return "plsql21";
}

bool VariantFromName(std::string_view name, SoeVariant* variant) {
  for (const SoeVariant v : {SoeVariant::kPlsql21, SoeVariant::kPlsql20, SoeVariant::kJdbc}) {
    if (name == VariantName(v)) {
      *variant = v;
      return true;
    }
  }
  return false;
}

// The package draws floor(dbms_random.value(lo, hi)), lo..hi-1, and reads `rownum < n`, n-1
// rows; the JDBC classes' RandomGenerator.randomInteger(lo, hi) is lo..hi-1 too (they index a
// list of `size` elements with randomInteger(0, size)). docs/soe.md cites the lines.
const VariantLimits& LimitsOf(SoeVariant variant) {
  // MAX_BROWSE_CATEGORY 24, MAX_PRODS_TO_BUY 8, ROW_RETURNS 15, rownum < 10, the logon's
  // trunc(dbms_random.value(1,4)) = 2.
  static constexpr VariantLimits kPlsql21 = {.max_products = 23,
                                             .max_browses = 23,
                                             .max_lines = 7,
                                             .max_po_status = 9,
                                             .pending_orders = 9,
                                             .bo_lines = 14,
                                             .logon_one_in = 3,
                                             .min_rows_to_write = 2,
                                             .sleep_needs_both = true};
  // MAX_BROWSE_CATEGORY 6, MAX_PRODS_TO_BUY 6, a logon row every time.
  static constexpr VariantLimits kPlsql20 = {.max_products = 5,
                                             .max_browses = 5,
                                             .max_lines = 5,
                                             .max_po_status = 9,
                                             .pending_orders = 9,
                                             .bo_lines = 14,
                                             .logon_one_in = 1,
                                             .min_rows_to_write = 2,
                                             .sleep_needs_both = true};
  // orderentryjdbc: MAX_BROWSE_CATEGORY 24, rownum < 10 (PO), rownum < 5 (BO's lines).
  static constexpr VariantLimits kJdbc = {.max_products = 23,
                                          .max_browses = 23,
                                          .max_lines = 5,
                                          .max_po_status = 9,
                                          .pending_orders = 9,
                                          .bo_lines = 4,
                                          .logon_one_in = 1,
                                          .min_rows_to_write = 1,
                                          .sleep_needs_both = false};
  switch (variant) {
    case SoeVariant::kPlsql20:
      return kPlsql20;
    case SoeVariant::kJdbc:
      return kJdbc;
    case SoeVariant::kPlsql21:
      break;
  }
  return kPlsql21;
}

TxInputs DrawInputs(int tx, Random& rng, const SoeSize& size, SoeVariant variant) {
  const VariantLimits& v = LimitsOf(variant);
  TxInputs in;
  switch (tx) {
    case kNcr: {
      in.first = std::string(Pick(rng, FirstNames()));
      in.last = std::string(Pick(rng, LastNames()));
      const auto& nls = Pick(rng, NlsPairs());
      in.nls_language = std::string(nls.first);
      in.nls_territory = std::string(nls.second);
      in.email = in.first + "." + in.last + "@example.com";
      in.credit_limit = rng.Uniform(100, 4999);
      in.account_mgr = rng.Uniform(145, 170);
      in.dob_days = rng.Uniform(20 * kDays, 60 * kDays);  // born 20-60 years ago
      DrawAddress(rng, in);
      in.card_number = rng.Uniform(1111111111, 9999999998);
      in.expiry_days = rng.Uniform(kDays, 4 * kDays - 1);
      in.security_code = rng.Uniform(1111, 9998);
      break;
    }
    case kUcd:
      in.last = std::string(Pick(rng, LastNames()));
      in.first = std::string(Pick(rng, FirstNames()));
      DrawAddress(rng, in);
      break;
    case kBp: {
      in.customer = rng.Uniform(1, size.customers);
      const int64_t n = rng.Uniform(1, v.max_products);
      for (int64_t i = 0; i < n; ++i) in.products.push_back(rng.Uniform(1, size.products));
      break;
    }
    case kOp: {
      in.customer = rng.Uniform(1, size.customers);
      const int64_t browses = rng.Uniform(1, v.max_browses);
      for (int64_t i = 0; i < browses; ++i) {
        in.browse_warehouses.push_back(rng.Uniform(1, size.warehouses));
        in.browse_categories.push_back(rng.Uniform(1, size.categories));
      }
      in.lines = rng.Uniform(2, v.max_lines);
      in.delivery_cost = rng.Uniform(1, 5);
      in.status = rng.Uniform(0, 3);
      break;
    }
    case kPo:
      in.warehouse = rng.Uniform(1, size.warehouses);
      in.status = rng.Uniform(5, v.max_po_status);
      in.row_limit = v.pending_orders;
      break;
    case kBo:
      in.customer = rng.Uniform(1, size.customers);
      in.pick_order = rng.Uniform(0, kPickRange - 1);
      in.pick_line = rng.Uniform(0, kPickRange - 1);
      in.row_limit = v.bo_lines;
      break;
    case kSq:
      in.sales_rep = rng.Uniform(1, 1000);
      break;
    case kWq:
    case kWa:
      in.warehouse = rng.Uniform(1, size.warehouses);
      break;
  }
  // Drawn last and only where a logon row may be skipped, so the other draws of 2.0 and the
  // JDBC classes are those of earlier storebench versions.
  const bool logs_on = tx == kNcr || tx == kBp || tx == kOp || tx == kBo;
  if (logs_on && v.logon_one_in > 1) in.logon_row = rng.Uniform(1, v.logon_one_in) == 2;
  return in;
}

}  // namespace sb::soe
