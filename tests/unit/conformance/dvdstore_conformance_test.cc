// The DVD Store workload's behaviour that must be the same on every database: full-text
// browsing finds what is there and only that, and a purchase without enough stock rolls back
// everything it did. SQLite on a real file, PostgreSQL and MariaDB on the servers of
// scripts/services.sh (database sbtest_dvdconf); without a server its cases skip, unless
// STOREBENCH_REQUIRE_SERVICES=1, when they fail.
#include <gtest/gtest.h>

#include <cctype>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "config/options.h"
#include "unit/conformance/engines.h"
#include "unit/workload/test_op_context.h"
#include "workload/dvdstore/dvdstore_workload.h"
#include "workload/dvdstore/sql_files.h"

namespace sb::dvdstore {
namespace {

using conformance::Engine;
using conformance::EngineName;
using conformance::ServerUrl;

std::string PgUrl() { return ServerUrl("STOREBENCH_PG_URL", "sbtest_dvdconf"); }
std::string MyUrl() { return ServerUrl("STOREBENCH_MYSQL_URL", "sbtest_dvdconf"); }

const Engine kEngines[] = {
    {"sqlite", "sqlite://" + std::string(STOREBENCH_TEST_TMP) + "/dvdconf.db", false},
    {"postgres", PgUrl(), true},
    {"mariadb", MyUrl(), true},
    {"postgres_procedures", PgUrl(), true, "procedures"},
    {"mariadb_procedures", MyUrl(), true, "procedures"},
};

class DvdStoreConformanceTest : public ::testing::TestWithParam<Engine> {
 protected:
  // Loads the 1MB database once per engine (2,000 customers, 1,000 products).
  void SetUp() override {
    const Engine& e = GetParam();
    std::string skip;
    ASSERT_NO_FATAL_FAILURE(conformance::OpenEngine(e, &backend_, &conn_, &skip));
    if (!skip.empty()) GTEST_SKIP() << skip;
    config::OptionSet opts;
    workload_.DeclareOptions(&opts);
    ASSERT_TRUE(
        config::ParseCommandLine({"--db_size=1MB", "--sql_mode=" + e.sql_mode}, &opts).ok());
    ASSERT_TRUE(workload_.Configure(opts).ok());
    workload_.UseDialect(backend_->dialect());
    if (!workload_.CheckReady(*conn_).ok()) {
      workload::LoadContext ctx;
      ctx.threads = 2;
      ctx.force = true;
      Status s = workload_.Load(*backend_, ctx);
      ASSERT_TRUE(s.ok()) << s.message();
    }
    ASSERT_TRUE(workload_.CheckReady(*conn_).ok());
  }

  int64_t Int(const std::string& sql) {
    auto s = conn_->Prepare(sql);
    EXPECT_TRUE(s.ok()) << sql << ": " << s.status().message();
    if (!s.ok()) return -1;
    EXPECT_TRUE((*s)->Execute().ok());
    EXPECT_TRUE((*s)->Next());
    return (*s)->IsNull(0) ? 0 : (*s)->GetInt(0);
  }

  void Exec(const std::string& sql) {
    Status s = conn_->ExecuteScript(sql);
    ASSERT_TRUE(s.ok()) << sql << ": " << s.message();
  }

  // Rows of the workload's own browse statement `name` for `text`: (prod_id, column value);
  // in procedures mode the call of the stored procedure.
  std::vector<std::pair<int64_t, std::string>> Browse(const std::string& name,
                                                      const std::string& text, int column) {
    auto queries = SqlQueries(backend_->dialect(),
                              GetParam().sql_mode == "procedures" ? "calls.sql" : "queries.sql");
    EXPECT_TRUE(queries.ok());
    auto s = conn_->Prepare(queries->at(name));
    EXPECT_TRUE(s.ok()) << s.status().message();
    std::vector<std::pair<int64_t, std::string>> rows;
    if (!s.ok()) return rows;
    (*s)->BindText(1, text);
    (*s)->BindInt(2, 5000);
    EXPECT_TRUE((*s)->Execute().ok());
    while ((*s)->Next()) rows.emplace_back((*s)->GetInt(0), std::string((*s)->GetText(column)));
    EXPECT_TRUE((*s)->status().ok()) << (*s)->status().message();
    return rows;
  }

  // Runs `units` orders on a fresh session; returns the rollbacks they counted.
  int64_t RunOrders(int units, uint64_t seed) {
    auto c = backend_->Connect();
    EXPECT_TRUE(c.ok());
    auto session = workload_.NewSession(std::move(c).value(), seed, 0);
    EXPECT_TRUE(session.ok()) << session.status().message();
    if (!session.ok()) return -1;
    workload::TestOpContext ctx;
    for (int i = 0; i < units; ++i) {
      Status s = (*session)->RunUnit(ctx);
      EXPECT_TRUE(s.ok()) << s.message();
    }
    return ctx.counters()[workload_.shape().rollback_counter];
  }

  std::unique_ptr<db::DbBackend> backend_;
  std::unique_ptr<db::Connection> conn_;
  DvdStoreWorkload workload_;
};

std::vector<std::string> Words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

TEST_P(DvdStoreConformanceTest, FullTextFindsAKnownTitleAndActorAndOnlyMatches) {
  auto p = conn_->Prepare("SELECT title, actor FROM PRODUCTS WHERE prod_id = ?");
  ASSERT_TRUE(p.ok());
  (*p)->BindInt(1, 1);
  ASSERT_TRUE((*p)->Execute().ok());
  ASSERT_TRUE((*p)->Next());
  const std::string title((*p)->GetText(0));
  const std::string actor((*p)->GetText(1));
  (*p)->Reset();
  for (const auto& [name, text, column] :
       {std::tuple{"browse_by_title", title, 2}, std::tuple{"browse_by_actor", actor, 3}}) {
    const auto rows = Browse(name, text, column);
    bool found = false;
    for (const auto& [id, value] : rows) {
      found = found || id == 1;
      // Every hit holds every word of the search (the DVD Store data is upper-case words).
      for (const std::string& w : Words(text)) {
        EXPECT_NE((" " + value + " ").find(" " + w + " "), std::string::npos)
            << name << " '" << text << "' returned " << id << " '" << value << "'";
      }
    }
    EXPECT_TRUE(found) << name << " '" << text << "' did not find product 1 (" << rows.size()
                       << " rows)";
    EXPECT_TRUE(Browse(name, "QQQNOSUCHWORD", column).empty()) << name;
  }
}

TEST_P(DvdStoreConformanceTest, PurchaseWithoutStockRollsBackEverythingAndWithStockCommits) {
  const std::string totals =
      "SELECT (SELECT count(*) FROM ORDERS) * 1000000000 + (SELECT count(*) FROM ORDERLINES) * "
      "10000 + (SELECT count(*) FROM CUST_HIST)";
  // Stock is set by re-inserting the rows: an UPDATE below 3 would fire the restock trigger,
  // which puts the old stock back (spec §2.4).
  Exec("DELETE FROM INVENTORY");
  Exec("INSERT INTO INVENTORY (prod_id, quan_in_stock, sales) SELECT prod_id, 0, 7 FROM PRODUCTS");
  const int64_t before = Int(totals);
  const int64_t sales_before = Int("SELECT sum(sales) FROM INVENTORY");
  // Every order finds no stock for its first line: all roll back, nothing of them stays.
  EXPECT_EQ(RunOrders(20, 11), 20);
  EXPECT_EQ(Int(totals), before);
  EXPECT_EQ(Int("SELECT sum(quan_in_stock) FROM INVENTORY"), 0);
  EXPECT_EQ(Int("SELECT sum(sales) FROM INVENTORY"), sales_before);

  // With stock, every order commits: its rows are there and its quantities left the shelves.
  Exec("UPDATE INVENTORY SET quan_in_stock = 1000");  // no trigger: not below 3
  const int64_t orders = Int("SELECT count(*) FROM ORDERS");
  const int64_t max_order = Int("SELECT max(orderid) FROM ORDERS");
  EXPECT_EQ(RunOrders(20, 12), 0);
  EXPECT_EQ(Int("SELECT count(*) FROM ORDERS"), orders + 20);
  const int64_t sold =
      Int("SELECT sum(quantity) FROM ORDERLINES WHERE orderid > " + std::to_string(max_order));
  EXPECT_GT(sold, 0);
  EXPECT_EQ(Int("SELECT count(*) FROM INVENTORY") * 1000 -
                Int("SELECT sum(quan_in_stock) FROM INVENTORY"),
            sold);
}

INSTANTIATE_TEST_SUITE_P(AllBackends, DvdStoreConformanceTest, ::testing::ValuesIn(kEngines),
                         EngineName);

}  // namespace
}  // namespace sb::dvdstore
