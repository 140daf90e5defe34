// The five transactions of TPC-C revision 5.11 (clauses 2.4-2.8) as client SQL, one per unit of
// work. Inputs are drawn before a transaction starts, so a retry (deadlock, serialization
// failure) runs the same transaction again; a New-Order rolled back by its unused item is a
// completed transaction and is not retried (clause 2.4.1.4).
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/random.h"
#include "workload/tpcc/tpcc_workload.h"

namespace sb::tpcc {
namespace {

using workload::OpContext;

constexpr int64_t kUnusedItem = kItems + 1;  // the rolled-back New-Order's last item
// The SQLSTATE the New-Order procedure raises on the unused item (<dialect>/procedures.sql).
constexpr const char* kUnusedItemState = "SB002";

struct Line {
  int64_t number = 0;  // OL_NUMBER: the line's place in the order as entered
  int64_t item = 0;
  int64_t supply_w = 0;
  int64_t quantity = 0;
};

struct NewOrderIn {
  int64_t w = 0, d = 0, c = 0;
  bool all_local = true;
  std::vector<Line> lines;  // in (item, supply warehouse) order: STOCK rows locked in one order
};

struct CustomerChoice {
  bool by_name = false;
  std::string last;
  int64_t id = 0;
};

std::string Cents(int64_t cents) {
  std::string s;
  AppendCents(cents, &s);
  return s;
}

int64_t ToCents(double v) { return std::llround(v * 100); }

class TpccSession final : public workload::Session {
 public:
  TpccSession(std::unique_ptr<db::Connection> conn, std::map<std::string, std::string> sql,
              const TpccOptions& opts, const CConstants& run_c, uint64_t seed, int worker,
              const std::vector<TerminalState>* terminals,
              std::shared_ptr<DeliveryQueue> deliveries, std::shared_ptr<DeliveryLog> log)
      : terminals_(terminals),
        deliveries_(std::move(deliveries)),
        log_(std::move(log)),
        delivery_thread_(deliveries_ != nullptr && worker >= opts.threads),
        conn_(std::move(conn)),
        sql_(std::move(sql)),
        opts_(opts),
        c_(run_c),
        rng_(seed),
        mix_(opts.mix) {
    const int64_t w = opts_.warehouses;
    home_ = worker % w + 1;
    stock_level_district_ = (worker / w) % kDistrictsPerWarehouse + 1;
    if (hammerdb()) {
      // HammerDB draws each virtual user's warehouse and Stock-Level district once, uniformly.
      home_ = rng_.Uniform(1, w);
      stock_level_district_ = rng_.Uniform(1, kDistrictsPerWarehouse);
    }
    if (opts_.all_warehouses) {
      for (int64_t h = worker % opts_.threads + 1; h <= w; h += opts_.threads) owned_.push_back(h);
      if (owned_.empty()) owned_.push_back(home_);  // more workers than warehouses
    }
  }

  Status Prepare() {
    for (const auto& [name, text] : sql_) {
      auto stmt = conn_->Prepare(text);
      if (!stmt.ok()) return stmt.status();
      stmts_[name] = std::move(stmt).value();
    }
    return Status::Ok();
  }

  Status RunUnit(OpContext& ctx) override {
    if (delivery_thread_) return RunDeferredDelivery(ctx);
    TxnType t = opts_.only_type >= 0 ? static_cast<TxnType>(opts_.only_type) : mix_.Next(rng_);
    int64_t w =
        owned_.empty() ? home_ : owned_[rng_.Uniform(0, static_cast<int64_t>(owned_.size()) - 1)];
    if (terminals_ != nullptr) {
      // The terminal this unit runs for chose its transaction when it began keying it; the
      // driver hands each terminal to one worker at a time.
      const int64_t term = ctx.terminal();
      if (term < 0 || term >= static_cast<int64_t>(terminals_->size())) {
        return Status::Internal("a keying-and-thinking unit without its terminal");
      }
      const TerminalState& ts = (*terminals_)[static_cast<size_t>(term)];
      t = ts.next;
      w = ts.home;
      stock_level_district_ = ts.district;
    }
    switch (t) {
      case kNewOrder:
        return RunNewOrder(ctx, w);
      case kPayment:
        return RunPayment(ctx, w);
      case kOrderStatus:
        return RunOrderStatus(ctx, w);
      case kDelivery:
        return RunDelivery(ctx, w);
      case kStockLevel:
        return RunStockLevel(ctx, w);
      default:
        return Status::Internal("unknown transaction type");
    }
  }

 private:
  db::Statement& S(const char* name) { return *stmts_.at(name); }
  bool hammerdb() const { return opts_.profile == Profile::kHammerDb; }
  // A customer id: NURand(1023) (clause 2.1.6), or uniform as HammerDB draws it.
  int64_t CustomerId() {
    return hammerdb() ? rng_.Uniform(1, kCustomersPerDistrict)
                      : NURand(rng_, 1023, 1, kCustomersPerDistrict, c_.c_id);
  }

  // A warehouse other than `w`, uniformly (clause 2.4.1.5, 2.5.1.2); `w` itself when W = 1.
  int64_t Remote(int64_t w) {
    if (opts_.warehouses == 1) return w;
    const int64_t r = rng_.Uniform(1, opts_.warehouses - 1);
    return r >= w ? r + 1 : r;
  }

  CustomerChoice ChooseCustomer() {
    CustomerChoice c;
    if (rng_.Uniform(1, 100) <= 60) {
      c.by_name = true;
      c.last = LastName(NURand(rng_, 255, 0, 999, c_.c_last));
    } else {
      c.id = CustomerId();
    }
    return c;
  }

  // Executes `st` and reads its first row into `row` (false: no row); the rest is discarded.
  Status First(db::Statement& st, bool* row) {
    SB_RETURN_IF_ERROR(st.Execute());
    *row = st.Next();
    return st.status();
  }
  Status Done(db::Statement& st) { return st.DiscardRows(); }

  // The customer id of a by-name choice: the row at ceil(n / 2), 1-based, of those with that
  // last name in first-name order (clause 2.5.2.2).
  Status ResolveCustomer(int64_t w, int64_t d, CustomerChoice* c) {
    if (!c->by_name) return Status::Ok();
    db::Statement& q = S("customer_by_name");
    q.BindInt(1, w);
    q.BindInt(2, d);
    q.BindText(3, c->last);
    SB_RETURN_IF_ERROR(q.Execute());
    std::vector<int64_t> ids;
    while (q.Next()) ids.push_back(q.GetInt(0));
    SB_RETURN_IF_ERROR(q.status());
    if (ids.empty()) {
      return Status::DbError("no customer named " + c->last + " in warehouse " + std::to_string(w) +
                             " district " + std::to_string(d));
    }
    c->id = ids[(ids.size() + 1) / 2 - 1];
    return Status::Ok();
  }

  // --profile=hammerdb with procedures: each transaction is one call that is its own
  // transaction (a PostgreSQL function in autocommit; MariaDB's _txn procedures commit inside),
  // one round trip as HammerDB's, with no BEGIN or COMMIT from the client.
  bool one_call() const { return opts_.procedures && hammerdb(); }

  // Runs `body` in a transaction; rolls back when it fails. With one_call(), `body` is one call
  // that is a transaction of its own.
  Status InTransaction(bool write, const std::function<Status()>& body) {
    if (one_call()) return body();
    SB_RETURN_IF_ERROR(conn_->Begin(write));
    Status s = body();
    if (!s.ok()) {
      conn_->Rollback().IgnoreError();
      return s;
    }
    return conn_->Commit();
  }

  // ---- New-Order (clause 2.4) ----
  Status RunNewOrder(OpContext& ctx, int64_t w) {
    NewOrderIn in;
    in.w = w;
    in.d = rng_.Uniform(1, kDistrictsPerWarehouse);
    in.c = CustomerId();
    const int64_t ol_cnt = rng_.Uniform(5, 15);
    const bool rollback = rng_.Uniform(1, 100) == 1;
    for (int64_t n = 1; n <= ol_cnt; ++n) {
      Line l;
      l.number = n;
      l.item = rollback && n == ol_cnt ? kUnusedItem
               : hammerdb()            ? rng_.Uniform(1, kItems)
                                       : NURand(rng_, 8191, 1, kItems, c_.ol_i_id);
      l.supply_w = rng_.Uniform(1, 100) == 1 ? Remote(w) : w;
      l.quantity = rng_.Uniform(1, 10);
      if (l.supply_w != w) in.all_local = false;
      in.lines.push_back(l);
    }
    // The unused item (100001) sorts last, so every valid line is processed before it.
    std::sort(in.lines.begin(), in.lines.end(), [](const Line& a, const Line& b) {
      return a.item != b.item ? a.item < b.item : a.supply_w < b.supply_w;
    });
    bool rolled_back = false;
    workload::StepOutcome out = ctx.Timed([&] { return NewOrder(in, &rolled_back); });
    if (!out.status.ok()) {
      // Counted even though the unit is abandoned: the order may be in the database.
      if (new_order_in_doubt_) ctx.CountNow(kNewOrdersInDoubt, 1);
      return out.status;
    }
    ctx.RecordStep(kNewOrder, out.elapsed_nanos, /*add_to_unit=*/true);
    if (rolled_back) {
      ctx.Count(kRollbacks, 1);
    } else {
      int64_t remote = 0;
      for (const Line& l : in.lines) remote += l.supply_w != w ? 1 : 0;
      // The HammerDB-like procedure drew its lines itself and told how many were remote.
      if (opts_.procedures && hammerdb()) remote = called_remote_lines_;
      ctx.Count(kOrderLines, static_cast<int64_t>(in.lines.size()));
      ctx.Count(kRemoteLines, remote);
    }
    return Status::Ok();
  }

  // --sql_mode=procedures: one call per transaction, in the client's transaction.
  static std::string IntArray(const std::vector<Line>& lines, int64_t Line::*field) {
    std::string s = "{";
    for (const Line& l : lines) {
      if (s.size() > 1) s += ',';
      s += std::to_string(l.*field);
    }
    return s + "}";
  }
  Status CallForInt(db::Statement& call, int64_t* out) {
    bool row = false;
    SB_RETURN_IF_ERROR(First(call, &row));
    *out = row && !call.IsNull(0) ? call.GetInt(0) : 0;
    return Done(call);
  }

  Status NewOrderCall(const NewOrderIn& in, bool* rolled_back) {
    if (hammerdb()) return HammerDbNewOrderCall(in, rolled_back);
    db::Statement& call = S("call_new_order");
    call.BindInt(1, in.w);
    call.BindInt(2, in.d);
    call.BindInt(3, in.c);
    call.BindInt(4, in.all_local ? 1 : 0);
    call.BindText(5, IntArray(in.lines, &Line::number));
    call.BindText(6, IntArray(in.lines, &Line::item));
    call.BindText(7, IntArray(in.lines, &Line::supply_w));
    call.BindText(8, IntArray(in.lines, &Line::quantity));
    SB_RETURN_IF_ERROR(conn_->Begin(/*write=*/true));
    int64_t o_id = 0;
    Status s = CallForInt(call, &o_id);
    if (!s.ok()) {
      conn_->Rollback().IgnoreError();
      if (s.sqlstate() == kUnusedItemState) {
        *rolled_back = true;
        return Status::Ok();
      }
      return s;
    }
    return CommitNewOrder();
  }

  // --profile=hammerdb: HammerDB's NEWORD way, the procedure drawing the lines itself from
  // the line count (procedures.sql, tpcc_hammerdb_new_order); it returns its remote lines. One
  // call, its own transaction, as HammerDB's (one_call()).
  Status HammerDbNewOrderCall(const NewOrderIn& in, bool* rolled_back) {
    db::Statement& call = S("call_hammerdb_new_order");
    call.BindInt(1, in.w);
    call.BindInt(2, opts_.warehouses);
    call.BindInt(3, in.d);
    call.BindInt(4, in.c);
    call.BindInt(5, static_cast<int64_t>(in.lines.size()));
    // One call, its own transaction (one_call()): the server rolled back whatever failed.
    Status s = CallForInt(call, &called_remote_lines_);
    if (s.sqlstate() == kUnusedItemState) {
      *rolled_back = true;
      return Status::Ok();
    }
    // A call that lost its connection may have committed, as a lost COMMIT may have.
    new_order_in_doubt_ = workload::CommitInDoubt(s);
    return s;
  }

  // The New-Order's COMMIT; notes whether its outcome is unknown (workload::CommitInDoubt).
  Status CommitNewOrder() {
    Status s = conn_->Commit();
    new_order_in_doubt_ = workload::CommitInDoubt(s);
    return s;
  }

  Status NewOrder(const NewOrderIn& in, bool* rolled_back) {
    *rolled_back = false;
    new_order_in_doubt_ = false;
    if (opts_.procedures) return NewOrderCall(in, rolled_back);
    SB_RETURN_IF_ERROR(conn_->Begin(/*write=*/true));
    auto fail = [&](Status s) {
      conn_->Rollback().IgnoreError();
      return s;
    };
    bool row = false;
    db::Statement& wh = S("no_warehouse");
    wh.BindInt(1, in.w);
    if (Status s = First(wh, &row); !s.ok()) return fail(s);
    if (Status s = Done(wh); !s.ok()) return fail(s);
    db::Statement& cu = S("no_customer");
    cu.BindInt(1, in.w);
    cu.BindInt(2, in.d);
    cu.BindInt(3, in.c);
    if (Status s = First(cu, &row); !s.ok()) return fail(s);
    if (Status s = Done(cu); !s.ok()) return fail(s);
    db::Statement& di = S("no_district");
    di.BindInt(1, in.w);
    di.BindInt(2, in.d);
    if (Status s = First(di, &row); !s.ok()) return fail(s);
    if (!row) return fail(Status::DbError("district " + std::to_string(in.d) + " missing"));
    const int64_t o_id = di.GetInt(0);
    if (Status s = Done(di); !s.ok()) return fail(s);
    db::Statement& du = S("no_district_update");
    du.BindInt(1, o_id + 1);
    du.BindInt(2, in.w);
    du.BindInt(3, in.d);
    if (Status s = du.Execute(); !s.ok()) return fail(s);
    db::Statement& io = S("no_insert_order");
    io.BindInt(1, o_id);
    io.BindInt(2, in.d);
    io.BindInt(3, in.w);
    io.BindInt(4, in.c);
    io.BindInt(5, static_cast<int64_t>(in.lines.size()));
    io.BindInt(6, in.all_local ? 1 : 0);
    if (Status s = io.Execute(); !s.ok()) return fail(s);
    db::Statement& ino = S("no_insert_new_order");
    ino.BindInt(1, o_id);
    ino.BindInt(2, in.d);
    ino.BindInt(3, in.w);
    if (Status s = ino.Execute(); !s.ok()) return fail(s);
    db::Statement& item = S("no_item");
    db::Statement& stock = S("no_stock");
    db::Statement& su = S("no_stock_update");
    db::Statement& iol = S("no_insert_order_line");
    for (const Line& l : in.lines) {
      item.BindInt(1, l.item);
      if (Status s = First(item, &row); !s.ok()) return fail(s);
      if (!row && opts_.unused_item_commits) {
        // HammerDB's PostgreSQL NEWORD: the order commits with this line, which has no price
        // and no STOCK row (amount 0 here, where the column takes no NULL).
        if (Status s = Done(item); !s.ok()) return fail(s);
        iol.BindInt(1, o_id);
        iol.BindInt(2, in.d);
        iol.BindInt(3, in.w);
        iol.BindInt(4, l.number);
        iol.BindInt(5, l.item);
        iol.BindInt(6, l.supply_w);
        iol.BindInt(7, l.quantity);
        iol.BindText(8, Cents(0));
        iol.BindText(9, "");
        if (Status s = iol.Execute(); !s.ok()) return fail(s);
        continue;
      }
      if (!row) {
        // The unused item: the whole order rolls back (clause 2.4.2.3).
        conn_->Rollback().IgnoreError();
        *rolled_back = true;
        return Status::Ok();
      }
      const int64_t price = ToCents(item.GetDouble(0));
      if (Status s = Done(item); !s.ok()) return fail(s);
      stock.BindInt(1, l.item);
      stock.BindInt(2, l.supply_w);
      if (Status s = First(stock, &row); !s.ok()) return fail(s);
      if (!row) return fail(Status::DbError("no STOCK row for item " + std::to_string(l.item)));
      const int64_t qty = stock.GetInt(0);
      const std::string dist(stock.GetText(1 + in.d));
      if (Status s = Done(stock); !s.ok()) return fail(s);
      const int64_t left = qty - l.quantity;
      su.BindInt(1, left >= 10 ? left : left + 91);
      su.BindInt(2, l.quantity);
      su.BindInt(3, l.supply_w != in.w ? 1 : 0);
      su.BindInt(4, l.item);
      su.BindInt(5, l.supply_w);
      if (Status s = su.Execute(); !s.ok()) return fail(s);
      iol.BindInt(1, o_id);
      iol.BindInt(2, in.d);
      iol.BindInt(3, in.w);
      iol.BindInt(4, l.number);
      iol.BindInt(5, l.item);
      iol.BindInt(6, l.supply_w);
      iol.BindInt(7, l.quantity);
      iol.BindText(8, Cents(l.quantity * price));
      iol.BindText(9, dist);
      if (Status s = iol.Execute(); !s.ok()) return fail(s);
    }
    return CommitNewOrder();
  }

  // ---- Payment (clause 2.5) ----
  Status RunPayment(OpContext& ctx, int64_t w) {
    const int64_t d = rng_.Uniform(1, kDistrictsPerWarehouse);
    int64_t c_w = w, c_d = d;
    if (opts_.warehouses > 1 && rng_.Uniform(1, 100) > 85) {
      c_w = Remote(w);
      c_d = rng_.Uniform(1, kDistrictsPerWarehouse);
    }
    CustomerChoice cust = ChooseCustomer();
    // [1.00..5,000.00]; HammerDB's are whole dollars.
    const int64_t amount = hammerdb() ? 100 * rng_.Uniform(1, 5000) : rng_.Uniform(100, 500000);
    workload::StepOutcome out = ctx.Timed([&] {
      return InTransaction(true, [&] { return Payment(w, d, c_w, c_d, &cust, amount); });
    });
    if (!out.status.ok()) return out.status;
    ctx.RecordStep(kPayment, out.elapsed_nanos, /*add_to_unit=*/true);
    if (cust.by_name) ctx.Count(kPaymentsByName, 1);
    if (c_w != w) ctx.Count(kRemotePayments, 1);
    return Status::Ok();
  }

  Status Payment(int64_t w, int64_t d, int64_t c_w, int64_t c_d, CustomerChoice* cust,
                 int64_t amount) {
    const std::string amt = Cents(amount);
    if (opts_.procedures) {
      db::Statement& call = S("call_payment");
      call.BindInt(1, w);
      call.BindInt(2, d);
      call.BindInt(3, c_w);
      call.BindInt(4, c_d);
      call.BindInt(5, cust->by_name ? 0 : cust->id);
      call.BindText(6, cust->last);
      call.BindText(7, amt);
      return CallForInt(call, &cust->id);
    }
    bool row = false;
    db::Statement& wu = S("pay_warehouse_update");
    wu.BindText(1, amt);
    wu.BindInt(2, w);
    SB_RETURN_IF_ERROR(wu.Execute());
    db::Statement& wh = S("pay_warehouse");
    wh.BindInt(1, w);
    SB_RETURN_IF_ERROR(First(wh, &row));
    const std::string w_name = row ? std::string(wh.GetText(0)) : "";
    SB_RETURN_IF_ERROR(Done(wh));
    db::Statement& du = S("pay_district_update");
    du.BindText(1, amt);
    du.BindInt(2, w);
    du.BindInt(3, d);
    SB_RETURN_IF_ERROR(du.Execute());
    db::Statement& di = S("pay_district");
    di.BindInt(1, w);
    di.BindInt(2, d);
    SB_RETURN_IF_ERROR(First(di, &row));
    const std::string d_name = row ? std::string(di.GetText(0)) : "";
    SB_RETURN_IF_ERROR(Done(di));
    SB_RETURN_IF_ERROR(ResolveCustomer(c_w, c_d, cust));
    db::Statement& cu = S("pay_customer");
    cu.BindInt(1, c_w);
    cu.BindInt(2, c_d);
    cu.BindInt(3, cust->id);
    SB_RETURN_IF_ERROR(First(cu, &row));
    if (!row) return Status::DbError("customer " + std::to_string(cust->id) + " missing");
    const bool bad_credit = cu.GetText(10) == "BC";
    SB_RETURN_IF_ERROR(Done(cu));
    if (bad_credit) {
      db::Statement& cd = S("pay_customer_data");
      cd.BindInt(1, c_w);
      cd.BindInt(2, c_d);
      cd.BindInt(3, cust->id);
      SB_RETURN_IF_ERROR(First(cd, &row));
      std::string data = std::to_string(cust->id) + " " + std::to_string(c_d) + " " +
                         std::to_string(c_w) + " " + std::to_string(d) + " " + std::to_string(w) +
                         " " + amt + " | ";
      if (row) data += cd.GetText(0);
      SB_RETURN_IF_ERROR(Done(cd));
      if (data.size() > 500) data.resize(500);
      db::Statement& up = S("pay_customer_update_bc");
      up.BindText(1, amt);
      up.BindText(2, amt);
      up.BindText(3, data);
      up.BindInt(4, c_w);
      up.BindInt(5, c_d);
      up.BindInt(6, cust->id);
      SB_RETURN_IF_ERROR(up.Execute());
    } else {
      db::Statement& up = S("pay_customer_update");
      up.BindText(1, amt);
      up.BindText(2, amt);
      up.BindInt(3, c_w);
      up.BindInt(4, c_d);
      up.BindInt(5, cust->id);
      SB_RETURN_IF_ERROR(up.Execute());
    }
    db::Statement& h = S("pay_insert_history");
    h.BindInt(1, cust->id);
    h.BindInt(2, c_d);
    h.BindInt(3, c_w);
    h.BindInt(4, d);
    h.BindInt(5, w);
    h.BindText(6, amt);
    h.BindText(7, w_name + "    " + d_name);
    return h.Execute();
  }

  // ---- Order-Status (clause 2.6) ----
  Status RunOrderStatus(OpContext& ctx, int64_t w) {
    const int64_t d = rng_.Uniform(1, kDistrictsPerWarehouse);
    CustomerChoice cust = ChooseCustomer();
    workload::StepOutcome out =
        ctx.Timed([&] { return InTransaction(false, [&] { return OrderStatus(w, d, &cust); }); });
    if (!out.status.ok()) return out.status;
    ctx.RecordStep(kOrderStatus, out.elapsed_nanos, /*add_to_unit=*/true);
    if (cust.by_name) ctx.Count(kOrderStatusByName, 1);
    return Status::Ok();
  }

  Status OrderStatus(int64_t w, int64_t d, CustomerChoice* cust) {
    if (opts_.procedures) {
      db::Statement& call = S("call_order_status");
      call.BindInt(1, w);
      call.BindInt(2, d);
      call.BindInt(3, cust->by_name ? 0 : cust->id);
      call.BindText(4, cust->last);
      int64_t lines = 0;
      return CallForInt(call, &lines);
    }
    SB_RETURN_IF_ERROR(ResolveCustomer(w, d, cust));
    bool row = false;
    db::Statement& cu = S("os_customer");
    cu.BindInt(1, w);
    cu.BindInt(2, d);
    cu.BindInt(3, cust->id);
    SB_RETURN_IF_ERROR(First(cu, &row));
    SB_RETURN_IF_ERROR(Done(cu));
    db::Statement& o = S("os_last_order");
    o.BindInt(1, w);
    o.BindInt(2, d);
    o.BindInt(3, cust->id);
    SB_RETURN_IF_ERROR(First(o, &row));
    if (!row) return Done(o);
    const int64_t o_id = o.GetInt(0);
    SB_RETURN_IF_ERROR(Done(o));
    db::Statement& l = S("os_order_lines");
    l.BindInt(1, w);
    l.BindInt(2, d);
    l.BindInt(3, o_id);
    SB_RETURN_IF_ERROR(l.Execute());
    return Done(l);
  }

  // ---- Delivery (clause 2.7): one transaction for the 10 districts, in line or deferred ----
  Status RunDelivery(OpContext& ctx, int64_t w) {
    const int64_t carrier = rng_.Uniform(1, 10);
    if (deliveries_ != nullptr) {
      // Deferred (clause 2.7.2): the terminal's transaction is the queuing.
      workload::StepOutcome out = ctx.Timed([&] {
        deliveries_->Push({w, carrier, DeliveryQueue::Now(), UnixNanosNow()});
        return Status::Ok();
      });
      ctx.RecordStep(kDelivery, out.elapsed_nanos, /*add_to_unit=*/true);
      return Status::Ok();
    }
    DeliveredOrders orders{};
    workload::StepOutcome out = ctx.Timed(
        [&] { return InTransaction(true, [&] { return Delivery(w, carrier, &orders); }); });
    if (!out.status.ok()) return out.status;
    ctx.RecordStep(kDelivery, out.elapsed_nanos, /*add_to_unit=*/true);
    CountDelivered(ctx, orders);
    return Status::Ok();
  }

  // The delivered orders, the skipped districts and whether any was skipped (clause 2.7.4).
  static void CountDelivered(OpContext& ctx, const DeliveredOrders& orders) {
    int64_t delivered = 0;
    for (int64_t o : orders) delivered += o != 0 ? 1 : 0;
    ctx.Count(kDeliveredOrders, delivered);
    ctx.Count(kSkippedDistricts, kDistrictsPerWarehouse - delivered);
    if (delivered < kDistrictsPerWarehouse) ctx.Count(kDeliveriesWithSkips, 1);
  }

  // The delivery thread: runs the oldest queued Delivery, or waits a tenth of a second for one.
  // A request whose transaction fails goes back to the queue's front (the driver has retried
  // deadlocks already; a lost connection is reconnected and the request runs again).
  Status RunDeferredDelivery(OpContext& ctx) {
    DeliveryRequest r;
    if (!deliveries_->Pop(&r, kNanosPerSecond / 10)) return Status::Ok();
    DeliveredOrders orders{};
    workload::StepOutcome out = ctx.Timed(
        [&] { return InTransaction(true, [&] { return Delivery(r.w, r.carrier, &orders); }); });
    if (!out.status.ok()) {
      deliveries_->PushFront(r);
      return out.status;
    }
    ctx.RecordStep(kDeferredDeliveryStep, DeliveryQueue::Now() - r.queued_nanos,
                   /*add_to_unit=*/false);
    CountDelivered(ctx, orders);
    // The result file's line (clause 2.7.2.2), after the commit. A failed write ends the
    // delivery thread; the request is not queued again, since its transaction committed.
    if (log_ != nullptr) {
      return log_->Write({r.queued_unix_nanos, UnixNanosNow(), r.w, r.carrier, orders});
    }
    return Status::Ok();
  }

  // Fills `orders` with the O_ID delivered in each district, 0 for a skipped one. The stored
  // procedure returns only how many it delivered: that many districts get the placeholder
  // O_ID -1 (--delivery_log, which needs the O_IDs, is refused with procedures).
  Status Delivery(int64_t w, int64_t carrier, DeliveredOrders* orders) {
    orders->fill(0);
    if (opts_.procedures) {
      db::Statement& call = S("call_delivery");
      call.BindInt(1, w);
      call.BindInt(2, carrier);
      int64_t delivered = 0;
      SB_RETURN_IF_ERROR(CallForInt(call, &delivered));
      for (int64_t d = 0; d < delivered && d < kDistrictsPerWarehouse; ++d) {
        (*orders)[static_cast<size_t>(d)] = -1;
      }
      return Status::Ok();
    }
    bool row = false;
    for (int64_t d = 1; d <= kDistrictsPerWarehouse; ++d) {
      db::Statement& oldest = S("dl_oldest_new_order");
      oldest.BindInt(1, w);
      oldest.BindInt(2, d);
      SB_RETURN_IF_ERROR(First(oldest, &row));
      if (!row) {
        SB_RETURN_IF_ERROR(Done(oldest));
        continue;  // no undelivered order in this district: skipped (clause 2.7.4.2)
      }
      const int64_t o_id = oldest.GetInt(0);
      SB_RETURN_IF_ERROR(Done(oldest));
      db::Statement& del = S("dl_delete_new_order");
      del.BindInt(1, w);
      del.BindInt(2, d);
      del.BindInt(3, o_id);
      SB_RETURN_IF_ERROR(del.Execute());
      if (del.RowsAffected() == 0) continue;  // delivered by another transaction meanwhile
      db::Statement& oc = S("dl_order_customer");
      oc.BindInt(1, w);
      oc.BindInt(2, d);
      oc.BindInt(3, o_id);
      SB_RETURN_IF_ERROR(First(oc, &row));
      if (!row) return Status::DbError("order " + std::to_string(o_id) + " missing");
      const int64_t c = oc.GetInt(0);
      SB_RETURN_IF_ERROR(Done(oc));
      db::Statement& uo = S("dl_update_order");
      uo.BindInt(1, carrier);
      uo.BindInt(2, w);
      uo.BindInt(3, d);
      uo.BindInt(4, o_id);
      SB_RETURN_IF_ERROR(uo.Execute());
      db::Statement& ul = S("dl_update_order_lines");
      ul.BindInt(1, w);
      ul.BindInt(2, d);
      ul.BindInt(3, o_id);
      SB_RETURN_IF_ERROR(ul.Execute());
      db::Statement& uc = S("dl_update_customer");
      uc.BindInt(1, w);
      uc.BindInt(2, d);
      uc.BindInt(3, o_id);
      uc.BindInt(4, w);
      uc.BindInt(5, d);
      uc.BindInt(6, c);
      SB_RETURN_IF_ERROR(uc.Execute());
      (*orders)[static_cast<size_t>(d - 1)] = o_id;
    }
    return Status::Ok();
  }

  // ---- Stock-Level (clause 2.8): the worker's own district ----
  Status RunStockLevel(OpContext& ctx, int64_t w) {
    const int64_t threshold = rng_.Uniform(10, 20);
    const int64_t d = stock_level_district_;
    workload::StepOutcome out = ctx.Timed([&] {
      return InTransaction(false, [&] {
        if (opts_.procedures) {
          db::Statement& call = S("call_stock_level");
          call.BindInt(1, w);
          call.BindInt(2, d);
          call.BindInt(3, threshold);
          int64_t low = 0;
          return CallForInt(call, &low);
        }
        bool row = false;
        db::Statement& di = S("sl_district");
        di.BindInt(1, w);
        di.BindInt(2, d);
        SB_RETURN_IF_ERROR(First(di, &row));
        const int64_t next = row ? di.GetInt(0) : 0;
        SB_RETURN_IF_ERROR(Done(di));
        db::Statement& low = S("sl_low_stock");
        low.BindInt(1, w);
        low.BindInt(2, d);
        low.BindInt(3, next);
        low.BindInt(4, next - 20);
        low.BindInt(5, w);
        low.BindInt(6, threshold);
        SB_RETURN_IF_ERROR(low.Execute());
        return Done(low);
      });
    });
    if (!out.status.ok()) return out.status;
    ctx.RecordStep(kStockLevel, out.elapsed_nanos, /*add_to_unit=*/true);
    return Status::Ok();
  }

  const std::vector<TerminalState>* terminals_;  // --keying_and_thinking, else null
  std::shared_ptr<DeliveryQueue> deliveries_;    // --delivery=deferred, else null
  std::shared_ptr<DeliveryLog> log_;             // --delivery_log, else null
  const bool delivery_thread_;                   // this session runs the queued Deliveries
  std::unique_ptr<db::Connection> conn_;
  std::map<std::string, std::string> sql_;
  std::map<std::string, std::unique_ptr<db::Statement>> stmts_;
  TpccOptions opts_;
  CConstants c_;
  Random rng_;
  Mix mix_;
  int64_t home_ = 1;
  int64_t stock_level_district_ = 1;
  std::vector<int64_t> owned_;       // all_warehouses: the warehouses this worker picks from
  bool new_order_in_doubt_ = false;  // the last New-Order's COMMIT lost its connection
  int64_t called_remote_lines_ = 0;  // what tpcc_hammerdb_new_order returned last
};

}  // namespace

Result<std::unique_ptr<workload::Session>> NewTpccSession(
    std::unique_ptr<db::Connection> conn, std::map<std::string, std::string> sql,
    const TpccOptions& opts, const CConstants& run_c, uint64_t seed, int worker,
    const std::vector<TerminalState>* terminals, std::shared_ptr<DeliveryQueue> deliveries,
    std::shared_ptr<DeliveryLog> log) {
  auto s = std::make_unique<TpccSession>(std::move(conn), std::move(sql), opts, run_c, seed, worker,
                                         terminals, std::move(deliveries), std::move(log));
  SB_RETURN_IF_ERROR(s->Prepare());
  return std::unique_ptr<workload::Session>(std::move(s));
}

}  // namespace sb::tpcc
