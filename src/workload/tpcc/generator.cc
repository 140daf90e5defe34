#include "workload/tpcc/generator.h"

#include "base/random.h"
#include "storebench/db.h"
#include "workload/tpcc/tpcc_random.h"

namespace sb::tpcc {
namespace {

// One row under construction: a text buffer per column, reused from row to row.
class Row {
 public:
  explicit Row(size_t ncols) : cols_(ncols), views_(ncols) {}
  std::string& operator[](size_t i) { return cols_[i]; }
  void Clear() {
    for (auto& c : cols_) c.clear();
    nulls_.assign(cols_.size(), false);
  }
  void SetNull(size_t i) { nulls_[i] = true; }
  void Int(size_t i, int64_t v) { cols_[i] = std::to_string(v); }
  bool Emit(Table t, const RowFn& emit) {
    for (size_t i = 0; i < cols_.size(); ++i) views_[i] = nulls_[i] ? db::kBulkNull : cols_[i];
    return emit(t, views_);
  }

 private:
  std::vector<std::string> cols_;
  std::vector<std::string_view> views_;
  std::vector<bool> nulls_;
};

// Address columns: street 1, street 2, city [10..20]; state 2 letters; zip.
void Address(Random& rng, Row& r, size_t first) {
  AppendAString(rng, 10, 20, &r[first]);
  AppendAString(rng, 10, 20, &r[first + 1]);
  AppendAString(rng, 10, 20, &r[first + 2]);
  AppendAString(rng, 2, 2, &r[first + 3]);
  AppendZip(rng, &r[first + 4]);
}

// Stream identifiers under the load seed: (warehouse, table).
uint64_t Stream(const GenParams& p, int64_t w, Table t) {
  return DeriveSeed(p.seed, {static_cast<uint64_t>(w), static_cast<uint64_t>(t)});
}

}  // namespace

const char* TableName(Table t) {
  static constexpr const char* kNames[kNumTables] = {"item",      "warehouse",  "district",
                                                     "customer",  "history",    "orders",
                                                     "new_order", "order_line", "stock"};
  return kNames[static_cast<int>(t)];
}

const std::vector<std::string>& TableColumns(Table t) {
  static const std::vector<std::string> kCols[kNumTables] = {
      {"i_id", "i_im_id", "i_name", "i_price", "i_data"},
      {"w_id", "w_name", "w_street_1", "w_street_2", "w_city", "w_state", "w_zip", "w_tax",
       "w_ytd"},
      {"d_id", "d_w_id", "d_name", "d_street_1", "d_street_2", "d_city", "d_state", "d_zip",
       "d_tax", "d_ytd", "d_next_o_id"},
      {"c_id",       "c_d_id",     "c_w_id",        "c_first",       "c_middle",
       "c_last",     "c_street_1", "c_street_2",    "c_city",        "c_state",
       "c_zip",      "c_phone",    "c_since",       "c_credit",      "c_credit_lim",
       "c_discount", "c_balance",  "c_ytd_payment", "c_payment_cnt", "c_delivery_cnt",
       "c_data"},
      {"h_c_id", "h_c_d_id", "h_c_w_id", "h_d_id", "h_w_id", "h_date", "h_amount", "h_data"},
      {"o_id", "o_d_id", "o_w_id", "o_c_id", "o_entry_d", "o_carrier_id", "o_ol_cnt",
       "o_all_local"},
      {"no_o_id", "no_d_id", "no_w_id"},
      {"ol_o_id", "ol_d_id", "ol_w_id", "ol_number", "ol_i_id", "ol_supply_w_id", "ol_delivery_d",
       "ol_quantity", "ol_amount", "ol_dist_info"},
      {"s_i_id", "s_w_id", "s_quantity", "s_dist_01", "s_dist_02", "s_dist_03", "s_dist_04",
       "s_dist_05", "s_dist_06", "s_dist_07", "s_dist_08", "s_dist_09", "s_dist_10", "s_ytd",
       "s_order_cnt", "s_remote_cnt", "s_data"},
  };
  return kCols[static_cast<int>(t)];
}

int64_t ExpectedRows(Table t, int64_t warehouses) {
  const int64_t districts = warehouses * kDistrictsPerWarehouse;
  switch (t) {
    case Table::kItem:
      return kItems;
    case Table::kWarehouse:
      return warehouses;
    case Table::kDistrict:
      return districts;
    case Table::kCustomer:
    case Table::kHistory:
      return districts * kCustomersPerDistrict;
    case Table::kOrders:
      return districts * kOrdersPerDistrict;
    case Table::kNewOrder:
      return districts * (kOrdersPerDistrict - kFirstUndeliveredOrder + 1);
    case Table::kOrderLine:
      return districts * kOrdersPerDistrict * 10;
    case Table::kStock:
      return warehouses * kStockPerWarehouse;
  }
  return 0;
}

bool GenerateItems(const GenParams& p, const RowFn& emit) {
  Random rng(Stream(p, 0, Table::kItem));
  Row r(5);
  for (int64_t i = 1; i <= kItems; ++i) {
    r.Clear();
    r.Int(0, i);
    r.Int(1, rng.Uniform(1, 10000));
    AppendAString(rng, 14, 24, &r[2]);
    AppendCents(rng.Uniform(100, 10000), &r[3]);
    AppendData(rng, &r[4]);
    if (!r.Emit(Table::kItem, emit)) return false;
  }
  return true;
}

bool GenerateWarehouse(const GenParams& p, int64_t w, const RowFn& emit) {
  const std::string wid = std::to_string(w);
  {
    Random rng(Stream(p, w, Table::kWarehouse));
    Row r(9);
    r.Clear();
    r[0] = wid;
    AppendAString(rng, 6, 10, &r[1]);
    Address(rng, r, 2);
    AppendTenThousandths(rng.Uniform(0, 2000), &r[7]);
    r[8] = "300000.00";
    if (!r.Emit(Table::kWarehouse, emit)) return false;
  }
  {
    Random rng(Stream(p, w, Table::kStock));
    Row r(17);
    for (int64_t i = 1; i <= kStockPerWarehouse; ++i) {
      r.Clear();
      r.Int(0, i);
      r[1] = wid;
      r.Int(2, rng.Uniform(10, 100));
      for (size_t d = 0; d < 10; ++d) AppendAString(rng, 24, 24, &r[3 + d]);
      r[13] = "0";
      r[14] = "0";
      r[15] = "0";
      AppendData(rng, &r[16]);
      if (!r.Emit(Table::kStock, emit)) return false;
    }
  }
  Row dist(11), cust(21), hist(8), order(8), neworder(3), line(10);
  for (int64_t d = 1; d <= kDistrictsPerWarehouse; ++d) {
    const std::string did = std::to_string(d);
    Random rng(DeriveSeed(Stream(p, w, Table::kDistrict), {static_cast<uint64_t>(d)}));
    dist.Clear();
    dist[0] = did;
    dist[1] = wid;
    AppendAString(rng, 6, 10, &dist[2]);
    Address(rng, dist, 3);
    AppendTenThousandths(rng.Uniform(0, 2000), &dist[8]);
    dist[9] = "30000.00";
    dist.Int(10, kOrdersPerDistrict + 1);
    if (!dist.Emit(Table::kDistrict, emit)) return false;

    for (int64_t c = 1; c <= kCustomersPerDistrict; ++c) {
      cust.Clear();
      cust.Int(0, c);
      cust[1] = did;
      cust[2] = wid;
      AppendAString(rng, 8, 16, &cust[3]);
      cust[4] = "OE";
      cust[5] = LastName(c <= 1000 ? c - 1 : NURand(rng, 255, 0, 999, p.c_last_load));
      Address(rng, cust, 6);
      AppendNString(rng, 16, 16, &cust[11]);
      cust[12] = p.now;
      // The specification's 10 % as one draw in 1..10, the stream earlier loads used, so the
      // default data stays the same for a seed.
      cust[13] = (p.bad_credit_pct == 10 ? rng.Uniform(1, 10) == 1
                                         : rng.Uniform(1, 100) <= p.bad_credit_pct)
                     ? "BC"
                     : "GC";
      cust[14] = "50000.00";
      AppendTenThousandths(rng.Uniform(0, 5000), &cust[15]);
      cust[16] = "-10.00";
      cust[17] = "10.00";
      cust[18] = "1";
      cust[19] = "0";
      AppendAString(rng, 300, 500, &cust[20]);
      if (!cust.Emit(Table::kCustomer, emit)) return false;

      hist.Clear();
      hist.Int(0, c);
      hist[1] = did;
      hist[2] = wid;
      hist[3] = did;
      hist[4] = wid;
      hist[5] = p.now;
      hist[6] = "10.00";
      AppendAString(rng, 12, 24, &hist[7]);
      if (!hist.Emit(Table::kHistory, emit)) return false;
    }

    // O_C_ID is a random permutation of the customer ids (clause 4.3.3.1).
    std::vector<int64_t> perm(kOrdersPerDistrict);
    for (int64_t i = 0; i < kOrdersPerDistrict; ++i) perm[i] = i + 1;
    for (int64_t i = kOrdersPerDistrict - 1; i > 0; --i) {
      std::swap(perm[i], perm[rng.Uniform(0, i)]);
    }
    for (int64_t o = 1; o <= kOrdersPerDistrict; ++o) {
      const bool delivered = o < kFirstUndeliveredOrder;
      const int64_t ol_cnt = rng.Uniform(5, 15);
      order.Clear();
      order.Int(0, o);
      order[1] = did;
      order[2] = wid;
      order.Int(3, perm[o - 1]);
      order[4] = p.now;
      if (delivered) {
        order.Int(5, rng.Uniform(1, 10));
      } else {
        order.SetNull(5);
      }
      order.Int(6, ol_cnt);
      order[7] = "1";
      if (!order.Emit(Table::kOrders, emit)) return false;
      if (!delivered) {
        neworder.Clear();
        neworder.Int(0, o);
        neworder[1] = did;
        neworder[2] = wid;
        if (!neworder.Emit(Table::kNewOrder, emit)) return false;
      }
      for (int64_t n = 1; n <= ol_cnt; ++n) {
        line.Clear();
        line.Int(0, o);
        line[1] = did;
        line[2] = wid;
        line.Int(3, n);
        line.Int(4, rng.Uniform(1, kItems));
        line[5] = wid;
        if (delivered) {
          line[6] = p.now;
          line[8] = "0.00";
        } else {
          line.SetNull(6);
          AppendCents(rng.Uniform(1, 999999), &line[8]);
        }
        line[7] = "5";
        AppendAString(rng, 24, 24, &line[9]);
        if (!line.Emit(Table::kOrderLine, emit)) return false;
      }
    }
  }
  return true;
}

}  // namespace sb::tpcc
