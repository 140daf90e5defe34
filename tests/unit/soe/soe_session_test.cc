// The Order Entry transactions on real databases (SQLite file; PostgreSQL and MariaDB servers of
// scripts/services.sh, database sbtest_soe): each transaction's effect on the tables, verify
// after them, and the think times on a fake clock (counted in or out of response times).
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "base/clock.h"
#include "config/options.h"
#include "unit/conformance/commit_then_lose.h"
#include "unit/conformance/engines.h"
#include "unit/workload/test_op_context.h"
#include "workload/soe/soe_workload.h"
#include "workload/store_meta.h"

namespace sb::soe {
namespace {

using conformance::Engine;

int64_t Count(db::Connection& c, const std::string& sql) {
  auto st = c.Prepare(sql);
  EXPECT_TRUE(st.ok()) << sql;
  if (!st.ok()) return -1;
  EXPECT_TRUE((*st)->Execute().ok()) << sql;
  const int64_t n = (*st)->Next() ? (*st)->GetInt(0) : -1;
  (*st)->Reset();
  return n;
}

// (order_id, status, total in cents, customer) of every order.
std::vector<std::tuple<int64_t, int64_t, int64_t, int64_t>> Orders(db::Connection& c) {
  std::vector<std::tuple<int64_t, int64_t, int64_t, int64_t>> out;
  auto st = c.Prepare(
      "SELECT order_id, order_status, order_total, customer_id FROM orders ORDER BY order_id");
  EXPECT_TRUE(st.ok());
  EXPECT_TRUE((*st)->Execute().ok());
  while ((*st)->Next()) {
    out.emplace_back((*st)->GetInt(0), (*st)->GetInt(1),
                     static_cast<int64_t>((*st)->GetDouble(2) * 100 + 0.5), (*st)->GetInt(3));
  }
  return out;
}

// Every row of the tables a transaction writes, one text line per row in key order, without the
// columns that hold the time of day or today's date (they differ between two runs).
std::vector<std::string> TableRows(db::Connection& c) {
  const char* const kQueries[] = {
      "SELECT customer_id, cust_first_name, cust_last_name, nls_language, nls_territory, "
      "credit_limit, cust_email, account_mgr_id, customer_class, preferred_address, "
      "preferred_card FROM customers ORDER BY customer_id",
      "SELECT address_id, customer_id, house_no_or_name, town, county, country FROM addresses "
      "ORDER BY address_id",
      "SELECT card_id, customer_id, card_number, security_code FROM card_details ORDER BY card_id",
      "SELECT order_id, order_mode, customer_id, order_status, order_total, sales_rep_id, "
      "warehouse_id, cost_of_delivery, delivery_address_id, customer_class, card_id, "
      "invoice_address_id FROM orders ORDER BY order_id",
      "SELECT order_id, line_item_id, product_id, unit_price, quantity FROM order_items "
      "ORDER BY order_id, line_item_id",
      "SELECT product_id, warehouse_id, quantity_on_hand FROM inventories "
      "ORDER BY product_id, warehouse_id",
      "SELECT logon_id, customer_id FROM logon ORDER BY logon_id"};
  std::vector<std::string> rows;
  for (const char* q : kQueries) {
    auto st = c.Prepare(q);
    EXPECT_TRUE(st.ok()) << q;
    if (!st.ok()) continue;
    EXPECT_TRUE((*st)->Execute().ok()) << q;
    const std::string table = std::strstr(q, " FROM ") + 6;
    int ncols = 1;
    for (const char* p = q; p < std::strstr(q, " FROM "); ++p) ncols += *p == ',' ? 1 : 0;
    while ((*st)->Next()) {
      std::string line = table.substr(0, table.find(' ')) + ":";
      for (int i = 0; i < ncols; ++i) {
        line += (*st)->IsNull(i) ? std::string("NULL") : std::string((*st)->GetText(i));
        line += '|';
      }
      rows.push_back(std::move(line));
    }
  }
  return rows;
}

class SoeSessionTest : public ::testing::TestWithParam<Engine> {
 protected:
  void SetUp() override {
    std::string skip;
    conformance::OpenEngine(GetParam(), &backend_, &conn_, &skip);
    if (!skip.empty()) GTEST_SKIP() << skip;
    ASSERT_TRUE(conn_ != nullptr);
    // Tests that need no loaded database, or only one engine, say so before the load.
    const std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    if (test.rfind("ThinkTimes", 0) == 0 && GetParam().server) {
      GTEST_SKIP() << "the fake clock needs one engine only";
    }
    if (test.rfind("ARegistration", 0) == 0 && GetParam().server) {
      GTEST_SKIP() << "the lost commit is the client's: one engine shows it";
    }
    if (test.rfind("VerifyFinds", 0) == 0 && GetParam().server) {
      GTEST_SKIP() << "the checks are the same SQL on every engine: one engine shows them";
    }
    if (test.rfind("ProceduresOfAnEarlier", 0) == 0 && GetParam().server) {
      GTEST_SKIP() << "storebench_meta is read the same on every engine: one engine shows it";
    }
    if (test.rfind("ClientAndProcedure", 0) == 0 && !GetParam().server) {
      GTEST_SKIP() << "SQLite has no stored procedures";
    }
    if (test.rfind("QueryTimeout", 0) == 0) {
      if (!GetParam().server) GTEST_SKIP() << "SQLite has no statement timeout";
      return;
    }
    loader_ = Make({});
    workload::LoadContext ctx;
    ctx.threads = 2;
    ctx.force = true;
    ctx.seed = 5;
    const Status s = loader_->Load(*backend_, ctx);
    ASSERT_TRUE(s.ok()) << s.message();
  }

  // A workload at scale 0.001 with only `tx` enabled (all when -1) and extra options.
  std::unique_ptr<SoeWorkload> Make(std::vector<std::string> args, int tx = -1) {
    auto w = std::make_unique<SoeWorkload>();
    config::OptionSet o;
    w->DeclareOptions(&o);
    args.insert(args.end(), {"--soe_scale", "0.001"});
    for (int t = 0; t < kNumTx; ++t) {
      args.push_back(std::string("--") + InfoOf(t).option);
      args.push_back(tx < 0 || tx == t ? "1" : "0");
    }
    const Status parsed = config::ParseCommandLine(args, &o);
    EXPECT_TRUE(parsed.ok()) << parsed.message();
    EXPECT_TRUE(w->Configure(o).ok());
    w->UseDialect(backend_->dialect());
    return w;
  }

  struct Running {
    std::unique_ptr<SoeWorkload> workload;
    std::unique_ptr<workload::Session> session;
    workload::TestOpContext ctx{10};
  };
  std::unique_ptr<Running> Start(int tx, std::vector<std::string> args = {}) {
    auto r = std::make_unique<Running>();
    r->workload = Make(std::move(args), tx);
    EXPECT_TRUE(r->workload->CheckReady(*conn_).ok());
    auto c = backend_->Connect();
    EXPECT_TRUE(c.ok());
    auto s = r->workload->NewSession(std::move(c).value(), 11 + tx, 0);
    EXPECT_TRUE(s.ok()) << s.status().message();
    if (s.ok()) r->session = std::move(s).value();
    return r;
  }
  void RunUnits(Running& r, int n) {
    for (int i = 0; i < n; ++i) {
      const Status s = r.session->RunUnit(r.ctx);
      ASSERT_TRUE(s.ok()) << s.message();
    }
    EXPECT_EQ(r.ctx.counters()[kFailed], 0);
  }
  void ExpectModesLeaveIdenticalTables(const std::vector<std::string>& args);
  void ExpectVerifyPasses() {
    auto checks = loader_->Verify(*conn_, {}, nullptr);
    ASSERT_TRUE(checks.ok()) << checks.status().message();
    for (const auto& c : *checks) EXPECT_TRUE(c.passed) << c.name << ": " << c.detail;
  }

  std::unique_ptr<db::DbBackend> backend_;
  std::unique_ptr<db::Connection> conn_;
  std::unique_ptr<SoeWorkload> loader_;
};

TEST_P(SoeSessionTest, EachTransactionsEffect) {
  db::Connection& c = *conn_;
  ExpectVerifyPasses();
  {  // Customer Registration: a customer with an address and a card, and a logon.
    const int64_t cust = Count(c, "SELECT count(*) FROM customers");
    const int64_t addr = Count(c, "SELECT count(*) FROM addresses");
    const int64_t card = Count(c, "SELECT count(*) FROM card_details");
    const int64_t logon = Count(c, "SELECT count(*) FROM logon");
    auto r = Start(kNcr);
    RunUnits(*r, 2);
    EXPECT_EQ(Count(c, "SELECT count(*) FROM customers"), cust + 2);
    EXPECT_EQ(Count(c, "SELECT count(*) FROM addresses"), addr + 2);
    EXPECT_EQ(Count(c, "SELECT count(*) FROM card_details"), card + 2);
    // Package 2.1 writes a logon row one time in three: the counter says how many.
    EXPECT_EQ(Count(c, "SELECT count(*) FROM logon"), logon + r->ctx.counters()[kNewLogons]);
    EXPECT_LE(r->ctx.counters()[kNewLogons], 2);
    EXPECT_EQ(r->ctx.counters()[kNewCustomers], 2);
    // The new customer's preferred address and card are its own new rows.
    EXPECT_EQ(Count(c,
                    "SELECT count(*) FROM customers c JOIN addresses a ON a.address_id = "
                    "c.preferred_address AND a.customer_id = c.customer_id JOIN card_details "
                    "d ON d.card_id = c.preferred_card AND d.customer_id = c.customer_id "
                    "WHERE c.customer_id > 1000"),
              2);
  }
  {  // Order Products: an order adds its items and lowers inventory by as many.
    const int64_t orders = Count(c, "SELECT count(*) FROM orders");
    const int64_t items = Count(c, "SELECT count(*) FROM order_items");
    const int64_t stock = Count(c, "SELECT sum(quantity_on_hand) FROM inventories");
    auto r = Start(kOp);
    for (int i = 0; i < 200 && r->ctx.counters()[kNewOrders] < 3; ++i) RunUnits(*r, 1);
    ASSERT_GE(r->ctx.counters()[kNewOrders], 3);
    const int64_t new_items = Count(c, "SELECT count(*) FROM order_items") - items;
    EXPECT_EQ(Count(c, "SELECT count(*) FROM orders"), orders + r->ctx.counters()[kNewOrders]);
    EXPECT_GE(new_items, r->ctx.counters()[kNewOrders]);
    EXPECT_EQ(Count(c, "SELECT sum(quantity_on_hand) FROM inventories"), stock - new_items);
    ExpectVerifyPasses();
  }
  {  // Process Orders: one unprocessed order's status, nothing else.
    const auto before = Orders(c);
    auto r = Start(kPo);
    RunUnits(*r, 1);
    const auto after = Orders(c);
    ASSERT_EQ(before.size(), after.size());
    int changed = 0;
    for (size_t i = 0; i < before.size(); ++i) {
      if (before[i] == after[i]) continue;
      ++changed;
      EXPECT_LE(std::get<1>(before[i]), 4);
      EXPECT_GE(std::get<1>(after[i]), 5);
      EXPECT_LE(std::get<1>(after[i]), 9);
      EXPECT_EQ(std::get<0>(before[i]), std::get<0>(after[i]));
      EXPECT_EQ(std::get<2>(before[i]), std::get<2>(after[i]));
      EXPECT_EQ(std::get<3>(before[i]), std::get<3>(after[i]));
    }
    EXPECT_EQ(changed, 1);
  }
  {  // Browse And Update Orders: one item's quantity up by one, its order's total with it.
    const int64_t qty = Count(c, "SELECT sum(quantity) FROM order_items");
    auto r = Start(kBo);
    for (int i = 0; i < 50 && r->ctx.counters()[kUpdates] == 0; ++i) RunUnits(*r, 1);
    ASSERT_EQ(r->ctx.counters()[kUpdates], 2);
    EXPECT_EQ(Count(c, "SELECT sum(quantity) FROM order_items"), qty + 1);
    ExpectVerifyPasses();
  }
  {  // Update Customer Details: a new address becomes a found customer's preferred one.
    const int64_t addr = Count(c, "SELECT count(*) FROM addresses");
    auto r = Start(kUcd);
    for (int i = 0; i < 200 && r->ctx.counters()[kUpdates] == 0; ++i) RunUnits(*r, 1);
    ASSERT_EQ(r->ctx.counters()[kUpdates], 1);
    EXPECT_EQ(Count(c, "SELECT count(*) FROM addresses"), addr + 1);
    EXPECT_EQ(Count(c,
                    "SELECT count(*) FROM customers WHERE preferred_address = "
                    "(SELECT max(address_id) FROM addresses)"),
              1);
  }
  {  // The read-only transactions change nothing but LOGON (Browse Products logs on).
    const auto before = Orders(c);
    const int64_t items = Count(c, "SELECT sum(quantity) FROM order_items");
    const int64_t logon = Count(c, "SELECT count(*) FROM logon");
    int64_t logons = 0;
    for (int tx : {kBp, kSq, kWq, kWa}) {
      auto r = Start(tx);
      RunUnits(*r, 3);
      EXPECT_EQ(r->ctx.steps().size(), 3u) << InfoOf(tx).short_name;
      EXPECT_EQ(r->ctx.counters()[kInserts], r->ctx.counters()[kNewLogons]);
      EXPECT_LE(r->ctx.counters()[kNewLogons], tx == kBp ? 3 : 0);
      logons += r->ctx.counters()[kNewLogons];
    }
    EXPECT_EQ(Orders(c), before);
    EXPECT_EQ(Count(c, "SELECT sum(quantity) FROM order_items"), items);
    EXPECT_EQ(Count(c, "SELECT count(*) FROM logon"), logon + logons);
  }
  ExpectVerifyPasses();
}

// verify finds each kind of broken data it promises to find, and only that kind: an order
// without items, a negative inventory, an order whose total is not its items' sum.
TEST_P(SoeSessionTest, VerifyFindsBrokenData) {
  ExpectVerifyPasses();
  const struct {
    const char* sql;
    const char* check;
  } kBreaks[] = {
      {"DELETE FROM order_items WHERE order_id = (SELECT min(order_id) FROM orders)",
       "orders_have_items"},
      {"UPDATE inventories SET quantity_on_hand = -1 WHERE product_id = (SELECT "
       "min(product_id) FROM inventories) AND warehouse_id = (SELECT min(warehouse_id) FROM "
       "inventories WHERE product_id = (SELECT min(product_id) FROM inventories))",
       "inventories_not_negative"},
      {"UPDATE orders SET order_total = order_total + 1 WHERE order_id = (SELECT max(order_id) "
       "FROM orders)",
       "order_totals_match_items"},
  };
  std::set<std::string> broken;
  for (const auto& b : kBreaks) {
    auto st = conn_->Prepare(b.sql);
    ASSERT_TRUE(st.ok()) << b.sql;
    ASSERT_TRUE((*st)->Execute().ok()) << b.sql;
    broken.insert(b.check);
    auto checks = loader_->Verify(*conn_, {}, nullptr);
    ASSERT_TRUE(checks.ok()) << checks.status().message();
    int seen = 0;
    for (const auto& c : *checks) {
      if (c.name == "orders_have_items" || c.name == "inventories_not_negative" ||
          c.name == "order_totals_match_items") {
        ++seen;
        EXPECT_EQ(c.passed, broken.count(c.name) == 0) << c.name << ": " << c.detail;
      }
    }
    EXPECT_EQ(seen, 3);
  }
}

TEST_P(SoeSessionTest, ARegistrationWhoseCommitLostItsConnectionIsCountedInDoubt) {
  const int64_t customers = Count(*conn_, "SELECT count(*) FROM customers");
  auto w = Make({}, kNcr);
  ASSERT_TRUE(w->CheckReady(*conn_).ok());
  const auto before = w->Snapshot(*conn_);
  ASSERT_TRUE(before.ok());
  auto c = backend_->Connect();
  ASSERT_TRUE(c.ok());
  auto session = w->NewSession(
      std::make_unique<conformance::CommitThenLoseConnection>(std::move(c).value()), 11, 0);
  ASSERT_TRUE(session.ok()) << session.status().message();
  workload::TestOpContext ctx{10};
  const Status s = (*session)->RunUnit(ctx);
  EXPECT_EQ(s.category(), ErrorCategory::kConnectionLost) << s.message();
  // The customer is in the table; the client counted it in doubt, at once, not as committed.
  EXPECT_EQ(Count(*conn_, "SELECT count(*) FROM customers"), customers + 1);
  EXPECT_EQ(ctx.counted_now()[kNewCustomersInDoubt], 1);
  EXPECT_EQ(ctx.counted_now()[kNewCustomers] + ctx.counters()[kNewCustomers], 0);
  EXPECT_EQ(ctx.counters()[kNewCustomersInDoubt], 0);
  // The run's check accepts it with the doubt and not without.
  workload::Totals whole;
  whole.types.resize(1 + kNumTx);
  whole.counters.assign(kNumCounters, 0);
  for (const int64_t doubt : {1, 0}) {
    whole.counters[kNewCustomersInDoubt] = doubt;
    auto checks = w->Verify(*conn_, *before, &whole);
    ASSERT_TRUE(checks.ok()) << checks.status().message();
    bool seen = false;
    for (const auto& ch : *checks) {
      if (ch.name != "committed_customers_match") continue;
      seen = true;
      EXPECT_EQ(ch.passed, doubt == 1) << ch.detail;
    }
    EXPECT_TRUE(seen);
  }
}

TEST_P(SoeSessionTest, ThinkTimesCountedInOrOutOfResponseTimes) {
  for (const bool include : {false, true}) {
    auto r = Start(kBp, {"--min_delay", "50", "--max_delay", "250", "--inter_min_delay", "10",
                         "--inter_max_delay", "20", "--soe_variant", "plsql20",
                         include ? "--timings_include_sleep=Y" : "--timings_include_sleep=N"});
    for (int unit = 0; unit < 20; ++unit) {
      r->ctx.Reset();
      RunUnits(*r, 1);
      // Browse Products: the inter-transaction delay, then a think time after the customer,
      // after the logon and after each of its 1-5 product look-ups.
      ASSERT_GE(r->ctx.pauses().size(), 4u);
      ASSERT_LE(r->ctx.pauses().size(), 8u);
      EXPECT_GE(r->ctx.pauses()[0], 10 * 1000000LL);
      EXPECT_LE(r->ctx.pauses()[0], 20 * 1000000LL);
      int64_t intra = 0;
      for (size_t i = 1; i < r->ctx.pauses().size(); ++i) {
        EXPECT_GE(r->ctx.pauses()[i], 50 * 1000000LL);
        EXPECT_LE(r->ctx.pauses()[i], 250 * 1000000LL);
        intra += r->ctx.pauses()[i];
      }
      ASSERT_EQ(r->ctx.steps().size(), 1u);
      EXPECT_EQ(r->ctx.steps()[0].first, kBp);
      // Only think times move the fake clock: the response time is the intra-transaction
      // think time when it is included, and 0 when it is not; the inter delay never counts.
      EXPECT_EQ(r->ctx.steps()[0].second, include ? intra : 0);
    }
  }
}

// New Customer sleeps once, after its commit and before the logon, as the package's
// newCustomer does; the JDBC class also before its inserts.
TEST_P(SoeSessionTest, ThinkTimesNewCustomerSleepsOnceAsThePackage) {
  for (const auto& [variant, thinks] :
       {std::pair<const char*, size_t>{"plsql21", 1}, {"plsql20", 1}, {"jdbc", 2}}) {
    auto r = Start(kNcr, {"--min_delay", "50", "--max_delay", "250", "--soe_variant", variant});
    for (int unit = 0; unit < 5; ++unit) {
      r->ctx.Reset();
      RunUnits(*r, 1);
      EXPECT_EQ(r->ctx.counters()[kNewCustomers], 1) << variant;
      EXPECT_EQ(r->ctx.pauses().size(), thinks) << variant;
    }
  }
}

// The package's sleep procedure sleeps only when both bounds are non-zero: with MinDelay 0 the
// package variants never think; the JDBC classes think uniform on [0, max].
TEST_P(SoeSessionTest, ThinkTimesFollowThePackagesSleepGuard) {
  for (const char* variant : {"plsql21", "plsql20", "jdbc"}) {
    auto r = Start(kBp, {"--min_delay", "0", "--max_delay", "250", "--soe_variant", variant});
    RunUnits(*r, 10);
    if (std::string(variant) == "jdbc") {
      EXPECT_GE(r->ctx.pauses().size(), 20u) << variant;  // 1 + 1-23 look-ups per unit
    } else {
      EXPECT_TRUE(r->ctx.pauses().empty()) << variant << ": " << r->ctx.pauses().size();
    }
  }
  // Both non-zero and equal: that think every time.
  auto r = Start(kPo, {"--min_delay", "100", "--max_delay", "100"});
  RunUnits(*r, 3);
  ASSERT_EQ(r->ctx.pauses().size(), 3u);
  for (const int64_t p : r->ctx.pauses()) EXPECT_EQ(p, 100 * 1000000LL);
}

// New Order thinks where the package's newOrder sleeps, also inside its write transaction:
// after the customer, after the logon, after each browse, once more, after the order's insert,
// and before and after each line. Every line here is in stock, so each line's stock read,
// item insert and inventory update show how many lines (L) and browses (B) the unit made.
TEST_P(SoeSessionTest, ThinkTimesNewOrderSleepsInsideItsTransactionAsThePackage) {
  auto r = Start(kOp, {"--min_delay", "50", "--max_delay", "250", "--soe_variant", "plsql20"});
  int orders = 0;
  for (int unit = 0; unit < 40; ++unit) {
    r->ctx.Reset();
    RunUnits(*r, 1);
    auto c = r->ctx.counters();
    if (c[kNewOrders] == 0) continue;
    ++orders;
    const int64_t lines = c[kUpdates] - 1;  // one inventory update per line, then the order's
    ASSERT_EQ(c[kInserts], 1 + 1 + lines) << "a line out of stock";  // logon, order, items
    // Selects: the customer, each browse, the order id, each line's stock.
    const int64_t browses = c[kSelects] - 2 - lines;
    EXPECT_EQ(static_cast<int64_t>(r->ctx.pauses().size()), 4 + browses + 2 * lines)
        << "browses " << browses << ", lines " << lines;
  }
  EXPECT_GT(orders, 0);
}

// Browse and Update Orders writes exactly when the package would on the same data: the
// customer has two or more orders (the JDBC class: one or more). The customer is the one the
// session draws (the mix's pick, then the transaction's inputs, from the session's seed).
TEST_P(SoeSessionTest, BrowseAndUpdateOrdersWritesByThePackagesRule) {
  for (const auto& [variant, min_orders] :
       {std::pair<const char*, int64_t>{"plsql21", 2}, {"jdbc", 1}}) {
    auto r = Start(kBo, {"--soe_variant", variant});
    SoeVariant v;
    ASSERT_TRUE(VariantFromName(variant, &v));
    auto mix = TxMix::FromWeights(r->workload->options().weights);
    ASSERT_TRUE(mix.ok());
    Random rng(11 + kBo);
    int64_t wrote = 0, should = 0;
    for (int unit = 0; unit < 60; ++unit) {
      ASSERT_EQ(mix->Pick(rng), kBo);
      const TxInputs in = DrawInputs(kBo, rng, r->workload->options().size, v);
      const int64_t n = Count(
          *conn_, "SELECT count(*) FROM orders WHERE customer_id = " + std::to_string(in.customer));
      r->ctx.Reset();
      RunUnits(*r, 1);
      const bool writes = r->ctx.counters()[kUpdates] == 2;
      EXPECT_EQ(writes, n >= min_orders)
          << variant << ": customer " << in.customer << " has " << n << " orders";
      wrote += writes;
      should += n >= min_orders;
    }
    EXPECT_EQ(wrote, should);
    EXPECT_GT(should, 0) << variant;
  }
}

TEST_P(SoeSessionTest, RunRefusesAnotherScale) {
  auto w = std::make_unique<SoeWorkload>();
  config::OptionSet o;
  w->DeclareOptions(&o);
  ASSERT_TRUE(config::ParseCommandLine({"--soe_scale", "0.002"}, &o).ok());
  ASSERT_TRUE(w->Configure(o).ok());
  w->UseDialect(backend_->dialect());
  const Status s = w->CheckReady(*conn_);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("soe_scale=0.001"), std::string::npos) << s.message();
}

// A database whose stored procedures predate the row-limit argument (storebench_meta's
// "procedures" = "Y") is refused before the run with the reload command, not on the first
// Process Orders call; the current version is accepted.
TEST_P(SoeSessionTest, ProceduresOfAnEarlierStorebenchAreRefused) {
  auto meta = workload::StoreMeta::Open(*conn_, backend_->dialect());
  ASSERT_TRUE(meta.ok()) << meta.status().message();
  ASSERT_TRUE(meta->Set("procedures", "Y").ok());
  auto w = Make({"--sql_mode", "procedures"});
  Status s = w->CheckReady(*conn_);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("earlier storebench"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("--force"), std::string::npos) << s.message();
  EXPECT_TRUE(Make({})->CheckReady(*conn_).ok());  // client SQL needs no procedures
  ASSERT_TRUE(meta->Set("procedures", "2").ok());  // no logon argument yet
  s = Make({"--sql_mode", "procedures"})->CheckReady(*conn_);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("earlier storebench"), std::string::npos) << s.message();
  ASSERT_TRUE(meta->Set("procedures", "3").ok());
  EXPECT_TRUE(Make({"--sql_mode", "procedures"})->CheckReady(*conn_).ok());
}

// The same seed gives the same rows in both modes: client SQL, and one stored-procedure call per
// transaction (every transaction enabled, loaded afresh at the same seed before each mode), with
// the options `args` (a --soe_variant).
void SoeSessionTest::ExpectModesLeaveIdenticalTables(const std::vector<std::string>& args) {
  const std::vector<std::string> loaded = TableRows(*conn_);
  std::vector<std::string> after[2];
  int64_t new_orders[2] = {0, 0};
  for (int mode = 0; mode < 2; ++mode) {
    if (mode == 1) {
      workload::LoadContext ctx;
      ctx.threads = 2;
      ctx.force = true;
      ctx.seed = 5;
      const Status s = loader_->Load(*backend_, ctx);
      ASSERT_TRUE(s.ok()) << s.message();
      ASSERT_EQ(TableRows(*conn_), loaded) << "the load is not repeatable";
    }
    std::vector<std::string> mode_args = args;
    if (mode == 1) mode_args.insert(mode_args.end(), {"--sql_mode", "procedures"});
    auto r = Start(-1, mode_args);
    ASSERT_NE(r->session, nullptr);
    RunUnits(*r, 120);
    new_orders[mode] = r->ctx.counters()[kNewOrders];
    after[mode] = TableRows(*conn_);
  }
  EXPECT_GT(new_orders[0], 0);
  EXPECT_EQ(new_orders[0], new_orders[1]);
  EXPECT_NE(after[0], loaded);
  ASSERT_EQ(after[0].size(), after[1].size());
  for (size_t i = 0; i < after[0].size(); ++i) {
    ASSERT_EQ(after[0][i], after[1][i]) << "row " << i << " (client mode first)";
  }
  ExpectVerifyPasses();
}

TEST_P(SoeSessionTest, ClientAndProcedureModesLeaveIdenticalTables) {
  ExpectModesLeaveIdenticalTables({});
}

// The 2011 package's constants (fewer browses and look-ups, a logon row every time) reach the
// procedures as they reach the client SQL.
TEST_P(SoeSessionTest, ClientAndProcedureModesLeaveIdenticalTablesWithPackage20Constants) {
  ExpectModesLeaveIdenticalTables({"--soe_variant", "plsql20"});
}

// The query timeout's statement makes the server cancel a longer statement, as a timeout error.
TEST_P(SoeSessionTest, QueryTimeoutCancelsAStatementAsATimeout) {
  auto admin = SoeSqlQueries(backend_->dialect(), "admin.sql");
  ASSERT_TRUE(admin.ok());
  auto set = conn_->Prepare(admin->at("query_timeout"));
  ASSERT_TRUE(set.ok()) << set.status().message();
  (*set)->BindInt(1, 1);
  ASSERT_TRUE((*set)->Execute().ok());
  ASSERT_TRUE((*set)->DiscardRows().ok());
  auto slow =
      conn_->Prepare(backend_->dialect() == "postgres" ? "SELECT pg_sleep(5)" : "SELECT SLEEP(5)");
  ASSERT_TRUE(slow.ok());
  Status s = (*slow)->Execute();
  if (s.ok()) s = (*slow)->DiscardRows();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.category(), ErrorCategory::kTimeout) << s.message();
}

INSTANTIATE_TEST_SUITE_P(
    Engines, SoeSessionTest,
    ::testing::Values(
        Engine{"sqlite", "sqlite://" + std::string(STOREBENCH_TEST_TMP) + "/soe_session.db"},
        Engine{"postgres", conformance::ServerUrl("STOREBENCH_PG_URL", "sbtest_soe"), true},
        Engine{"mariadb", conformance::ServerUrl("STOREBENCH_MYSQL_URL", "sbtest_soe"), true}),
    conformance::EngineName);

}  // namespace
}  // namespace sb::soe
