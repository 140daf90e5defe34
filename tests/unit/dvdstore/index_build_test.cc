// The load's index phase (workload/index_build.h): the DVD Store index scripts of every dialect
// split into one step per table plus the rest, and a real build on an SQLite file.
#include "workload/index_build.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>

#include "backend/db/sqlite/sqlite_backend.h"
#include "workload/dvdstore/sql_files.h"

namespace sb::workload {
namespace {

std::set<std::string> StepTables(const IndexScript& s) {
  std::set<std::string> out;
  for (const auto& step : s.steps) out.insert(step.table);
  return out;
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

TEST(SplitIndexScriptTest, PostgresStepsPerTableAndTheTriggerInTheRest) {
  auto sql = dvdstore::SqlScript("postgres", "indexes.sql", false);
  ASSERT_TRUE(sql.ok());
  const IndexScript s = SplitIndexScript(*sql);
  EXPECT_TRUE(s.session.empty());
  EXPECT_EQ(StepTables(s), (std::set<std::string>{"categories", "customers", "cust_hist", "orders",
                                                  "orderlines", "products", "inventory", "reorder",
                                                  "membership", "reviews", "reviews_helpfulness"}));
  // Every CREATE INDEX, ALTER TABLE and VACUUM went to a step, whole; nothing else did.
  size_t statements = 0;
  for (const auto& step : s.steps) {
    for (const auto& st : step.statements) {
      ++statements;
      EXPECT_TRUE(st.rfind("CREATE", 0) == 0 || st.rfind("ALTER TABLE", 0) == 0 ||
                  st.rfind("VACUUM ANALYZE", 0) == 0)
          << st;
      EXPECT_EQ(st.back(), '\n');
      EXPECT_EQ(Count(st, ";"), 1u) << st;
    }
  }
  EXPECT_EQ(statements, Count(*sql, "CREATE INDEX") + Count(*sql, "CREATE UNIQUE INDEX") +
                            Count(*sql, "ALTER TABLE") + Count(*sql, "VACUUM ANALYZE"));
  // The function with its $$ body, the trigger and the sequences stay together, in order.
  EXPECT_NE(s.rest.find("CREATE FUNCTION storebench_restock()"), std::string::npos);
  EXPECT_NE(s.rest.find("END\n$$;"), std::string::npos);
  EXPECT_LT(s.rest.find("CREATE FUNCTION"), s.rest.find("CREATE TRIGGER restock"));
  EXPECT_NE(s.rest.find("setval(pg_get_serial_sequence('reviews'"), std::string::npos);
  EXPECT_EQ(s.rest.find("CREATE INDEX"), std::string::npos);
  using Phase = IndexScript::Step::Phase;
  const auto& customers = s.steps[1];
  EXPECT_EQ(customers.table, "customers");
  EXPECT_EQ(customers.phase, Phase::kIndexes);
  EXPECT_EQ(customers.index_names, (std::vector<std::string>{"customers_pkey", "ix_cust_username",
                                                             "ix_cust_user_password"}));
  // Foreign keys come in statements of their own: steps of their own, run after the indexes;
  // the primary keys made of unique indexes (USING INDEX) too, and each table's statistics.
  size_t fk_steps = 0, key_steps = 0, statistics_steps = 0;
  for (const auto& step : s.steps) {
    if (step.phase == Phase::kIndexes) continue;
    if (step.phase == Phase::kStatistics) {
      ++statistics_steps;
      EXPECT_EQ(step.statements,
                (std::vector<std::string>{"VACUUM ANALYZE " + step.table + ";\n"}));
      EXPECT_TRUE(step.references.empty());
      continue;
    }
    ++(step.phase == Phase::kKeys ? key_steps : fk_steps);
    for (const auto& st : step.statements) {
      EXPECT_NE(st.find(step.phase == Phase::kKeys ? "PRIMARY KEY" : "FOREIGN KEY"),
                std::string::npos)
          << st;
      EXPECT_EQ(st.find(step.phase == Phase::kKeys ? "FOREIGN KEY" : "PRIMARY KEY"),
                std::string::npos)
          << st;
    }
  }
  // cust_hist, orders, orderlines, membership, reviews, reviews_helpfulness
  EXPECT_EQ(fk_steps, 6u);
  // categories, customers, orders, products, inventory, membership, reviews, reviews_helpfulness
  EXPECT_EQ(key_steps, 8u);
  EXPECT_EQ(statistics_steps, 11u);  // every table, as DVD Store's VACUUM ANALYZE
  // reviews: its key's index and its indexes in one step, the key in another, its two foreign
  // keys in a third (naming the two tables they reference), its statistics in a fourth.
  size_t reviews_steps = 0;
  for (const auto& step : s.steps) {
    if (step.table != "reviews") continue;
    ++reviews_steps;
    if (step.phase == Phase::kForeignKeys) {
      EXPECT_EQ(step.references, (std::vector<std::string>{"products", "customers"}));
    }
  }
  EXPECT_EQ(reviews_steps, 4u);
}

// Where the server builds a table's indexes side by side (PostgreSQL), each CREATE INDEX is a
// step of its own; the ALTER TABLEs keep their steps, and their phases.
TEST(SplitIndexScriptTest, StepPerCreateIndex) {
  using Phase = IndexScript::Step::Phase;
  auto sql = dvdstore::SqlScript("postgres", "indexes.sql", false);
  ASSERT_TRUE(sql.ok());
  const IndexScript one = SplitIndexScript(*sql);
  const IndexScript s = SplitIndexScript(*sql, /*step_per_create_index=*/true);
  EXPECT_EQ(s.rest, one.rest);
  std::vector<const IndexScript::Step*> helpfulness;
  size_t statements = 0;
  for (const auto& step : s.steps) {
    statements += step.statements.size();
    if (step.statements.front().rfind("CREATE", 0) == 0) {
      EXPECT_EQ(step.statements.size(), 1u) << step.statements.front();
      EXPECT_EQ(step.phase, Phase::kIndexes);
    }
    if (step.table == "reviews_helpfulness") helpfulness.push_back(&step);
  }
  size_t one_statements = 0;
  for (const auto& step : one.steps) one_statements += step.statements.size();
  EXPECT_EQ(statements, one_statements);
  // Its key's index and two indexes, each alone; then the key; then the foreign key; then its
  // statistics.
  ASSERT_EQ(helpfulness.size(), 6u);
  std::vector<std::string> names;
  for (const auto* step : helpfulness) {
    ASSERT_EQ(step->index_names.size(), 1u);
    names.push_back(step->index_names[0]);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"reviews_helpfulness_pkey", "reviews_helpfulness_pkey",
                                             "fk_review_id", "ix_reviews_help_revid",
                                             "ix_reviews_help_custid", "statistics"}));
  EXPECT_EQ(helpfulness[1]->phase, Phase::kKeys);
  EXPECT_EQ(helpfulness[2]->phase, Phase::kForeignKeys);
  EXPECT_EQ(helpfulness[2]->references, (std::vector<std::string>{"reviews"}));
  EXPECT_EQ(helpfulness[5]->phase, Phase::kStatistics);
  // "USING INDEX TABLESPACE" builds a new index: not a key-only step.
  const IndexScript t = SplitIndexScript(
      "ALTER TABLE a ADD CONSTRAINT a_pkey PRIMARY KEY (id) USING INDEX TABLESPACE fast;\n", true);
  ASSERT_EQ(t.steps.size(), 1u);
  EXPECT_EQ(t.steps[0].phase, Phase::kIndexes);
}

TEST(SplitIndexScriptTest, MysqlSessionSettingAndMultiLineAlters) {
  auto sql = dvdstore::SqlScript("mysql", "indexes.sql", false);
  ASSERT_TRUE(sql.ok());
  const IndexScript s = SplitIndexScript(*sql);
  ASSERT_EQ(s.session.size(), 1u);
  EXPECT_EQ(s.session[0], "SET foreign_key_checks = 0;");
  const IndexScript::Step* reviews = nullptr;
  const IndexScript::Step* products = nullptr;
  for (const auto& step : s.steps) {
    if (step.table == "REVIEWS") reviews = &step;  // DVD Store 3's spelling on MySQL
    if (step.table == "PRODUCTS") products = &step;
  }
  ASSERT_NE(reviews, nullptr);
  ASSERT_EQ(reviews->statements.size(), 1u);  // one ALTER over six lines, one table rebuild
  EXPECT_EQ(
      reviews->index_names,
      (std::vector<std::string>{"ix_reviews_prod_id", "ix_reviews_stars", "ix_reviews_prodstars",
                                "ix_reviews_customerid", "fk_prod_id_{FK_SUFFIX}",
                                "fk_review_customerid_{FK_SUFFIX}"}));  // suffix: at load
  ASSERT_NE(products, nullptr);
  EXPECT_EQ(products->statements.size(), 4u);  // two full-text, the plain ones, membership
  EXPECT_EQ(products->index_names.front(), "ix_prod_actor");
  EXPECT_NE(s.rest.find("SET foreign_key_checks = 1;"), std::string::npos);
  EXPECT_NE(s.rest.find("CREATE TRIGGER restock"), std::string::npos);
  EXPECT_NE(s.rest.find("ANALYZE TABLE"), std::string::npos);
}

TEST(SplitIndexScriptTest, Ds2LeavesOutTheDs3Tables) {
  auto sql = dvdstore::SqlScript("sqlite", "indexes.sql", true);
  ASSERT_TRUE(sql.ok());
  const IndexScript s = SplitIndexScript(*sql);
  EXPECT_EQ(StepTables(s), (std::set<std::string>{"customers", "cust_hist", "orders", "orderlines",
                                                  "products", "reorder"}));
  EXPECT_NE(s.rest.find("products_fts"), std::string::npos);
}

// A VACUUM or ANALYZE of one table is that table's statistics step; one of no table or of
// several stays in the rest, run once after the steps (SQLite's and TPC-C-like's "ANALYZE;",
// MySQL's "ANALYZE TABLE a, b").
TEST(SplitIndexScriptTest, StatisticsOfOneTableAreItsStep) {
  using Phase = IndexScript::Step::Phase;
  const IndexScript s = SplitIndexScript(
      "CREATE INDEX ix_a ON a (x);\n"
      "VACUUM ANALYZE a;\n"
      "ANALYZE VERBOSE b;\n"
      "VACUUM\n  c;\n"
      "ANALYZE;\n"
      "ANALYZE TABLE a, b;\n"
      "ANALYZE TABLE d;\n",
      true);
  ASSERT_EQ(s.steps.size(), 4u);
  EXPECT_EQ(s.steps[0].phase, Phase::kIndexes);
  for (size_t i = 1; i < 4; ++i) {
    EXPECT_EQ(s.steps[i].phase, Phase::kStatistics);
    EXPECT_EQ(s.steps[i].index_names, (std::vector<std::string>{"statistics"}));
  }
  EXPECT_EQ(s.steps[1].table, "a");
  EXPECT_EQ(s.steps[2].table, "b");
  EXPECT_EQ(s.steps[3].table, "c");
  EXPECT_EQ(s.rest, "ANALYZE;\nANALYZE TABLE a, b;\nANALYZE TABLE d;\n");
}

// Which steps may start: a table's later phases wait for its earlier ones only, a foreign key
// also for the tables it references, and steps sharing a table run one at a time unless both
// build indexes.
TEST(IndexStepScheduleTest, StepsWaitForTheirOwnTablesOnly) {
  const IndexScript s = SplitIndexScript(
      "CREATE UNIQUE INDEX big_pkey ON big (id);\n"
      "CREATE INDEX ix_big_a ON big (a);\n"
      "CREATE UNIQUE INDEX small_pkey ON small (id);\n"
      "ALTER TABLE big ADD CONSTRAINT big_pkey PRIMARY KEY USING INDEX big_pkey;\n"
      "ALTER TABLE small ADD CONSTRAINT small_pkey PRIMARY KEY USING INDEX small_pkey;\n"
      "ALTER TABLE big ADD CONSTRAINT fk_small FOREIGN KEY (s) REFERENCES small (id);\n"
      "ALTER TABLE other ADD CONSTRAINT fk_other FOREIGN KEY (s)\n  REFERENCES Small (id);\n"
      "VACUUM ANALYZE big;\n"
      "VACUUM ANALYZE small;\n",
      true);
  ASSERT_EQ(s.steps.size(), 9u);
  // As BuildIndexes orders them: the heavier table's steps first.
  enum {
    kBigPkey,
    kBigA,
    kBigKey,
    kBigStats,
    kBigFk,
    kSmallPkey,
    kSmallKey,
    kSmallStats,
    kOtherFk
  };
  const std::vector<int> from_script = {0, 1, 3, 7, 5, 2, 4, 8, 6};
  std::vector<const IndexScript::Step*> order;
  order.reserve(from_script.size());
  for (int i : from_script) order.push_back(&s.steps[i]);
  ASSERT_EQ(order[kOtherFk]->references, (std::vector<std::string>{"small"}));
  // big 1000 rows, small 10, other 5.
  IndexStepSchedule schedule(order, {1000, 1000, 1000, 1000, 1000, 10, 10, 10, 5});
  auto start = [&](int expected) {
    const int i = schedule.Next();
    EXPECT_EQ(i, expected);
    if (i >= 0) schedule.Start(i);
  };
  start(kBigPkey);
  start(kBigA);                    // two CREATE INDEX on one table at once
  start(kSmallPkey);               // another table's index does not wait for the big one's
  EXPECT_EQ(schedule.Next(), -1);  // keys wait for their tables' indexes
  schedule.Done(kSmallPkey);
  start(kSmallKey);
  EXPECT_EQ(schedule.Next(), -1);  // statistics wait for the key
  schedule.Done(kSmallKey);
  start(kSmallStats);
  EXPECT_EQ(schedule.Next(), -1);  // other's foreign key waits for small's statistics
  schedule.Done(kSmallStats);
  start(kOtherFk);  // while big's indexes still build
  schedule.Done(kBigPkey);
  EXPECT_EQ(schedule.Next(), -1);  // big's key waits for its last index
  schedule.Done(kBigA);
  start(kBigKey);
  schedule.Done(kBigKey);
  start(kBigStats);
  schedule.Done(kBigStats);
  EXPECT_EQ(schedule.Next(), -1);  // big's foreign key locks small, as other's running one does
  EXPECT_FALSE(schedule.AllDone());
  schedule.Done(kOtherFk);
  start(kBigFk);
  schedule.Done(kBigFk);
  EXPECT_EQ(schedule.Next(), -1);
  EXPECT_TRUE(schedule.AllDone());
}

// The order steps are offered in: a small table that a large table's foreign key references
// takes the large table's rank, ahead of a middling table nothing waits for.
TEST(IndexStepScheduleTest, PriorityFollowsTheHeaviestTableWaiting) {
  const IndexScript s = SplitIndexScript(
      "CREATE UNIQUE INDEX small_pkey ON small (id);\n"
      "CREATE INDEX ix_lone ON lone (x);\n"
      "CREATE UNIQUE INDEX big_pkey ON big (id);\n"
      "ALTER TABLE small ADD CONSTRAINT small_pkey PRIMARY KEY USING INDEX small_pkey;\n"
      "ALTER TABLE other ADD CONSTRAINT fk_other FOREIGN KEY (s) REFERENCES small (id);\n"
      "ALTER TABLE big ADD CONSTRAINT fk_small FOREIGN KEY (s) REFERENCES small (id);\n"
      "VACUUM ANALYZE small;\n"
      "VACUUM ANALYZE big;\n",
      true);
  ASSERT_EQ(s.steps.size(), 8u);
  std::vector<const IndexScript::Step*> steps;
  std::vector<int64_t> weights;
  const std::map<std::string, int64_t> rows = {
      {"big", 1000}, {"lone", 100}, {"small", 10}, {"other", 5}};
  for (const auto& step : s.steps) {
    steps.push_back(&step);
    weights.push_back(rows.at(step.table));
  }
  // big's foreign key waits for small's statistics, not the other way round, nor for another
  // table's.
  EXPECT_TRUE(WaitsFor(s.steps[5], 1000, s.steps[6], 10));
  EXPECT_FALSE(WaitsFor(s.steps[6], 10, s.steps[5], 1000));
  EXPECT_FALSE(WaitsFor(s.steps[6], 10, s.steps[1], 100));
  std::vector<std::string> order;
  for (size_t i : IndexStepPriority(steps, weights)) {
    order.push_back(s.steps[i].table + " " + s.steps[i].index_names.front());
  }
  EXPECT_EQ(order, (std::vector<std::string>{
                       "big big_pkey", "big statistics", "big fk_small", "small small_pkey",
                       "small small_pkey", "small statistics", "lone ix_lone", "other fk_other"}));
}

// Two foreign keys locking one table: the referenced (smaller) table's own goes first, so the
// larger one's check does not hold the lock while the small one queues behind it; never both
// ways, so the waits cannot go round in a circle.
TEST(IndexStepScheduleTest, AReferencedTablesForeignKeysGoFirst) {
  const IndexScript s = SplitIndexScript(
      "ALTER TABLE helpful ADD CONSTRAINT fk_review FOREIGN KEY (r) REFERENCES reviews (id);\n"
      "ALTER TABLE reviews ADD CONSTRAINT fk_prod FOREIGN KEY (p) REFERENCES products (id);\n"
      "ALTER TABLE a ADD CONSTRAINT fk_b FOREIGN KEY (b) REFERENCES b (id);\n"
      "ALTER TABLE b ADD CONSTRAINT fk_a FOREIGN KEY (a) REFERENCES a (id);\n",
      true);
  ASSERT_EQ(s.steps.size(), 4u);
  EXPECT_TRUE(WaitsFor(s.steps[0], 4000, s.steps[1], 200));
  EXPECT_FALSE(WaitsFor(s.steps[1], 200, s.steps[0], 4000));
  // Tables of equal rows referencing each other: neither waits; they only take turns.
  EXPECT_FALSE(WaitsFor(s.steps[2], 5, s.steps[3], 5));
  EXPECT_FALSE(WaitsFor(s.steps[3], 5, s.steps[2], 5));
  IndexStepSchedule schedule({&s.steps[0], &s.steps[1], &s.steps[2], &s.steps[3]},
                             {4000, 200, 5, 5});
  EXPECT_EQ(schedule.Next(), 1);  // reviews' own, though helpful's comes first in the order
  schedule.Start(1);
  EXPECT_EQ(schedule.Next(), 2);
  schedule.Start(2);
  EXPECT_EQ(schedule.Next(), -1);  // b's locks a, as a's running one does
  schedule.Done(1);
  EXPECT_EQ(schedule.Next(), 0);
}

TEST(SessionSettingsTextTest, SetsBecomeOneLine) {
  EXPECT_EQ(SessionSettingsText("-- why\nSET maintenance_work_mem = '256MB';\nset a = 1;\n"),
            "maintenance_work_mem = '256MB', a = 1");
  EXPECT_EQ(SessionSettingsText(""), "");
}

class IndexBuildSqliteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::string(STOREBENCH_TEST_TMP) + "/index_build_test";
    std::filesystem::create_directories(dir_);
    // One file per case: ctest runs each case as its own process, two at a time, and one
    // case's SetUp removing the other's file made it see no indexes (a clean-clone CI run).
    path_ = dir_ + "/" + ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".db";
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path_ + suffix);
  }
  std::string dir_, path_;
};

TEST_F(IndexBuildSqliteTest, BuildsEveryStepAndMetersIt) {
  db::BackendOptions options;
  options.create_if_missing = true;
  db::DbUrl url;
  url.scheme = "sqlite";
  url.database = path_;
  auto backend = db::OpenSqlite(url, options);
  ASSERT_TRUE(backend.ok()) << backend.status().message();
  {
    auto conn = (*backend)->Connect();
    ASSERT_TRUE(conn.ok());
    ASSERT_TRUE((*conn)
                    ->ExecuteScript("CREATE TABLE a (id INTEGER PRIMARY KEY, x INT, y INT);"
                                    "CREATE TABLE b (id INTEGER PRIMARY KEY, a_id INT);"
                                    "INSERT INTO a VALUES (1, 2, 3), (2, 3, 4);"
                                    "INSERT INTO b VALUES (1, 1);")
                    .ok());
  }
  const IndexScript script = SplitIndexScript(
      "-- indexes\n"
      "CREATE INDEX ix_a_x ON a (x);\n"
      "CREATE UNIQUE INDEX ix_b_a\n  ON b (a_id);\n"
      "CREATE INDEX ix_a_y ON a (y);\n"
      "CREATE TRIGGER t AFTER UPDATE ON a BEGIN\n  UPDATE b SET a_id = NEW.id;\nEND;\n");
  ASSERT_EQ(script.steps.size(), 2u);
  metrics::LoadMeter meter;
  meter.Add(meter.Expect("b", 1), 1, 10);
  meter.Add(meter.Expect("a", 2), 2, 20);
  LoadContext ctx;
  ctx.meter = &meter;
  IndexBuildOptions build;
  build.threads = 4;  // SQLite: one writer, so one connection whatever is asked
  ASSERT_TRUE(BuildIndexes(**backend, script, build, ctx).ok());
  const auto steps = meter.ReadIndexSteps();
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_EQ(steps[0].name, "a: ix_a_x, ix_a_y");  // the heavier table first
  EXPECT_EQ(steps[0].weight, 2);
  EXPECT_EQ(steps[1].name, "b: ix_b_a");
  EXPECT_EQ(steps[2].name, "triggers and the rest");
  for (const auto& st : steps) EXPECT_EQ(st.state, metrics::IndexStepProgress::State::kDone);
  auto conn = (*backend)->Connect();
  ASSERT_TRUE(conn.ok());
  auto stmt = (*conn)->Prepare(
      "SELECT count(*) FROM sqlite_master WHERE name IN ('ix_a_x', 'ix_a_y', 'ix_b_a', 't')");
  ASSERT_TRUE(stmt.ok());
  ASSERT_TRUE((*stmt)->Execute().ok());
  ASSERT_TRUE((*stmt)->Next());
  EXPECT_EQ((*stmt)->GetInt(0), 4);
}

TEST_F(IndexBuildSqliteTest, AFailingStatementFailsTheBuild) {
  db::BackendOptions options;
  options.create_if_missing = true;
  db::DbUrl url;
  url.scheme = "sqlite";
  url.database = path_;
  auto backend = db::OpenSqlite(url, options);
  ASSERT_TRUE(backend.ok());
  const IndexScript script = SplitIndexScript("CREATE INDEX ix ON missing_table (x);\n");
  LoadContext ctx;
  const Status s = BuildIndexes(**backend, script, IndexBuildOptions{}, ctx);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("missing_table"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace sb::workload
