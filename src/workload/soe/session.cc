// The Order Entry transactions, one Session per user (worker). Each transaction runs the steps
// of Swingbench's PL/SQL package (version 2, docs/soe.md) as client SQL: the same statements in
// the same order, with a think time where the package sleeps, except inside a write transaction
// (a write transaction never waits on a think time holding its locks; docs/soe.md).
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "workload/soe/generator.h"
#include "workload/soe/soe_workload.h"

namespace sb::soe {
namespace {

using workload::OpContext;

constexpr int64_t kDays = 365;

class SoeSession final : public workload::Session {
 public:
  SoeSession(std::unique_ptr<db::Connection> conn, SoeOptions opts, TxMix mix, uint64_t seed)
      : conn_(std::move(conn)), opts_(std::move(opts)), mix_(mix), rng_(seed) {}

  Status Prepare(const std::map<std::string, std::string>& sql) {
    for (const auto& [name, text] : sql) {
      auto stmt = conn_->Prepare(text);
      if (!stmt.ok()) return stmt.status();
      stmts_[name] = std::move(stmt).value();
    }
    return Status::Ok();
  }

  Status RunUnit(OpContext& ctx) override;

 private:
  db::Statement& S(const char* name) { return *stmts_.at(name); }

  // Think time between a transaction's statements; returns nothing, adds to slept_.
  void Think() {
    const int64_t n = DrawDelayNanos(rng_, opts_.delays.min_ms, opts_.delays.max_ms);
    if (n > 0) slept_ += ctx_->Pause(n);
  }
  // Runs a query and reads all its rows through `row` (may be null).
  Status Query(db::Statement& s, const std::function<void(db::Statement&)>& row) {
    SB_RETURN_IF_ERROR(s.Execute());
    while (s.Next()) {
      if (row) row(s);
    }
    SB_RETURN_IF_ERROR(s.status());
    ++counts_[kSelects];
    return Status::Ok();
  }
  Status Write(db::Statement& s, Counter kind) {
    SB_RETURN_IF_ERROR(s.Execute());
    if (s.Next()) s.Reset();  // SQLite runs a statement with RETURNING when its row is read
    SB_RETURN_IF_ERROR(s.status());
    ++counts_[kind];
    return Status::Ok();
  }
  Result<int64_t> NextId(const char* name) {
    db::Statement& s = S(name);
    SB_RETURN_IF_ERROR(s.Execute());
    if (!s.Next()) {
      SB_RETURN_IF_ERROR(s.status());
      return Status::Internal(std::string(name) + " returned no row");
    }
    const int64_t id = s.GetInt(0);
    s.Reset();
    ++counts_[kSelects];
    return id;
  }
  Status Begin() {
    SB_RETURN_IF_ERROR(conn_->Begin(/*write=*/true));
    in_txn_ = true;
    return Status::Ok();
  }
  Status Commit() {
    SB_RETURN_IF_ERROR(conn_->Commit());
    in_txn_ = false;
    ++counts_[kCommits];
    for (auto& [counter, n] : pending_rows_) counts_[counter] += n;
    pending_rows_.clear();
    return Status::Ok();
  }
  // Rows a committed transaction adds (counted at its commit).
  void AddsRow(Counter c) { ++pending_rows_[c]; }
  // A logon: one row in LOGON, committed on its own.
  Status Logon(int64_t customer) {
    S("insert_logon").BindInt(1, customer);
    SB_RETURN_IF_ERROR(Write(S("insert_logon"), kInserts));
    ++counts_[kCommits];  // autocommit
    ++counts_[kNewLogons];
    return Status::Ok();
  }
  int64_t RandomCustomer() { return rng_.Uniform(1, opts_.size.customers); }
  int64_t RandomWarehouse() { return rng_.Uniform(1, opts_.size.warehouses); }
  template <typename T>
  const T& Pick(const std::vector<T>& v) {
    return v[static_cast<size_t>(rng_.Uniform(0, static_cast<int64_t>(v.size()) - 1))];
  }

  Status Run(int tx);
  Status NewCustomer();
  Status UpdateCustomerDetails();
  Status BrowseProducts();
  Status NewOrder();
  Status ProcessOrders();
  Status BrowseAndUpdateOrders();
  Status SalesRepsQuery();
  Status WarehouseOrdersQuery();
  Status WarehouseActivityQuery();

  std::unique_ptr<db::Connection> conn_;
  SoeOptions opts_;
  TxMix mix_;
  Random rng_;
  std::map<std::string, std::unique_ptr<db::Statement>> stmts_;
  OpContext* ctx_ = nullptr;
  int64_t slept_ = 0;
  bool in_txn_ = false;
  std::map<Counter, int64_t> counts_;
  std::map<Counter, int64_t> pending_rows_;
};

Status SoeSession::RunUnit(OpContext& ctx) {
  ctx_ = &ctx;
  // The inter-transaction delay comes first and is never part of a response time.
  const int64_t inter = DrawDelayNanos(rng_, opts_.delays.inter_min_ms, opts_.delays.inter_max_ms);
  if (inter > 0) ctx.Pause(inter);
  const int tx = mix_.Pick(rng_);
  slept_ = 0;
  counts_.clear();
  workload::StepOutcome out = ctx.Timed([&] {
    pending_rows_.clear();
    Status s = Run(tx);
    if (!s.ok() && in_txn_) {
      conn_->Rollback().IgnoreError();
      in_txn_ = false;
      ++counts_[kRollbacks];
    }
    return s;
  });
  for (const auto& [counter, n] : counts_) ctx.Count(counter, n);
  if (!out.status.ok()) {
    // A lost connection: the driver reconnects. A bug in our SQL or a broken invariant: stop.
    const ErrorCategory c = out.status.category();
    if (out.status.code() != StatusCode::kDbError || c == ErrorCategory::kSyntax ||
        c == ErrorCategory::kConnectionLost) {
      return out.status;
    }
    ctx.Count(kFailed, 1);
    ctx.Count(kFailedByTx + tx, 1);
    return Status::Ok();
  }
  const int64_t rt = out.elapsed_nanos - (opts_.delays.include_sleep ? 0 : slept_);
  ctx.RecordStep(tx, std::max<int64_t>(0, rt), /*add_to_unit=*/true);
  return Status::Ok();
}

Status SoeSession::Run(int tx) {
  switch (tx) {
    case kNcr:
      return NewCustomer();
    case kUcd:
      return UpdateCustomerDetails();
    case kBp:
      return BrowseProducts();
    case kOp:
      return NewOrder();
    case kPo:
      return ProcessOrders();
    case kBo:
      return BrowseAndUpdateOrders();
    case kSq:
      return SalesRepsQuery();
    case kWq:
      return WarehouseOrdersQuery();
    case kWa:
      return WarehouseActivityQuery();
  }
  return Status::Internal("unknown transaction");
}

Status SoeSession::NewCustomer() {
  auto customer = NextId("next_customer_id");
  if (!customer.ok()) return customer.status();
  auto address = NextId("next_address_id");
  if (!address.ok()) return address.status();
  auto card = NextId("next_card_id");
  if (!card.ok()) return card.status();
  Think();
  const std::string first(Pick(FirstNames())), last(Pick(LastNames()));
  const auto& nls = Pick(NlsPairs());
  SB_RETURN_IF_ERROR(Begin());
  db::Statement& c = S("insert_customer");
  c.BindInt(1, *customer);
  c.BindText(2, first);
  c.BindText(3, last);
  c.BindText(4, nls.first);
  c.BindText(5, nls.second);
  c.BindInt(6, rng_.Uniform(100, 4999));
  c.BindText(7, first + "." + last + "@example.com");
  c.BindInt(8, rng_.Uniform(145, 170));
  c.BindInt(9, 0);                                      // customer since today
  c.BindInt(10, rng_.Uniform(20 * kDays, 60 * kDays));  // born 20-60 years ago
  c.BindInt(11, *address);
  c.BindInt(12, *card);
  SB_RETURN_IF_ERROR(Write(c, kInserts));
  db::Statement& a = S("insert_address");
  a.BindInt(1, *address);
  a.BindInt(2, *customer);
  a.BindText(3, std::to_string(rng_.Uniform(1, 199)));
  a.BindText(4, "Street Name");
  a.BindText(5, Pick(Towns()));
  a.BindText(6, Pick(Counties()));
  a.BindText(7, Pick(Countries()));
  a.BindText(8, "Postcode");
  SB_RETURN_IF_ERROR(Write(a, kInserts));
  db::Statement& d = S("insert_card");
  d.BindInt(1, *card);
  d.BindInt(2, *customer);
  d.BindInt(3, rng_.Uniform(1111111111, 9999999998));
  d.BindInt(4, rng_.Uniform(kDays, 4 * kDays - 1));
  d.BindInt(5, rng_.Uniform(1111, 9998));
  SB_RETURN_IF_ERROR(Write(d, kInserts));
  AddsRow(kNewCustomers);
  SB_RETURN_IF_ERROR(Commit());
  Think();
  SB_RETURN_IF_ERROR(Logon(*customer));
  S("get_customer").BindInt(1, *customer);
  return Query(S("get_customer"), nullptr);
}

Status SoeSession::UpdateCustomerDetails() {
  db::Statement& find = S("find_customers_by_name");
  find.BindText(1, Pick(LastNames()));
  find.BindText(2, Pick(FirstNames()));
  int64_t customer = 0;
  SB_RETURN_IF_ERROR(Query(find, [&](db::Statement& s) {
    if (customer == 0) customer = s.GetInt(0);
  }));
  Think();
  if (customer == 0) return Status::Ok();
  auto address = NextId("next_address_id");
  if (!address.ok()) return address.status();
  SB_RETURN_IF_ERROR(Begin());
  db::Statement& a = S("insert_address");
  a.BindInt(1, *address);
  a.BindInt(2, customer);
  a.BindText(3, std::to_string(rng_.Uniform(1, 199)));
  a.BindText(4, "Street Name");
  a.BindText(5, Pick(Towns()));
  a.BindText(6, Pick(Counties()));
  a.BindText(7, Pick(Countries()));
  a.BindText(8, "Postcode");
  SB_RETURN_IF_ERROR(Write(a, kInserts));
  db::Statement& u = S("update_preferred_address");
  u.BindInt(1, *address);
  u.BindInt(2, customer);
  SB_RETURN_IF_ERROR(Write(u, kUpdates));
  return Commit();
}

Status SoeSession::BrowseProducts() {
  const int64_t customer = RandomCustomer();
  S("get_customer").BindInt(1, customer);
  SB_RETURN_IF_ERROR(Query(S("get_customer"), nullptr));
  Think();
  SB_RETURN_IF_ERROR(Logon(customer));
  Think();
  const int64_t n = rng_.Uniform(1, 5);
  for (int64_t i = 0; i < n; ++i) {
    S("product_details").BindInt(1, rng_.Uniform(1, opts_.size.products));
    SB_RETURN_IF_ERROR(Query(S("product_details"), nullptr));
    Think();
  }
  return Status::Ok();
}

Status SoeSession::NewOrder() {
  const int64_t customer = RandomCustomer();
  struct Details {
    bool found = false;
    int64_t mgr = 0, address = 0, card = 0;
    bool address_null = true, card_null = true;
    std::string customer_class;
  } who;
  S("get_customer_details").BindInt(1, customer);
  SB_RETURN_IF_ERROR(Query(S("get_customer_details"), [&](db::Statement& s) {
    if (who.found) return;
    who.found = true;
    who.mgr = s.IsNull(3) ? 0 : s.GetInt(3);
    who.address_null = s.IsNull(4);
    who.address = who.address_null ? 0 : s.GetInt(4);
    who.card_null = s.IsNull(5);
    who.card = who.card_null ? 0 : s.GetInt(5);
    who.customer_class = std::string(s.GetText(6));
  }));
  Think();
  SB_RETURN_IF_ERROR(Logon(customer));
  Think();
  struct Product {
    int64_t id;
    std::string price;
    int64_t cents;
    int64_t on_hand;
  };
  std::vector<Product> browsed;
  int64_t warehouse = 0;
  const int64_t browses = rng_.Uniform(1, 5);
  for (int64_t i = 0; i < browses; ++i) {
    warehouse = RandomWarehouse();
    browsed.clear();
    db::Statement& b = S("browse_category");
    b.BindInt(1, warehouse);
    b.BindInt(2, rng_.Uniform(1, opts_.size.categories));
    SB_RETURN_IF_ERROR(Query(b, [&](db::Statement& s) {
      browsed.push_back(
          {s.GetInt(0), std::string(s.GetText(2)), CentsOf(s.GetDouble(2)), s.GetInt(3)});
    }));
    Think();
  }
  Think();
  if (browsed.empty() || !who.found) return Status::Ok();  // nothing to order
  const int64_t lines = std::min<int64_t>(rng_.Uniform(2, 5), static_cast<int64_t>(browsed.size()));
  auto order = NextId("next_order_id");
  if (!order.ok()) return order.status();
  SB_RETURN_IF_ERROR(Begin());
  db::Statement& o = S("insert_order");
  o.BindInt(1, *order);
  o.BindInt(2, customer);
  o.BindInt(3, who.mgr);
  o.BindInt(4, warehouse);
  o.BindInt(5, rng_.Uniform(1, 5));
  if (who.address_null) {
    o.BindNull(6);
  } else {
    o.BindInt(6, who.address);
  }
  o.BindText(7, who.customer_class);
  if (who.card_null) {
    o.BindNull(8);
  } else {
    o.BindInt(8, who.card);
  }
  if (who.address_null) {
    o.BindNull(9);
  } else {
    o.BindInt(9, who.address);
  }
  SB_RETURN_IF_ERROR(Write(o, kInserts));
  int64_t total = 0, items = 0;
  for (int64_t i = 0; i < lines; ++i) {
    const Product& p = browsed[static_cast<size_t>(i)];
    db::Statement& stock = S("stock_for_update");
    stock.BindInt(1, p.id);
    stock.BindInt(2, warehouse);
    int64_t on_hand = 0;
    SB_RETURN_IF_ERROR(Query(stock, [&](db::Statement& s) { on_hand = s.GetInt(0); }));
    if (on_hand <= 0) continue;
    db::Statement& item = S("insert_order_item");
    item.BindInt(1, *order);
    item.BindInt(2, ++items);
    item.BindInt(3, p.id);
    item.BindText(4, MoneyText(p.cents));
    SB_RETURN_IF_ERROR(Write(item, kInserts));
    db::Statement& dec = S("decrement_inventory");
    dec.BindInt(1, p.id);
    dec.BindInt(2, warehouse);
    SB_RETURN_IF_ERROR(Write(dec, kUpdates));
    total += p.cents;
  }
  if (items == 0) {
    // Every browsed product is out of stock at this warehouse: no order without items.
    SB_RETURN_IF_ERROR(conn_->Rollback());
    in_txn_ = false;
    ++counts_[kRollbacks];
    return Status::Ok();
  }
  db::Statement& fin = S("finish_order");
  fin.BindInt(1, rng_.Uniform(0, 3));
  fin.BindText(2, MoneyText(total));
  fin.BindInt(3, *order);
  SB_RETURN_IF_ERROR(Write(fin, kUpdates));
  AddsRow(kNewOrders);
  return Commit();
}

Status SoeSession::ProcessOrders() {
  db::Statement& q = S("pending_orders");
  q.BindInt(1, RandomWarehouse());
  int64_t order = 0;
  SB_RETURN_IF_ERROR(Query(q, [&](db::Statement& s) {
    if (order == 0) order = s.GetInt(0);
  }));
  Think();
  if (order == 0) return Status::Ok();
  SB_RETURN_IF_ERROR(Begin());
  db::Statement& u = S("process_order");
  u.BindInt(1, rng_.Uniform(5, 9));
  u.BindInt(2, order);
  SB_RETURN_IF_ERROR(Write(u, kUpdates));
  return Commit();
}

Status SoeSession::BrowseAndUpdateOrders() {
  const int64_t customer = RandomCustomer();
  S("get_customer_details").BindInt(1, customer);
  SB_RETURN_IF_ERROR(Query(S("get_customer_details"), nullptr));
  Think();
  SB_RETURN_IF_ERROR(Logon(customer));
  Think();
  std::vector<int64_t> orders;
  S("customer_orders").BindInt(1, customer);
  SB_RETURN_IF_ERROR(
      Query(S("customer_orders"), [&](db::Statement& s) { orders.push_back(s.GetInt(0)); }));
  if (orders.empty()) return Status::Ok();
  const int64_t order = Pick(orders);
  SB_RETURN_IF_ERROR(Begin());
  struct Line {
    int64_t id;
    std::string price;
  };
  std::vector<Line> lines;
  S("order_items_of").BindInt(1, order);
  SB_RETURN_IF_ERROR(Query(S("order_items_of"), [&](db::Statement& s) {
    lines.push_back({s.GetInt(0), MoneyText(CentsOf(s.GetDouble(2)))});
  }));
  if (!lines.empty()) {
    const Line& line = Pick(lines);
    db::Statement& bump = S("bump_item");
    bump.BindInt(1, order);
    bump.BindInt(2, line.id);
    SB_RETURN_IF_ERROR(Write(bump, kUpdates));
    db::Statement& total = S("bump_order_total");
    total.BindText(1, line.price);
    total.BindInt(2, order);
    SB_RETURN_IF_ERROR(Write(total, kUpdates));
  }
  return Commit();
}

Status SoeSession::SalesRepsQuery() {
  S("sales_rep_query").BindInt(1, rng_.Uniform(1, 1000));
  SB_RETURN_IF_ERROR(Query(S("sales_rep_query"), nullptr));
  Think();
  return Status::Ok();
}

Status SoeSession::WarehouseOrdersQuery() {
  S("warehouse_query").BindInt(1, RandomWarehouse());
  SB_RETURN_IF_ERROR(Query(S("warehouse_query"), nullptr));
  Think();
  return Status::Ok();
}

Status SoeSession::WarehouseActivityQuery() {
  S("warehouse_activity").BindInt(1, RandomWarehouse());
  SB_RETURN_IF_ERROR(Query(S("warehouse_activity"), nullptr));
  Think();
  return Status::Ok();
}

}  // namespace

Result<std::unique_ptr<workload::Session>> NewSoeSession(
    std::unique_ptr<db::Connection> conn, const SoeOptions& opts,
    const std::map<std::string, std::string>& sql, uint64_t seed) {
  auto mix = TxMix::FromWeights(opts.weights);
  if (!mix.ok()) return mix.status();
  auto s = std::make_unique<SoeSession>(std::move(conn), opts, *mix, seed);
  SB_RETURN_IF_ERROR(s->Prepare(sql));
  return std::unique_ptr<workload::Session>(std::move(s));
}

}  // namespace sb::soe
