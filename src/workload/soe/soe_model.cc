#include "workload/soe/soe_model.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace sb::soe {
namespace {

constexpr TxInfo kTx[kNumTx] = {
    {"NCR", "Customer Registration", "NewCustomerProcess", "weight_ncr", 15},
    {"UCD", "Update Customer Details", "UpdateCustomerDetails", "weight_ucd", 10},
    {"BP", "Browse Products", "BrowseProducts", "weight_bp", 50},
    {"OP", "Order Products", "NewOrderProcess", "weight_op", 40},
    {"PO", "Process Orders", "ProcessOrders", "weight_po", 5},
    {"BO", "Browse Orders", "BrowseAndUpdateOrders", "weight_bo", 5},
    {"SQ", "Sales Rep Query", "SalesRepsOrdersQuery", "weight_sq", 0},
    {"WQ", "Warehouse Query", "WarehouseOrdersQuery", "weight_wq", 0},
    {"WA", "Warehouse Activity Query", "WarehouseActivityQuery", "weight_wa", 0},
};

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

}  // namespace

const TxInfo& InfoOf(int tx) { return kTx[tx]; }

int TxFromClassName(std::string_view class_name) {
  std::string_view last = class_name.substr(class_name.rfind('.') + 1);
  if (last.size() > 2 && last.substr(last.size() - 2) == "V2") last.remove_suffix(2);
  // The PL/SQL variant names the sales-rep query SalesRepsQuery.
  if (last == "SalesRepsQuery") return kSq;
  for (int t = 0; t < kNumTx; ++t) {
    if (last == kTx[t].java_class) return t;
  }
  return -1;
}

int TxFromShortName(std::string_view short_name) {
  for (int t = 0; t < kNumTx; ++t) {
    if (EqualsIgnoreCase(short_name, kTx[t].short_name)) return t;
  }
  return -1;
}

std::string SoeSize::label() const {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", scale);
  return buf;
}

Result<SoeSize> SizeForScale(double scale) {
  if (!(scale > 0) || scale > 1000) {
    return Status::InvalidArgument("soe_scale must be above 0 and at most 1000 (1 = about 1 GB)");
  }
  SoeSize s;
  s.scale = scale;
  // Swingbench 2.7's wizard at scale 1: 1,000,000 customers, 1.5 addresses and cards each,
  // 1,429,790 orders and 2,382,984 logons.
  s.customers = std::llround(1e6 * scale);
  if (s.customers < 10) {
    return Status::InvalidArgument("soe_scale " + s.label() +
                                   " is too small: it gives fewer than 10 customers");
  }
  s.addresses = std::llround(1.5 * static_cast<double>(s.customers));
  s.cards = s.addresses;
  s.orders = std::llround(1.42979 * static_cast<double>(s.customers));
  s.logons = std::llround(2.382984 * static_cast<double>(s.customers));
  const int64_t fixed = std::llround(1000 * std::min(scale, 1.0));
  s.warehouses = std::max<int64_t>(10, fixed);
  s.products = std::max<int64_t>(100, fixed);
  // Swingbench draws category ids 1..200 for its 1000 products.
  s.categories = std::max<int64_t>(10, s.products / 5);
  return s;
}

Result<TxMix> TxMix::FromWeights(const std::array<int64_t, kNumTx>& weights) {
  TxMix m;
  for (int t = 0; t < kNumTx; ++t) {
    if (weights[t] < 0) {
      return Status::InvalidArgument(std::string("the weight of ") + kTx[t].short_name +
                                     " is negative; weights are whole numbers of 0 or more");
    }
    m.weights_[t] = weights[t];
    m.total_ += weights[t];
  }
  if (m.total_ == 0) {
    return Status::InvalidArgument(
        "every transaction weight is 0, so no transaction is enabled; give at least one a "
        "positive weight");
  }
  return m;
}

int TxMix::Pick(Random& rng) const {
  int64_t r = rng.Uniform(0, total_ - 1);
  for (int t = 0; t < kNumTx; ++t) {
    if (r < weights_[t]) return t;
    r -= weights_[t];
  }
  return kNumTx - 1;  // unreachable: r < total_
}

double TxMix::Probability(int tx) const {
  return static_cast<double>(weights_[tx]) / static_cast<double>(total_);
}

Status CheckDelays(const Delays& d) {
  if (d.min_ms > d.max_ms) {
    return Status::InvalidArgument("min_delay (" + std::to_string(d.min_ms) +
                                   " ms) is above max_delay (" + std::to_string(d.max_ms) + " ms)");
  }
  if (d.inter_min_ms > d.inter_max_ms) {
    return Status::InvalidArgument("inter_min_delay (" + std::to_string(d.inter_min_ms) +
                                   " ms) is above inter_max_delay (" +
                                   std::to_string(d.inter_max_ms) + " ms)");
  }
  return Status::Ok();
}

int64_t DrawDelayNanos(Random& rng, int64_t min_ms, int64_t max_ms) {
  if (max_ms <= 0) return 0;
  return rng.Uniform(min_ms, max_ms) * 1000000;
}

}  // namespace sb::soe
