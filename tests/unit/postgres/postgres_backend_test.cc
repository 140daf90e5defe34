// What is PostgreSQL-specific in the back end (the shared contract is in
// tests/unit/conformance), against a real server (scripts/services.sh start). The server comes
// from STOREBENCH_PG_URL (scripts/services.sh env; never a guessed address); without
// one the server tests skip, unless STOREBENCH_REQUIRE_SERVICES=1, when they fail.
#include "backend/db/postgres/postgres_backend.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>

#include "backend/db/connect_error.h"
#include "backend/db/postgres/pg_util.h"

namespace sb::db {
namespace {

std::string ServerUrl() {
  const char* url = std::getenv("STOREBENCH_PG_URL");
  return url && *url ? url : "";
}

bool ServicesRequired() {
  const char* r = std::getenv("STOREBENCH_REQUIRE_SERVICES");
  return r && std::string(r) == "1";
}

class PostgresTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (ServerUrl().empty()) {
      const std::string why =
          "STOREBENCH_PG_URL is not set (run make test, or eval \"$(scripts/services.sh env)\")";
      if (ServicesRequired()) FAIL() << "STOREBENCH_REQUIRE_SERVICES=1 but " << why;
      GTEST_SKIP() << why;
    }
    auto url = ParseDbUrl(ServerUrl() + (ServerUrl().find('?') == std::string::npos ? "?" : "&") +
                          "connect_timeout=5");
    ASSERT_TRUE(url.ok()) << url.status().message();
    auto b = OpenPostgres(*url, BackendOptions());
    ASSERT_TRUE(b.ok()) << b.status().message();
    backend_ = std::move(b).value();
    auto c = backend_->Connect();
    if (!c.ok()) {
      if (ServicesRequired()) {
        FAIL() << "STOREBENCH_REQUIRE_SERVICES=1 but PostgreSQL is not reachable: "
               << c.status().message();
      }
      GTEST_SKIP() << "no PostgreSQL server at " << ServerUrl()
                   << " (start one with scripts/services.sh start): " << c.status().message();
    }
    conn_ = std::move(c).value();
  }

  // Creates a fresh table for one test (tables are named after the test, so tests do not meet).
  void Table(const std::string& name, const std::string& columns) {
    ASSERT_TRUE(conn_
                    ->ExecuteScript("DROP TABLE IF EXISTS " + name + "; CREATE TABLE " + name +
                                    " (" + columns + ")")
                    .ok());
  }

  std::unique_ptr<DbBackend> backend_;
  std::unique_ptr<Connection> conn_;
};

TEST(PostgresPlaceholdersTest, SkipsQuotesCommentsAndDollarQuotes) {
  int n = 0;
  EXPECT_EQ(TranslatePlaceholders("SELECT a FROM t WHERE b = ? AND c = '?' AND d = ?", &n),
            "SELECT a FROM t WHERE b = $1 AND c = '?' AND d = $2");
  EXPECT_EQ(n, 2);
  EXPECT_EQ(TranslatePlaceholders("SELECT \"x?\" -- what?\nFROM t WHERE a = ?", &n),
            "SELECT \"x?\" -- what?\nFROM t WHERE a = $1");
  EXPECT_EQ(n, 1);
  EXPECT_EQ(TranslatePlaceholders("CREATE FUNCTION f() AS $$ SELECT '?' $$; SELECT ?", &n),
            "CREATE FUNCTION f() AS $$ SELECT '?' $$; SELECT $1");
  EXPECT_EQ(n, 1);
  EXPECT_EQ(TranslatePlaceholders("SELECT 'it''s ?', ?", &n), "SELECT 'it''s ?', $1");
  EXPECT_EQ(n, 1);
}

TEST(PostgresClassifyTest, SqlStates) {
  EXPECT_EQ(ClassifyPostgresSqlState("40001"), ErrorCategory::kSerialization);
  EXPECT_EQ(ClassifyPostgresSqlState("40P01"), ErrorCategory::kDeadlock);
  EXPECT_EQ(ClassifyPostgresSqlState("23505"), ErrorCategory::kConstraint);
  EXPECT_EQ(ClassifyPostgresSqlState("23503"), ErrorCategory::kConstraint);
  EXPECT_EQ(ClassifyPostgresSqlState("08006"), ErrorCategory::kConnectionLost);
  EXPECT_EQ(ClassifyPostgresSqlState("57P01"), ErrorCategory::kConnectionLost);
  EXPECT_EQ(ClassifyPostgresSqlState("57014"), ErrorCategory::kTimeout);
  EXPECT_EQ(ClassifyPostgresSqlState("42601"), ErrorCategory::kSyntax);
  EXPECT_EQ(ClassifyPostgresSqlState("42P01"), ErrorCategory::kSyntax);
  EXPECT_EQ(ClassifyPostgresSqlState("P0001"), ErrorCategory::kOther);
}

// The back end's own statements (a restore's TRUNCATE, a catalog read) on a connection that is
// gone say so with the step's name, in the category a lost connection has everywhere else.
TEST(PgUtilTest, StatementsOnAConnectionThatIsGoneAreConnectionLost) {
  PGconn* conn = PQconnectdb("host=127.0.0.1 port=1 dbname=ds3 connect_timeout=2");
  ASSERT_EQ(PQstatus(conn), CONNECTION_BAD);
  const Status s = pg::Exec(conn, "TRUNCATE inventory", "restore: TRUNCATE inventory");
  EXPECT_EQ(s.category(), ErrorCategory::kConnectionLost);
  EXPECT_EQ(s.message().rfind("restore: TRUNCATE inventory: connection to PostgreSQL lost: ", 0),
            0u)
      << s.message();
  auto rows = pg::QueryRows(conn, "SELECT 1", "the copy's sequences");
  ASSERT_FALSE(rows.ok());
  EXPECT_EQ(rows.status().category(), ErrorCategory::kConnectionLost);
  auto value = pg::QueryValue(conn, "SELECT 1", "largest id");
  ASSERT_FALSE(value.ok());
  EXPECT_EQ(value.status().category(), ErrorCategory::kConnectionLost);
  PQfinish(conn);
}

TEST(PostgresUrlTest, UnreachableServerIsAClearConnectionError) {
  // Port 1 on loopback: nothing listens there, so the connection is refused at once.
  auto b = OpenPostgres(*ParseDbUrl("postgresql://storebench@127.0.0.1:1/ds3"), BackendOptions());
  ASSERT_TRUE(b.ok());
  auto c = (*b)->Connect();
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().category(), ErrorCategory::kConnectionLost);
  EXPECT_TRUE(IsConnectError(c.status()));
  EXPECT_NE(c.status().message().find("cannot connect to PostgreSQL at host 127.0.0.1 port 1 "
                                      "(postgresql://storebench@127.0.0.1:1/ds3): "),
            std::string::npos)
      << c.status().message();
  EXPECT_NE(c.status().message().find("is the server running? is the password right?"),
            std::string::npos)
      << c.status().message();
}

TEST_F(PostgresTest, PreparedStatementsBindAndFetchTypes) {
  Table("sbt_pg_types", "id SERIAL PRIMARY KEY, name TEXT UNIQUE, x NUMERIC(12,2), n INT, d DATE");
  auto ins = conn_->Prepare(
      "INSERT INTO sbt_pg_types (name, x, n, d) VALUES (?, ?, ?, '2013/01/21') RETURNING id");
  ASSERT_TRUE(ins.ok()) << ins.status().message();
  (*ins)->BindText(1, "a'; DROP TABLE sbt_pg_types; --");
  (*ins)->BindDouble(2, 262.09);
  (*ins)->BindInt(3, 42);
  ASSERT_TRUE((*ins)->Execute().ok());
  ASSERT_TRUE((*ins)->Next());
  EXPECT_EQ((*ins)->GetInt(0), 1);
  EXPECT_EQ((*ins)->RowsAffected(), 1);
  EXPECT_FALSE((*ins)->Next());
  (*ins)->BindText(1, "b");
  (*ins)->BindNull(3);
  ASSERT_TRUE((*ins)->Execute().ok());
  (*ins)->Reset();
  EXPECT_EQ(conn_->LastInsertId(), 2);

  auto sel = conn_->Prepare("SELECT id, name, x, n, d FROM sbt_pg_types WHERE id >= ? ORDER BY id");
  ASSERT_TRUE(sel.ok()) << sel.status().message();
  (*sel)->BindInt(1, 1);
  ASSERT_TRUE((*sel)->Execute().ok());
  ASSERT_TRUE((*sel)->Next());
  EXPECT_EQ((*sel)->GetText(1), "a'; DROP TABLE sbt_pg_types; --");
  EXPECT_DOUBLE_EQ((*sel)->GetDouble(2), 262.09);
  EXPECT_EQ((*sel)->GetText(2), "262.09");
  EXPECT_EQ((*sel)->GetInt(3), 42);
  EXPECT_FALSE((*sel)->IsNull(3));
  EXPECT_EQ((*sel)->GetText(4), "2013-01-21");
  ASSERT_TRUE((*sel)->Next());
  EXPECT_TRUE((*sel)->IsNull(3));
  EXPECT_FALSE((*sel)->Next());
  EXPECT_TRUE((*sel)->status().ok());

  auto upd = conn_->Prepare("UPDATE sbt_pg_types SET n = ? WHERE n IS NULL OR n = 42");
  ASSERT_TRUE(upd.ok());
  (*upd)->BindInt(1, 7);
  ASSERT_TRUE((*upd)->Execute().ok());
  EXPECT_EQ((*upd)->RowsAffected(), 2);
}

TEST_F(PostgresTest, ErrorsAreClassified) {
  Table("sbt_pg_errors", "id INT PRIMARY KEY");
  auto ins = conn_->Prepare("INSERT INTO sbt_pg_errors VALUES (?)");
  ASSERT_TRUE(ins.ok());
  (*ins)->BindInt(1, 1);
  ASSERT_TRUE((*ins)->Execute().ok());
  Status dup = (*ins)->Execute();
  EXPECT_EQ(dup.code(), StatusCode::kDbError);
  EXPECT_EQ(dup.category(), ErrorCategory::kConstraint);
  EXPECT_EQ(dup.sqlstate(), "23505");
  EXPECT_NE(dup.message().find("duplicate key"), std::string::npos) << dup.message();

  auto bad = conn_->Prepare("SELEC 1");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().category(), ErrorCategory::kSyntax);
  auto missing = conn_->Prepare("SELECT * FROM sbt_no_such_table");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().category(), ErrorCategory::kSyntax);
  EXPECT_EQ(missing.status().sqlstate(), "42P01");

  // A failed statement aborts the transaction; the COMMIT then reports it.
  ASSERT_TRUE(conn_->Begin(true).ok());
  EXPECT_FALSE((*ins)->Execute().ok());
  EXPECT_FALSE(conn_->Commit().ok());
  EXPECT_TRUE(conn_->Rollback().ok());
}

TEST_F(PostgresTest, RealDeadlockIsClassifiedAsDeadlock) {
  Table("sbt_pg_deadlock", "id INT PRIMARY KEY, v INT");
  ASSERT_TRUE(conn_->ExecuteScript("INSERT INTO sbt_pg_deadlock VALUES (1, 0), (2, 0)").ok());
  auto c2 = backend_->Connect();
  ASSERT_TRUE(c2.ok());
  Connection* conns[2] = {conn_.get(), c2->get()};
  std::unique_ptr<Statement> upd[2];
  for (int i = 0; i < 2; ++i) {
    auto s = conns[i]->Prepare("UPDATE sbt_pg_deadlock SET v = v + 1 WHERE id = ?");
    ASSERT_TRUE(s.ok());
    upd[i] = std::move(s).value();
    ASSERT_TRUE(conns[i]->Begin(true).ok());
    upd[i]->BindInt(1, i + 1);  // each locks its own row
    ASSERT_TRUE(upd[i]->Execute().ok());
  }
  // Now each wants the other's row: the server detects the cycle (deadlock_timeout, 1 s) and
  // aborts one of them with 40P01; the other then proceeds.
  Status result[2];
  std::thread t([&] {
    upd[1]->BindInt(1, 1);
    result[1] = upd[1]->Execute();
  });
  upd[0]->BindInt(1, 2);
  result[0] = upd[0]->Execute();
  if (!result[0].ok()) conns[0]->Rollback().IgnoreError();  // lets the other one finish
  t.join();
  if (!result[1].ok()) conns[1]->Rollback().IgnoreError();
  int deadlocks = 0;
  for (const Status& s : result) {
    if (!s.ok()) {
      EXPECT_EQ(s.category(), ErrorCategory::kDeadlock) << s.message();
      EXPECT_EQ(s.sqlstate(), "40P01");
      ++deadlocks;
    }
  }
  EXPECT_EQ(deadlocks, 1);
  for (Connection* c : conns) EXPECT_TRUE(c->Rollback().ok());
}

TEST_F(PostgresTest, DescribeReportsVersionAndSettings) {
  auto info = backend_->Describe();
  ASSERT_TRUE(info.ok()) << info.status().message();
  EXPECT_EQ(info->product, "PostgreSQL");
  EXPECT_FALSE(info->version.empty());
  EXPECT_TRUE(info->settings.count("shared_buffers"));
  EXPECT_TRUE(info->settings.count("synchronous_commit"));
  EXPECT_EQ(backend_->dialect(), "postgres");
  EXPECT_TRUE(backend_->capabilities().concurrent_writers);
  EXPECT_TRUE(backend_->capabilities().server);
}

int64_t ByMeaning(const std::vector<ServerCounter>& counters, const std::string& meaning) {
  for (const auto& c : counters) {
    if (c.meaning == meaning) return c.value;
  }
  return -1;
}

// A transaction on another connection reaches pg_stat_database once that connection's backend
// flushes its statistics, which it does at the latest when it disconnects. Other clients may use
// the database too, so the deltas are lower bounds.
TEST_F(PostgresTest, ServerCountersSeeAnotherSessionsCommitAfterItCloses) {
  EXPECT_TRUE(backend_->capabilities().server_counters);
  EXPECT_TRUE(backend_->capabilities().server_counters_lag);
  ASSERT_TRUE(conn_
                  ->ExecuteScript("DROP TABLE IF EXISTS sb_counters; "
                                  "CREATE TABLE sb_counters (id int PRIMARY KEY)")
                  .ok());
  auto before = conn_->ServerCounters();
  ASSERT_TRUE(before.ok()) << before.status().message();
  for (const char* m : {"commits", "rollbacks", "rows_inserted", "rows_updated", "rows_deleted"}) {
    EXPECT_GE(ByMeaning(*before, m), 0) << m;
  }
  {
    auto other = backend_->Connect();
    ASSERT_TRUE(other.ok());
    auto insert = (*other)->Prepare("INSERT INTO sb_counters (id) VALUES (?)");
    ASSERT_TRUE(insert.ok());
    ASSERT_TRUE((*other)->Begin(true).ok());
    for (int i = 1; i <= 3; ++i) {
      (*insert)->BindInt(1, i);
      ASSERT_TRUE((*insert)->Execute().ok());
    }
    ASSERT_TRUE((*other)->Commit().ok());
  }  // disconnects: its backend flushes its statistics as it exits
  // The exit is asynchronous: wait for it (bounded) rather than assume a time.
  Result<std::vector<ServerCounter>> after = std::vector<ServerCounter>{};
  for (int i = 0; i < 100; ++i) {
    after = conn_->ServerCounters();
    ASSERT_TRUE(after.ok()) << after.status().message();
    if (ByMeaning(*after, "rows_inserted") - ByMeaning(*before, "rows_inserted") >= 3) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_GE(ByMeaning(*after, "rows_inserted") - ByMeaning(*before, "rows_inserted"), 3);
  EXPECT_GE(ByMeaning(*after, "commits") - ByMeaning(*before, "commits"), 1);
}

}  // namespace
}  // namespace sb::db
