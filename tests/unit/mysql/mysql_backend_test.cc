// What is MariaDB-specific in the back end (the shared contract is in
// tests/unit/conformance), against a real server (scripts/services.sh start). The server comes
// from STOREBENCH_MYSQL_URL (scripts/services.sh env; never a guessed address); without
// one the server tests skip, unless STOREBENCH_REQUIRE_SERVICES=1, when they fail.
#include "backend/db/mysql/mysql_backend.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <thread>

#include "backend/db/connect_error.h"

namespace sb::db {
namespace {

std::string ServerUrl() {
  const char* url = std::getenv("STOREBENCH_MYSQL_URL");
  return url && *url ? url : "";
}

bool ServicesRequired() {
  const char* r = std::getenv("STOREBENCH_REQUIRE_SERVICES");
  return r && std::string(r) == "1";
}

class MysqlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (ServerUrl().empty()) {
      const std::string why =
          "STOREBENCH_MYSQL_URL is not set (run make test, or eval \"$(scripts/services.sh env)\")";
      if (ServicesRequired()) FAIL() << "STOREBENCH_REQUIRE_SERVICES=1 but " << why;
      GTEST_SKIP() << why;
    }
    auto url = ParseDbUrl(ServerUrl() + (ServerUrl().find('?') == std::string::npos ? "?" : "&") +
                          "connect_timeout=5");
    ASSERT_TRUE(url.ok()) << url.status().message();
    auto b = OpenMysql(*url, BackendOptions());
    ASSERT_TRUE(b.ok()) << b.status().message();
    backend_ = std::move(b).value();
    auto c = backend_->Connect();
    if (!c.ok()) {
      if (ServicesRequired()) {
        FAIL() << "STOREBENCH_REQUIRE_SERVICES=1 but MariaDB is not reachable: "
               << c.status().message();
      }
      GTEST_SKIP() << "no MySQL/MariaDB server at " << ServerUrl()
                   << " (start one with scripts/services.sh start): " << c.status().message();
    }
    conn_ = std::move(c).value();
  }

  void Table(const std::string& name, const std::string& columns) {
    ASSERT_TRUE(conn_
                    ->ExecuteScript("DROP TABLE IF EXISTS " + name + "; CREATE TABLE " + name +
                                    " (" + columns + ") ENGINE = InnoDB")
                    .ok());
  }

  std::unique_ptr<DbBackend> backend_;
  std::unique_ptr<Connection> conn_;
};

TEST(MysqlClassifyTest, NativeCodes) {
  EXPECT_EQ(ClassifyMysqlError(1213), ErrorCategory::kDeadlock);
  EXPECT_EQ(ClassifyMysqlError(1205), ErrorCategory::kTimeout);
  EXPECT_EQ(ClassifyMysqlError(1062), ErrorCategory::kConstraint);
  EXPECT_EQ(ClassifyMysqlError(1452), ErrorCategory::kConstraint);
  EXPECT_EQ(ClassifyMysqlError(2006), ErrorCategory::kConnectionLost);
  EXPECT_EQ(ClassifyMysqlError(2013), ErrorCategory::kConnectionLost);
  EXPECT_EQ(ClassifyMysqlError(1064), ErrorCategory::kSyntax);
  EXPECT_EQ(ClassifyMysqlError(1146), ErrorCategory::kSyntax);
  EXPECT_EQ(ClassifyMysqlError(1234), ErrorCategory::kOther);
}

TEST(MysqlUrlTest, UnreachableServerIsAClearConnectionError) {
  auto b = OpenMysql(*ParseDbUrl("mysql://storebench@127.0.0.1:1/ds3"), BackendOptions());
  ASSERT_TRUE(b.ok());
  auto c = (*b)->Connect();
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().category(), ErrorCategory::kConnectionLost);
  EXPECT_TRUE(IsConnectError(c.status()));
  EXPECT_NE(c.status().message().find("cannot connect to MySQL/MariaDB at host 127.0.0.1 port 1 "
                                      "(mysql://storebench@127.0.0.1:1/ds3): "),
            std::string::npos)
      << c.status().message();
  EXPECT_NE(c.status().message().find("is the server running? is the password right?"),
            std::string::npos)
      << c.status().message();
}

TEST_F(MysqlTest, PreparedStatementsBindAndFetchTypes) {
  Table("sbt_my_types",
        "id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(1000) UNIQUE, x NUMERIC(12,2), n INT, d "
        "DATE");
  auto ins =
      conn_->Prepare("INSERT INTO sbt_my_types (name, x, n, d) VALUES (?, ?, ?, '2013/01/21')");
  ASSERT_TRUE(ins.ok()) << ins.status().message();
  (*ins)->BindText(1, "a'; DROP TABLE sbt_my_types; --");
  (*ins)->BindDouble(2, 262.09);
  (*ins)->BindInt(3, 42);
  ASSERT_TRUE((*ins)->Execute().ok());
  EXPECT_FALSE((*ins)->Next());  // an INSERT has no rows
  EXPECT_EQ(conn_->LastInsertId(), 1);
  EXPECT_EQ((*ins)->RowsAffected(), 1);
  const std::string long_name(700, 'z');  // longer than the first fetch buffer
  (*ins)->BindText(1, long_name);
  (*ins)->BindNull(3);
  ASSERT_TRUE((*ins)->Execute().ok());
  EXPECT_EQ(conn_->LastInsertId(), 2);

  auto sel = conn_->Prepare("SELECT id, name, x, n, d FROM sbt_my_types WHERE id >= ? ORDER BY id");
  ASSERT_TRUE(sel.ok()) << sel.status().message();
  (*sel)->BindInt(1, 1);
  ASSERT_TRUE((*sel)->Execute().ok());
  ASSERT_TRUE((*sel)->Next());
  EXPECT_EQ((*sel)->GetInt(0), 1);
  EXPECT_EQ((*sel)->GetText(1), "a'; DROP TABLE sbt_my_types; --");
  EXPECT_DOUBLE_EQ((*sel)->GetDouble(2), 262.09);
  EXPECT_EQ((*sel)->GetText(2), "262.09");
  EXPECT_EQ((*sel)->GetInt(3), 42);
  EXPECT_FALSE((*sel)->IsNull(3));
  EXPECT_EQ((*sel)->GetText(4), "2013-01-21");
  ASSERT_TRUE((*sel)->Next());
  EXPECT_EQ((*sel)->GetText(1), long_name);
  EXPECT_TRUE((*sel)->IsNull(3));
  EXPECT_FALSE((*sel)->Next());
  EXPECT_TRUE((*sel)->status().ok());

  // Stopping early releases the result; the connection can run the next statement.
  ASSERT_TRUE((*sel)->Execute().ok());
  ASSERT_TRUE((*sel)->Next());
  (*sel)->Reset();
  auto upd = conn_->Prepare("UPDATE sbt_my_types SET n = ? WHERE n IS NULL OR n = 42");
  ASSERT_TRUE(upd.ok());
  (*upd)->BindInt(1, 7);
  ASSERT_TRUE((*upd)->Execute().ok());
  EXPECT_EQ((*upd)->RowsAffected(), 2);
}

TEST_F(MysqlTest, ErrorsAreClassified) {
  Table("sbt_my_errors", "id INT PRIMARY KEY");
  auto ins = conn_->Prepare("INSERT INTO sbt_my_errors VALUES (?)");
  ASSERT_TRUE(ins.ok());
  (*ins)->BindInt(1, 1);
  ASSERT_TRUE((*ins)->Execute().ok());
  Status dup = (*ins)->Execute();
  EXPECT_EQ(dup.code(), StatusCode::kDbError);
  EXPECT_EQ(dup.category(), ErrorCategory::kConstraint);
  EXPECT_EQ(dup.native_code(), 1062);
  EXPECT_EQ(dup.sqlstate(), "23000");
  EXPECT_NE(dup.message().find("Duplicate entry"), std::string::npos) << dup.message();

  auto bad = conn_->Prepare("SELEC 1");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().category(), ErrorCategory::kSyntax);
  EXPECT_EQ(bad.status().native_code(), 1064);
  auto missing = conn_->Prepare("SELECT * FROM sbt_no_such_table");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().category(), ErrorCategory::kSyntax);
  EXPECT_EQ(missing.status().native_code(), 1146);
  EXPECT_FALSE(conn_->ExecuteScript("SELECT 1; SELEC 2").ok());
  EXPECT_TRUE(conn_->ExecuteScript("SELECT 1; SELECT 2").ok());
}

TEST_F(MysqlTest, PreparedCallReturnsRowsAndLeavesTheConnectionUsable) {
  // A CALL answers with the procedure's result set and a final status; both read or stopped
  // early, the connection must accept the next command (else "Commands out of sync").
  Table("sbt_my_call", "id INT PRIMARY KEY");
  ASSERT_TRUE(conn_
                  ->ExecuteScript("INSERT INTO sbt_my_call VALUES (1), (2), (3);"
                                  "DROP PROCEDURE IF EXISTS sbt_my_rows;"
                                  "CREATE PROCEDURE sbt_my_rows(IN lim INT) "
                                  "BEGIN SELECT id FROM sbt_my_call ORDER BY id LIMIT lim; END;"
                                  "DROP PROCEDURE IF EXISTS sbt_my_fail;"
                                  "CREATE PROCEDURE sbt_my_fail() BEGIN "
                                  "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'no stock'; END;")
                  .ok());
  auto call = conn_->Prepare("CALL sbt_my_rows(?)");
  ASSERT_TRUE(call.ok()) << call.status().message();
  (*call)->BindInt(1, 3);
  ASSERT_TRUE((*call)->Execute().ok());
  int rows = 0;
  while ((*call)->Next()) ++rows;
  EXPECT_TRUE((*call)->status().ok()) << (*call)->status().message();
  EXPECT_EQ(rows, 3);
  // Stopped after the first row.
  (*call)->BindInt(1, 2);
  ASSERT_TRUE((*call)->Execute().ok());
  ASSERT_TRUE((*call)->Next());
  EXPECT_EQ((*call)->GetInt(0), 1);
  (*call)->Reset();
  auto sel = conn_->Prepare("SELECT count(*) FROM sbt_my_call");
  ASSERT_TRUE(sel.ok()) << sel.status().message();
  ASSERT_TRUE((*sel)->Execute().ok());
  ASSERT_TRUE((*sel)->Next());
  EXPECT_EQ((*sel)->GetInt(0), 3);
  (*sel)->Reset();
  // A procedure's own error reaches the caller with its SQLSTATE.
  auto fail = conn_->Prepare("CALL sbt_my_fail()");
  ASSERT_TRUE(fail.ok());
  Status s = (*fail)->Execute();
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.sqlstate(), "45000");
  EXPECT_TRUE(conn_->ExecuteScript("DROP PROCEDURE sbt_my_rows; DROP PROCEDURE sbt_my_fail").ok());
}

TEST_F(MysqlTest, RealDeadlockIsClassifiedAsDeadlock) {
  Table("sbt_my_deadlock", "id INT PRIMARY KEY, v INT");
  ASSERT_TRUE(conn_->ExecuteScript("INSERT INTO sbt_my_deadlock VALUES (1, 0), (2, 0)").ok());
  auto c2 = backend_->Connect();
  ASSERT_TRUE(c2.ok());
  Connection* conns[2] = {conn_.get(), c2->get()};
  std::unique_ptr<Statement> upd[2];
  for (int i = 0; i < 2; ++i) {
    auto s = conns[i]->Prepare("UPDATE sbt_my_deadlock SET v = v + 1 WHERE id = ?");
    ASSERT_TRUE(s.ok());
    upd[i] = std::move(s).value();
    ASSERT_TRUE(conns[i]->Begin(true).ok());
    upd[i]->BindInt(1, i + 1);
    ASSERT_TRUE(upd[i]->Execute().ok());
  }
  // Each now wants the other's row; InnoDB detects the cycle and rolls one back with 1213.
  Status result[2];
  std::thread t([&] {
    upd[1]->BindInt(1, 1);
    result[1] = upd[1]->Execute();
  });
  upd[0]->BindInt(1, 2);
  result[0] = upd[0]->Execute();
  if (!result[0].ok()) conns[0]->Rollback().IgnoreError();
  t.join();
  if (!result[1].ok()) conns[1]->Rollback().IgnoreError();
  int deadlocks = 0;
  for (const Status& s : result) {
    if (!s.ok()) {
      EXPECT_EQ(s.category(), ErrorCategory::kDeadlock) << s.message();
      EXPECT_EQ(s.native_code(), 1213);
      ++deadlocks;
    }
  }
  EXPECT_EQ(deadlocks, 1);
  for (Connection* c : conns) EXPECT_TRUE(c->Rollback().ok());
}

TEST_F(MysqlTest, DescribeReportsVersionAndSettings) {
  auto info = backend_->Describe();
  ASSERT_TRUE(info.ok()) << info.status().message();
  EXPECT_EQ(info->product, "MariaDB");
  EXPECT_FALSE(info->version.empty());
  EXPECT_TRUE(info->settings.count("innodb_buffer_pool_size"));
  EXPECT_TRUE(info->settings.count("innodb_flush_log_at_trx_commit"));
  EXPECT_EQ(backend_->dialect(), "mysql");
}

// The value of the counter with `meaning` in `counters`, or -1.
int64_t ByMeaning(const std::vector<ServerCounter>& counters, const std::string& meaning) {
  for (const auto& c : counters) {
    if (c.meaning == meaning) return c.value;
  }
  return -1;
}

// Other clients may use the server at the same time, so the deltas are lower bounds; what
// matters is that a server-side prepared statement's executions reach Com_select and a
// START TRANSACTION ... COMMIT reaches Com_begin and Com_commit.
TEST_F(MysqlTest, ServerCountersCountPreparedStatementsAndCommits) {
  EXPECT_TRUE(backend_->capabilities().server_counters);
  Table("sb_counters", "id INT PRIMARY KEY");
  auto before = conn_->ServerCounters();
  ASSERT_TRUE(before.ok()) << before.status().message();
  for (const char* m : {"commits", "rollbacks", "statements.begin", "statements.select",
                        "statements.insert", "statements.update", "statements.delete"}) {
    EXPECT_GE(ByMeaning(*before, m), 0) << m;
  }
  auto select = conn_->Prepare("SELECT count(*) FROM sb_counters WHERE id > ?");
  ASSERT_TRUE(select.ok()) << select.status().message();
  for (int i = 0; i < 3; ++i) {
    (*select)->BindInt(1, i);
    ASSERT_TRUE((*select)->Execute().ok());
    while ((*select)->Next()) {
    }
  }
  auto insert = conn_->Prepare("INSERT INTO sb_counters (id) VALUES (?)");
  ASSERT_TRUE(insert.ok()) << insert.status().message();
  ASSERT_TRUE(conn_->Begin(true).ok());
  (*insert)->BindInt(1, 1);
  ASSERT_TRUE((*insert)->Execute().ok());
  ASSERT_TRUE(conn_->Commit().ok());
  auto after = conn_->ServerCounters();
  ASSERT_TRUE(after.ok()) << after.status().message();
  auto delta = [&](const std::string& m) { return ByMeaning(*after, m) - ByMeaning(*before, m); };
  EXPECT_GE(delta("statements.select"), 3);
  EXPECT_GE(delta("statements.insert"), 1);
  EXPECT_GE(delta("statements.begin"), 1);
  EXPECT_GE(delta("commits"), 1);
  // Executions of server-side prepared statements are counted under Com_stmt_execute too.
  for (const auto& c : *after) {
    if (c.name != "Com_stmt_execute") continue;
    for (const auto& b : *before) {
      if (b.name == c.name) {
        EXPECT_GE(c.value - b.value, 4);
      }
    }
  }
}

}  // namespace
}  // namespace sb::db
