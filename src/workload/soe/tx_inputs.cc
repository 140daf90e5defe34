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

TxInputs DrawInputs(int tx, Random& rng, const SoeSize& size) {
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
      const int64_t n = rng.Uniform(1, 5);
      for (int64_t i = 0; i < n; ++i) in.products.push_back(rng.Uniform(1, size.products));
      break;
    }
    case kOp: {
      in.customer = rng.Uniform(1, size.customers);
      const int64_t browses = rng.Uniform(1, 5);
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
      in.status = rng.Uniform(5, 9);
      break;
    case kBo:
      in.customer = rng.Uniform(1, size.customers);
      in.pick_order = rng.Uniform(0, kPickRange - 1);
      in.pick_line = rng.Uniform(0, kPickRange - 1);
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
