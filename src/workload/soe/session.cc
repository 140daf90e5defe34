// The Order Entry transactions as client SQL, statement by statement, with a think time where
// the --soe_variant's original sleeps: Swingbench's ORDERENTRY package (2.1 or 2.0), whose
// New Order sleeps inside its write transaction, or its orderentryjdbc classes (docs/soe.md
// cites the lines). procedure_calls.cc runs the package's steps as one stored-procedure call.
#include "workload/soe/session.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "workload/soe/generator.h"

namespace sb::soe {

using workload::OpContext;

SoeSession::SoeSession(std::unique_ptr<db::Connection> conn, SoeOptions opts, TxMix mix,
                       uint64_t seed, std::shared_ptr<std::vector<std::atomic<int64_t>>> user_units)
    : conn_(std::move(conn)),
      opts_(std::move(opts)),
      mix_(mix),
      rng_(seed),
      think_rng_(DeriveSeed(seed, {0x7468696e6bULL})),
      user_units_(std::move(user_units)) {}

Status SoeSession::Prepare(const std::map<std::string, std::string>& sql) {
  for (const auto& [name, text] : sql) {
    auto stmt = conn_->Prepare(text);
    if (!stmt.ok()) return stmt.status();
    stmts_[name] = std::move(stmt).value();
  }
  return Status::Ok();
}

std::pair<int64_t, int64_t> SoeSession::ThinkRange() const {
  const Delays& d = opts_.delays;
  // The package's sleep procedure sleeps only when both bounds are non-zero.
  if (LimitsOf(opts_.variant).sleep_needs_both && (d.min_ms == 0 || d.max_ms == 0)) {
    return {0, 0};
  }
  return {d.min_ms, d.max_ms};
}

void SoeSession::Think() {
  const auto [lo, hi] = ThinkRange();
  const int64_t n = DrawDelayNanos(think_rng_, lo, hi);
  if (n > 0) slept_ += ctx_->Pause(n);
}

Status SoeSession::Query(db::Statement& s, const std::function<void(db::Statement&)>& row) {
  SB_RETURN_IF_ERROR(s.Execute());
  while (s.Next()) {
    if (row) row(s);
  }
  SB_RETURN_IF_ERROR(s.status());
  ++counts_[kSelects];
  return Status::Ok();
}

Status SoeSession::Write(db::Statement& s, Counter kind) {
  SB_RETURN_IF_ERROR(s.Execute());
  if (s.Next()) s.Reset();  // SQLite runs a statement with RETURNING when its row is read
  SB_RETURN_IF_ERROR(s.status());
  ++counts_[kind];
  return Status::Ok();
}

Result<int64_t> SoeSession::NextId(const char* name) {
  db::Statement& s = S(name);
  SB_RETURN_IF_ERROR(s.Execute());
  if (!s.Next()) {
    SB_RETURN_IF_ERROR(s.status());
    if (opts_.no_data) return int64_t{0};  // null://: no sequence to read
    return Status::Internal(std::string(name) + " returned no row");
  }
  const int64_t id = s.GetInt(0);
  s.Reset();
  ++counts_[kSelects];
  return id;
}

Status SoeSession::Begin() {
  SB_RETURN_IF_ERROR(conn_->Begin(/*write=*/true));
  in_txn_ = true;
  return Status::Ok();
}

namespace {

// The in-doubt counter of a row counter (kNewOrders -> kNewOrdersInDoubt, ...).
Counter InDoubtOf(Counter rows) {
  return static_cast<Counter>(kNewOrdersInDoubt + (rows - kNewOrders));
}

}  // namespace

Status SoeSession::Commit() {
  if (Status s = conn_->Commit(); !s.ok()) {
    if (workload::CommitInDoubt(s)) {
      for (const auto& [counter, n] : pending_rows_) in_doubt_[InDoubtOf(counter)] += n;
    }
    return s;
  }
  in_txn_ = false;
  ++counts_[kCommits];
  for (auto& [counter, n] : pending_rows_) counts_[counter] += n;
  pending_rows_.clear();
  return Status::Ok();
}

Status SoeSession::Logon(int64_t customer, const TxInputs& in) {
  // Package 2.1's logon reads the customer, then writes its row one time in three.
  if (opts_.variant == SoeVariant::kPlsql21) {
    S("get_customer").BindInt(1, customer);
    SB_RETURN_IF_ERROR(Query(S("get_customer"), nullptr));
  }
  if (!in.logon_row) return Status::Ok();
  S("insert_logon").BindInt(1, customer);
  if (Status s = Write(S("insert_logon"), kInserts); !s.ok()) {
    // Autocommit: a connection lost during the insert leaves its commit in doubt.
    if (workload::CommitInDoubt(s)) ++in_doubt_[kNewLogonsInDoubt];
    return s;
  }
  ++counts_[kCommits];  // autocommit
  ++counts_[kNewLogons];
  return Status::Ok();
}

Status SoeSession::RunUnit(OpContext& ctx) {
  ctx_ = &ctx;
  // The inter-transaction delay comes first and is never part of a response time. With a
  // connection pool the driver waits it out before the user borrows a connection
  // (SoeWorkload::TerminalWaitNanos), so the connection is not held through it.
  if (opts_.users == 0) {
    const int64_t inter =
        DrawDelayNanos(think_rng_, opts_.delays.inter_min_ms, opts_.delays.inter_max_ms);
    if (inter > 0) ctx.Pause(inter);
  }
  if (opts_.users > 0) {
    const int64_t waited = ctx.queued_nanos();
    if (waited > 0) {
      ctx.Count(kPoolWaits, 1);
      ctx.Count(kPoolWaitMicros, waited / 1000);
    }
  }
  const int tx = mix_.Pick(rng_);
  const TxInputs in = DrawInputs(tx, rng_, opts_.size, opts_.variant);
  slept_ = 0;
  counts_.clear();
  in_doubt_.clear();
  workload::StepOutcome out = ctx.Timed([&] {
    pending_rows_.clear();
    Status s = opts_.procedures ? CallProcedure(tx, in) : Run(tx, in);
    if (!s.ok() && in_txn_) {
      conn_->Rollback().IgnoreError();
      in_txn_ = false;
      ++counts_[kRollbacks];
    }
    return s;
  });
  // A lost connection abandons the unit, and the driver drops what it counted with it; what
  // the server did or may have done is counted at once instead.
  const bool lost = out.status.category() == ErrorCategory::kConnectionLost;
  for (const auto& [counter, n] : counts_) {
    if (lost) {
      ctx.CountNow(counter, n);
    } else {
      ctx.Count(counter, n);
    }
  }
  for (const auto& [counter, n] : in_doubt_) ctx.CountNow(counter, n);
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
  const int64_t user = ctx.terminal();
  if (user_units_ && user >= 0 && user < static_cast<int64_t>(user_units_->size())) {
    (*user_units_)[static_cast<size_t>(user)].fetch_add(1, std::memory_order_relaxed);
  }
  const int64_t rt = out.elapsed_nanos - (opts_.delays.include_sleep ? 0 : slept_);
  ctx.RecordStep(tx, std::max<int64_t>(0, rt), /*add_to_unit=*/true);
  return Status::Ok();
}

Status SoeSession::Run(int tx, const TxInputs& in) {
  switch (tx) {
    case kNcr:
      return NewCustomer(in);
    case kUcd:
      return UpdateCustomerDetails(in);
    case kBp:
      return BrowseProducts(in);
    case kOp:
      return NewOrder(in);
    case kPo:
      return ProcessOrders(in);
    case kBo:
      return BrowseAndUpdateOrders(in);
    case kSq:
      return SimpleQuery("sales_rep_query", in.sales_rep);
    case kWq:
      return SimpleQuery("warehouse_query", in.warehouse);
    case kWa:
      return SimpleQuery("warehouse_activity", in.warehouse);
  }
  return Status::Internal("unknown transaction");
}

Status SoeSession::NewCustomer(const TxInputs& in) {
  auto customer = NextId("next_customer_id");
  if (!customer.ok()) return customer.status();
  auto address = NextId("next_address_id");
  if (!address.ok()) return address.status();
  auto card = NextId("next_card_id");
  if (!card.ok()) return card.status();
  // The JDBC class thinks before its inserts too; the package only after its commit.
  if (jdbc()) Think();
  SB_RETURN_IF_ERROR(Begin());
  db::Statement& c = S("insert_customer");
  c.BindInt(1, *customer);
  c.BindText(2, in.first);
  c.BindText(3, in.last);
  c.BindText(4, in.nls_language);
  c.BindText(5, in.nls_territory);
  c.BindInt(6, in.credit_limit);
  c.BindText(7, in.email);
  c.BindInt(8, in.account_mgr);
  c.BindInt(9, 0);  // customer since today
  c.BindInt(10, in.dob_days);
  c.BindInt(11, *address);
  c.BindInt(12, *card);
  SB_RETURN_IF_ERROR(Write(c, kInserts));
  SB_RETURN_IF_ERROR(InsertAddress(*address, *customer, in));
  db::Statement& d = S("insert_card");
  d.BindInt(1, *card);
  d.BindInt(2, *customer);
  d.BindInt(3, in.card_number);
  d.BindInt(4, in.expiry_days);
  d.BindInt(5, in.security_code);
  SB_RETURN_IF_ERROR(Write(d, kInserts));
  AddsRow(kNewCustomers);
  SB_RETURN_IF_ERROR(Commit());
  Think();
  SB_RETURN_IF_ERROR(Logon(*customer, in));
  S("get_customer").BindInt(1, *customer);
  return Query(S("get_customer"), nullptr);
}

Status SoeSession::InsertAddress(int64_t address, int64_t customer, const TxInputs& in) {
  db::Statement& a = S("insert_address");
  a.BindInt(1, address);
  a.BindInt(2, customer);
  a.BindText(3, in.house);
  a.BindText(4, "Street Name");
  a.BindText(5, in.town);
  a.BindText(6, in.county);
  a.BindText(7, in.country);
  a.BindText(8, "Postcode");
  return Write(a, kInserts);
}

Status SoeSession::UpdateCustomerDetails(const TxInputs& in) {
  db::Statement& find = S("find_customers_by_name");
  find.BindText(1, in.last);
  find.BindText(2, in.first);
  int64_t customer = 0, found = 0;
  SB_RETURN_IF_ERROR(Query(find, [&](db::Statement& s) {
    if (found++ == 0) customer = s.GetInt(0);
  }));
  Think();
  // The package updates only when two or more customers have the name (count > 1); the JDBC
  // class when one does. Either takes the first.
  if (found < LimitsOf(opts_.variant).min_rows_to_write) return Status::Ok();
  auto address = NextId("next_address_id");
  if (!address.ok()) return address.status();
  SB_RETURN_IF_ERROR(Begin());
  SB_RETURN_IF_ERROR(InsertAddress(*address, customer, in));
  db::Statement& u = S("update_preferred_address");
  u.BindInt(1, *address);
  u.BindInt(2, customer);
  SB_RETURN_IF_ERROR(Write(u, kUpdates));
  return Commit();
}

Status SoeSession::BrowseProducts(const TxInputs& in) {
  S("get_customer").BindInt(1, in.customer);
  SB_RETURN_IF_ERROR(Query(S("get_customer"), nullptr));
  Think();
  if (!jdbc()) {  // the JDBC class browses without a logon
    SB_RETURN_IF_ERROR(Logon(in.customer, in));
    Think();
  }
  for (const int64_t product : in.products) {
    S("product_details").BindInt(1, product);
    SB_RETURN_IF_ERROR(Query(S("product_details"), nullptr));
    Think();
  }
  return Status::Ok();
}

Status SoeSession::NewOrder(const TxInputs& in) {
  struct Details {
    bool found = false;
    int64_t mgr = 0, address = 0, card = 0;
    bool address_null = true, card_null = true;
    std::string customer_class;
  } who;
  // The JDBC class logs on first and thinks once before browsing; the package thinks after
  // the customer's details and after the logon.
  if (jdbc()) SB_RETURN_IF_ERROR(Logon(in.customer, in));
  S("get_customer_details").BindInt(1, in.customer);
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
  if (!jdbc()) {
    SB_RETURN_IF_ERROR(Logon(in.customer, in));
    Think();
  }
  struct Product {
    int64_t id;
    int64_t cents;
  };
  std::vector<Product> browsed;
  int64_t warehouse = 0;
  for (size_t i = 0; i < in.browse_warehouses.size(); ++i) {
    warehouse = in.browse_warehouses[i];
    browsed.clear();
    db::Statement& b = S("browse_category");
    b.BindInt(1, warehouse);
    b.BindInt(2, in.browse_categories[i]);
    SB_RETURN_IF_ERROR(Query(b, [&](db::Statement& s) {
      browsed.push_back({s.GetInt(0), CentsOf(s.GetDouble(2))});
    }));
    Think();
  }
  if (!jdbc()) Think();
  if (browsed.empty() || !who.found) return Status::Ok();  // nothing to order
  const int64_t lines = std::min<int64_t>(in.lines, static_cast<int64_t>(browsed.size()));
  auto order = NextId("next_order_id");
  if (!order.ok()) return order.status();
  if (jdbc()) Think();
  SB_RETURN_IF_ERROR(Begin());
  db::Statement& o = S("insert_order");
  o.BindInt(1, *order);
  o.BindInt(2, in.customer);
  o.BindInt(3, who.mgr);
  o.BindInt(4, warehouse);
  o.BindInt(5, in.delivery_cost);
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
  // From here both originals think inside the open transaction, holding the order's row and
  // the inventory rows locked so far: the package before and after each line, the JDBC class
  // after each line.
  Think();
  int64_t total = 0, items = 0;
  for (int64_t i = 0; i < lines; ++i) {
    if (!jdbc()) Think();
    const Product& p = browsed[static_cast<size_t>(i)];
    db::Statement& stock = S("stock_for_update");
    stock.BindInt(1, p.id);
    stock.BindInt(2, warehouse);
    int64_t on_hand = 0;
    SB_RETURN_IF_ERROR(Query(stock, [&](db::Statement& s) { on_hand = s.GetInt(0); }));
    if (on_hand > 0) {
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
    Think();
  }
  if (items == 0) {
    // Every browsed product is out of stock at this warehouse: no order without items.
    SB_RETURN_IF_ERROR(conn_->Rollback());
    in_txn_ = false;
    ++counts_[kRollbacks];
    return Status::Ok();
  }
  db::Statement& fin = S("finish_order");
  fin.BindInt(1, in.status);
  fin.BindText(2, MoneyText(total));
  fin.BindInt(3, *order);
  SB_RETURN_IF_ERROR(Write(fin, kUpdates));
  if (jdbc()) {  // after the order's update, before the inventories' (done here per line)
    Think();
    Think();
  }
  AddsRow(kNewOrders);
  return Commit();
}

Status SoeSession::ProcessOrders(const TxInputs& in) {
  db::Statement& q = S("pending_orders");
  q.BindInt(1, in.warehouse);
  q.BindInt(2, in.row_limit);
  int64_t order = 0;
  SB_RETURN_IF_ERROR(Query(q, [&](db::Statement& s) {
    if (order == 0) order = s.GetInt(0);
  }));
  Think();
  if (order == 0) return Status::Ok();
  SB_RETURN_IF_ERROR(Begin());
  db::Statement& u = S("process_order");
  u.BindInt(1, in.status);
  u.BindInt(2, order);
  SB_RETURN_IF_ERROR(Write(u, kUpdates));
  return Commit();
}

Status SoeSession::BrowseAndUpdateOrders(const TxInputs& in) {
  // The JDBC class logs on first and never thinks; the package thinks after the customer's
  // details and after the logon.
  if (jdbc()) SB_RETURN_IF_ERROR(Logon(in.customer, in));
  S("get_customer_details").BindInt(1, in.customer);
  SB_RETURN_IF_ERROR(Query(S("get_customer_details"), nullptr));
  if (!jdbc()) {
    Think();
    SB_RETURN_IF_ERROR(Logon(in.customer, in));
    Think();
  }
  std::vector<int64_t> orders;
  S("customer_orders").BindInt(1, in.customer);
  SB_RETURN_IF_ERROR(
      Query(S("customer_orders"), [&](db::Statement& s) { orders.push_back(s.GetInt(0)); }));
  // The package writes only when the customer has two or more orders (count > 1) and draws
  // floor(dbms_random.value(1, count)): never the last one. The JDBC class writes with one
  // and draws any.
  const int64_t skip = LimitsOf(opts_.variant).min_rows_to_write - 1;
  const int64_t n_orders = static_cast<int64_t>(orders.size());
  if (n_orders == 0 || n_orders <= skip) return Status::Ok();
  const int64_t order = orders[static_cast<size_t>(in.pick_order % (n_orders - skip))];
  SB_RETURN_IF_ERROR(Begin());
  struct Line {
    int64_t id;
    std::string price;
  };
  std::vector<Line> lines;
  S("order_items_of").BindInt(1, order);
  S("order_items_of").BindInt(2, in.row_limit);
  SB_RETURN_IF_ERROR(Query(S("order_items_of"), [&](db::Statement& s) {
    lines.push_back({s.GetInt(0), MoneyText(CentsOf(s.GetDouble(2)))});
  }));
  if (!lines.empty()) {
    // The package's floor(dbms_random.value(1, n)) again (the only line when n is 1); the
    // JDBC class bumps the first line it reads.
    const int64_t n = static_cast<int64_t>(lines.size());
    const int64_t pick = jdbc() ? 0 : in.pick_line % std::max<int64_t>(1, n - skip);
    const Line& line = lines[static_cast<size_t>(pick)];
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

Status SoeSession::SimpleQuery(const char* name, int64_t key) {
  S(name).BindInt(1, key);
  SB_RETURN_IF_ERROR(Query(S(name), nullptr));
  if (!jdbc()) Think();  // the JDBC query classes never think
  return Status::Ok();
}

Result<std::unique_ptr<workload::Session>> NewSoeSession(
    std::unique_ptr<db::Connection> conn, const SoeOptions& opts,
    const std::map<std::string, std::string>& sql, uint64_t seed,
    std::shared_ptr<std::vector<std::atomic<int64_t>>> user_units) {
  auto mix = TxMix::FromWeights(opts.weights);
  if (!mix.ok()) return mix.status();
  auto s = std::make_unique<SoeSession>(std::move(conn), opts, *mix, seed, std::move(user_units));
  SB_RETURN_IF_ERROR(s->Prepare(sql));
  return std::unique_ptr<workload::Session>(std::move(s));
}

}  // namespace sb::soe
