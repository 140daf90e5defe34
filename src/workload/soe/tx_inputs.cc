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

const VariantLimits& LimitsOf(SoeVariant variant) {
  // PL/SQL package version 2 (the ORDERENTRY package of SOE_Server_Side_V2.xml).
  static constexpr VariantLimits kPlsql = {.max_products = 5,
                                           .max_browses = 5,
                                           .max_po_status = 9,
                                           .pending_orders = 10,
                                           .bo_lines = 14};
  // The JDBC classes (BrowseProducts, NewOrderProcess, ProcessOrders, BrowseAndUpdateOrders).
  static constexpr VariantLimits kJdbc = {.max_products = 24,
                                          .max_browses = 24,
                                          .max_po_status = 10,
                                          .pending_orders = 9,
                                          .bo_lines = 4};
  return variant == SoeVariant::kJdbc ? kJdbc : kPlsql;
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
      in.lines = rng.Uniform(2, 5);
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
  return in;
}

}  // namespace sb::soe
