// The back-end contract (storebench/db.h), checked the same way on every database: SQLite on a
// real file, PostgreSQL and MariaDB on the servers of scripts/services.sh (STOREBENCH_PG_URL,
// STOREBENCH_MYSQL_URL; default the storebench_test databases). Without a server its cases
// skip, unless STOREBENCH_REQUIRE_SERVICES=1, when they fail.
//
// The null back end and the skeleton (backend/db/skeleton/) run the capability cases
// (CapabilityTest) and skip, by Capabilities::keeps_data, the cases that read data back: a case
// asks what a back end can do, never its name.
//
// Only portable SQL here: what differs between dialects belongs to each back end's own tests.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "storebench/db.h"
#include "unit/conformance/engines.h"

namespace sb::db {
namespace {

using conformance::Engine;
using conformance::EngineName;
using conformance::ServerUrl;

const Engine kEngines[] = {
    {"sqlite", "sqlite://" + std::string(STOREBENCH_TEST_TMP) + "/conformance.db", false},
    {"postgres", ServerUrl("STOREBENCH_PG_URL", ""), true},
    {"mariadb", ServerUrl("STOREBENCH_MYSQL_URL", ""), true},
    {"null", "null://", false},
    {"skeleton", "skeleton://", false},
};

class ConformanceTest : public ::testing::TestWithParam<Engine> {
 protected:
  void SetUp() override {
    std::string skip;
    ASSERT_NO_FATAL_FAILURE(conformance::OpenBackend(GetParam(), &backend_, &skip));
    if (!skip.empty()) GTEST_SKIP() << skip;
    if (!backend_->capabilities().keeps_data) {
      GTEST_SKIP() << "keeps no data (Capabilities::keeps_data): nothing to read back";
    }
    ASSERT_NO_FATAL_FAILURE(conformance::ConnectEngine(GetParam(), *backend_, &conn_, &skip));
    if (!skip.empty()) GTEST_SKIP() << skip;
  }

  // A fresh table per test, named after it, so tests and engines never meet.
  std::string Table(const std::string& columns) {
    const std::string name =
        "sbt_conf_" +
        std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()).substr(0, 24);
    std::string clean;
    for (char ch : name) clean += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
    EXPECT_TRUE(conn_->ExecuteScript("DROP TABLE IF EXISTS " + clean).ok());
    Status s = conn_->ExecuteScript("CREATE TABLE " + clean + " (" + columns + ")");
    EXPECT_TRUE(s.ok()) << s.message();
    return clean;
  }

  std::unique_ptr<Statement> Prep(const std::string& sql) {
    auto s = conn_->Prepare(sql);
    EXPECT_TRUE(s.ok()) << sql << ": " << s.status().message();
    return s.ok() ? std::move(s).value() : nullptr;
  }

  // The single integer a query returns.
  int64_t Count(const std::string& sql, Connection* on = nullptr) {
    auto s = (on != nullptr ? on : conn_.get())->Prepare(sql);
    EXPECT_TRUE(s.ok()) << sql;
    if (!s.ok()) return -1;
    EXPECT_TRUE((*s)->Execute().ok());
    EXPECT_TRUE((*s)->Next());
    return (*s)->GetInt(0);
  }

  std::unique_ptr<DbBackend> backend_;
  std::unique_ptr<Connection> conn_;
};

TEST_P(ConformanceTest, TypesRoundTripThroughBoundParameters) {
  const std::string t = Table(
      "id INTEGER PRIMARY KEY, big BIGINT, f DOUBLE PRECISION, x NUMERIC(12,2), "
      "name VARCHAR(200), n INTEGER");
  auto ins = Prep("INSERT INTO " + t + " (id, big, f, x, name, n) VALUES (?, ?, ?, ?, ?, ?)");
  ASSERT_NE(ins, nullptr);
  // Quotes, a statement separator, backslash, tab, newline and multi-byte UTF-8: stored as
  // given, because values are bound, never spliced into the SQL.
  const std::string tricky = "a'; DROP TABLE " + t + "; -- \\ \t\n Zoë ✓";
  const int64_t big = std::numeric_limits<int64_t>::max() - 7;
  ins->BindInt(1, 1);
  ins->BindInt(2, big);
  ins->BindDouble(3, 0.1 + 0.2);
  ins->BindDouble(4, 262.09);
  ins->BindText(5, tricky);
  ins->BindInt(6, -42);
  ASSERT_TRUE(ins->Execute().ok());
  EXPECT_EQ(ins->RowsAffected(), 1);
  // Row 2: NULLs of every type, and an empty string that must stay an empty string.
  ins->BindInt(1, 2);
  ins->BindNull(2);
  ins->BindNull(3);
  ins->BindNull(4);
  ins->BindText(5, "");
  ins->BindNull(6);
  ASSERT_TRUE(ins->Execute().ok());

  auto sel = Prep("SELECT big, f, x, name, n FROM " + t + " WHERE id >= ? ORDER BY id");
  ASSERT_NE(sel, nullptr);
  sel->BindInt(1, 1);
  ASSERT_TRUE(sel->Execute().ok());
  ASSERT_TRUE(sel->Next());
  EXPECT_EQ(sel->GetInt(0), big);
  EXPECT_DOUBLE_EQ(sel->GetDouble(1), 0.1 + 0.2);
  EXPECT_DOUBLE_EQ(sel->GetDouble(2), 262.09);
  EXPECT_EQ(sel->GetText(3), tricky);
  EXPECT_EQ(sel->GetInt(4), -42);
  for (int col = 0; col < 5; ++col) EXPECT_FALSE(sel->IsNull(col)) << col;
  ASSERT_TRUE(sel->Next());
  for (int col : {0, 1, 2, 4}) EXPECT_TRUE(sel->IsNull(col)) << col;
  EXPECT_FALSE(sel->IsNull(3));
  EXPECT_EQ(sel->GetText(3), "");
  EXPECT_FALSE(sel->Next());
  EXPECT_TRUE(sel->status().ok());
}

// Integers at both ends of int64_t and around zero, bound and read back (the PostgreSQL back end
// formats them itself), and a parameter rebound from text to an integer to NULL.
TEST_P(ConformanceTest, IntegersAtTheEndsRoundTrip) {
  const std::string t = Table("id INTEGER PRIMARY KEY, big BIGINT, name VARCHAR(20)");
  auto ins = Prep("INSERT INTO " + t + " (id, big, name) VALUES (?, ?, ?)");
  ASSERT_NE(ins, nullptr);
  const std::vector<int64_t> values = {0,
                                       -1,
                                       9,
                                       10,
                                       -10,
                                       99,
                                       100,
                                       -1000,
                                       123456,
                                       std::numeric_limits<int64_t>::max(),
                                       std::numeric_limits<int64_t>::min()};
  for (size_t i = 0; i < values.size(); ++i) {
    ins->BindInt(1, static_cast<int64_t>(i) + 1);
    ins->BindInt(2, values[i]);
    ins->BindText(3, "x");
    ASSERT_TRUE(ins->Execute().ok()) << values[i];
  }
  ins->BindInt(1, 100);
  ins->BindText(2, "77");  // text, then an integer, then NULL on the same parameter
  ins->BindInt(2, 78);
  ins->BindNull(3);
  ASSERT_TRUE(ins->Execute().ok());
  auto sel = Prep("SELECT big, name FROM " + t + " WHERE id = ?");
  ASSERT_NE(sel, nullptr);
  for (size_t i = 0; i < values.size(); ++i) {
    sel->BindInt(1, static_cast<int64_t>(i) + 1);
    ASSERT_TRUE(sel->Execute().ok());
    ASSERT_TRUE(sel->Next());
    EXPECT_EQ(sel->GetInt(0), values[i]);
    EXPECT_EQ(sel->GetText(1), "x");
    EXPECT_FALSE(sel->Next());
  }
  sel->BindInt(1, 100);
  ASSERT_TRUE(sel->Execute().ok());
  ASSERT_TRUE(sel->Next());
  EXPECT_EQ(sel->GetInt(0), 78);
  EXPECT_TRUE(sel->IsNull(1));
  EXPECT_FALSE(sel->Next());
}

// Integers of every column width at their ends, an integer bound to a text parameter, and
// parameters switched between an integer and text from one execution to the next (the
// PostgreSQL back end sends integers for integer parameters in binary and everything else as
// text, per parameter and per bind).
TEST_P(ConformanceTest, IntegersOfEveryWidthAndRebindsBetweenIntegerAndTextRoundTrip) {
  const std::string t =
      Table("id INTEGER PRIMARY KEY, s SMALLINT, i INTEGER, b BIGINT, name VARCHAR(20)");
  auto ins = Prep("INSERT INTO " + t + " (id, s, i, b, name) VALUES (?, ?, ?, ?, ?)");
  ASSERT_NE(ins, nullptr);
  ins->BindInt(1, 1);
  ins->BindInt(2, std::numeric_limits<int16_t>::max());
  ins->BindInt(3, std::numeric_limits<int32_t>::max());
  ins->BindInt(4, std::numeric_limits<int64_t>::max());
  ins->BindInt(5, 42);  // an integer for a text column
  ASSERT_TRUE(ins->Execute().ok());
  ins->BindInt(1, 2);
  ins->BindInt(2, std::numeric_limits<int16_t>::min());
  ins->BindInt(3, std::numeric_limits<int32_t>::min());
  ins->BindInt(4, std::numeric_limits<int64_t>::min());
  ins->BindInt(5, -7);
  ASSERT_TRUE(ins->Execute().ok());
  ins->BindText(1, "3");  // integer parameters as text after integers
  ins->BindText(2, "5");
  ins->BindText(3, "-9");
  ins->BindNull(4);
  ins->BindText(5, "t");
  ASSERT_TRUE(ins->Execute().ok());
  ins->BindInt(1, 4);  // and integers again after text
  ins->BindInt(2, -1);
  ins->BindInt(3, 0);
  ins->BindInt(4, 1);
  ins->BindText(5, "u");
  ASSERT_TRUE(ins->Execute().ok());

  struct Row {
    int64_t s, i, b;
    bool b_null;
    std::string name;
  };
  const std::vector<Row> want = {
      {32767, 2147483647, std::numeric_limits<int64_t>::max(), false, "42"},
      {-32768, -2147483648LL, std::numeric_limits<int64_t>::min(), false, "-7"},
      {5, -9, 0, true, "t"},
      {-1, 0, 1, false, "u"}};
  auto sel = Prep("SELECT s, i, b, name FROM " + t + " WHERE id = ?");
  ASSERT_NE(sel, nullptr);
  for (size_t r = 0; r < want.size(); ++r) {
    sel->BindInt(1, static_cast<int64_t>(r) + 1);
    ASSERT_TRUE(sel->Execute().ok()) << r;
    ASSERT_TRUE(sel->Next()) << r;
    EXPECT_EQ(sel->GetInt(0), want[r].s) << r;
    EXPECT_EQ(sel->GetInt(1), want[r].i) << r;
    EXPECT_EQ(sel->IsNull(2), want[r].b_null) << r;
    if (!want[r].b_null) {
      EXPECT_EQ(sel->GetInt(2), want[r].b) << r;
    }
    EXPECT_EQ(sel->GetText(3), want[r].name) << r;
    EXPECT_FALSE(sel->Next()) << r;
  }
  // Integer parameters compared with each width's columns find the rows with the ends.
  auto by = Prep("SELECT id FROM " + t + " WHERE s = ? AND i = ? AND b = ?");
  ASSERT_NE(by, nullptr);
  by->BindInt(1, std::numeric_limits<int16_t>::min());
  by->BindInt(2, std::numeric_limits<int32_t>::min());
  by->BindInt(3, std::numeric_limits<int64_t>::min());
  ASSERT_TRUE(by->Execute().ok());
  ASSERT_TRUE(by->Next());
  EXPECT_EQ(by->GetInt(0), 2);
  EXPECT_FALSE(by->Next());
}

TEST_P(ConformanceTest, StatementsAreReusedWithNewBindingsAndCountRowsAffected) {
  const std::string t = Table("id INTEGER PRIMARY KEY, v INTEGER");
  auto ins = Prep("INSERT INTO " + t + " (id, v) VALUES (?, ?)");
  ASSERT_NE(ins, nullptr);
  for (int i = 1; i <= 5; ++i) {
    ins->BindInt(1, i);
    ins->BindInt(2, i * 10);
    ASSERT_TRUE(ins->Execute().ok());
  }
  auto sel = Prep("SELECT id FROM " + t + " WHERE v > ? ORDER BY id");
  ASSERT_NE(sel, nullptr);
  sel->BindInt(1, 0);
  ASSERT_TRUE(sel->Execute().ok());
  ASSERT_TRUE(sel->Next());  // leaves four rows unread ...
  sel->BindInt(1, 30);       // ... which the next Execute discards
  ASSERT_TRUE(sel->Execute().ok());
  ASSERT_TRUE(sel->Next());
  EXPECT_EQ(sel->GetInt(0), 4);
  ASSERT_TRUE(sel->Next());
  EXPECT_EQ(sel->GetInt(0), 5);
  EXPECT_FALSE(sel->Next());

  auto upd = Prep("UPDATE " + t + " SET v = v + ? WHERE id <= ?");
  ASSERT_NE(upd, nullptr);
  upd->BindInt(1, 1);
  upd->BindInt(2, 2);
  ASSERT_TRUE(upd->Execute().ok());
  EXPECT_EQ(upd->RowsAffected(), 2);
  upd->BindInt(2, 0);
  ASSERT_TRUE(upd->Execute().ok());
  EXPECT_EQ(upd->RowsAffected(), 0);
  EXPECT_EQ(Count("SELECT sum(v) FROM " + t), 10 + 20 + 30 + 40 + 50 + 2);
}

// Back ends keep bound values between executions (the MariaDB one gives the binding to the
// library again only when a type or a text buffer changed): each execution must still send its
// own values, through a text that grows past its buffer, a NULL and back.
TEST_P(ConformanceTest, ReboundTextGrowingNullAndBackSendsEachExecutionsValues) {
  const std::string t = Table("id INTEGER PRIMARY KEY, name VARCHAR(300)");
  auto ins = Prep("INSERT INTO " + t + " (id, name) VALUES (?, ?)");
  ASSERT_NE(ins, nullptr);
  const std::vector<std::string> names = {"a", std::string(40, 'b'), std::string(280, 'c'), "",
                                          "d"};
  for (size_t i = 0; i < names.size(); ++i) {
    ins->BindInt(1, static_cast<int64_t>(i) + 1);
    ins->BindText(2, names[i]);
    ASSERT_TRUE(ins->Execute().ok()) << i;
  }
  ins->BindInt(1, 6);
  ins->BindNull(2);
  ASSERT_TRUE(ins->Execute().ok());
  ins->BindInt(1, 7);
  ins->BindText(2, "e");
  ASSERT_TRUE(ins->Execute().ok());
  auto sel = Prep("SELECT name FROM " + t + " WHERE id = ?");
  ASSERT_NE(sel, nullptr);
  for (int64_t id = 1; id <= 7; ++id) {
    sel->BindInt(1, id);
    ASSERT_TRUE(sel->Execute().ok()) << id;
    ASSERT_TRUE(sel->Next()) << id;
    if (id == 6) {
      EXPECT_TRUE(sel->IsNull(0));
    } else {
      EXPECT_EQ(sel->GetText(0), id == 7 ? "e" : names[static_cast<size_t>(id) - 1]) << id;
    }
    EXPECT_FALSE(sel->Next());
  }
}

TEST_P(ConformanceTest, DiscardedRowsLeaveTheStatementAndConnectionReady) {
  const std::string t = Table("id INTEGER PRIMARY KEY, v INTEGER");
  auto ins = Prep("INSERT INTO " + t + " (id, v) VALUES (?, ?)");
  ASSERT_NE(ins, nullptr);
  for (int i = 1; i <= 50; ++i) {
    ins->BindInt(1, i);
    ins->BindInt(2, i);
    ASSERT_TRUE(ins->Execute().ok());
  }
  auto sel = Prep("SELECT id, v FROM " + t + " WHERE id >= ? ORDER BY id");
  ASSERT_NE(sel, nullptr);
  sel->BindInt(1, 1);
  ASSERT_TRUE(sel->Execute().ok());
  const Status discarded = sel->DiscardRows();
  EXPECT_TRUE(discarded.ok()) << discarded.message();
  EXPECT_TRUE(sel->status().ok());
  EXPECT_FALSE(sel->Next());  // nothing left of the discarded result
  // Another statement on the same connection, then this one again, read normally.
  auto count = Prep("SELECT count(*) FROM " + t);
  ASSERT_NE(count, nullptr);
  ASSERT_TRUE(count->Execute().ok());
  ASSERT_TRUE(count->Next());
  EXPECT_EQ(count->GetInt(0), 50);
  EXPECT_FALSE(count->Next());
  sel->BindInt(1, 49);
  ASSERT_TRUE(sel->Execute().ok());
  ASSERT_TRUE(sel->Next());
  EXPECT_EQ(sel->GetInt(0), 49);
  ASSERT_TRUE(sel->Next());
  EXPECT_EQ(sel->GetInt(1), 50);
  EXPECT_FALSE(sel->Next());
  // Discarding after the last row, or with no result at all, is harmless.
  EXPECT_TRUE(sel->DiscardRows().ok());
  EXPECT_TRUE(ins->DiscardRows().ok());
}

TEST_P(ConformanceTest, TransactionsCommitRollBackAndIsolateUncommittedRows) {
  const std::string t = Table("id INTEGER PRIMARY KEY");
  auto other = backend_->Connect();
  ASSERT_TRUE(other.ok()) << other.status().message();
  auto ins = Prep("INSERT INTO " + t + " (id) VALUES (?)");
  ASSERT_NE(ins, nullptr);
  ASSERT_TRUE(conn_->Begin(true).ok());
  ins->BindInt(1, 1);
  ASSERT_TRUE(ins->Execute().ok());
  EXPECT_EQ(Count("SELECT count(*) FROM " + t), 1);  // seen inside the transaction
  ASSERT_TRUE(conn_->Rollback().ok());
  EXPECT_EQ(Count("SELECT count(*) FROM " + t), 0);

  ASSERT_TRUE(conn_->Begin(true).ok());
  ins->BindInt(1, 2);
  ASSERT_TRUE(ins->Execute().ok());
  EXPECT_EQ(Count("SELECT count(*) FROM " + t, other->get()), 0);  // not committed yet
  ASSERT_TRUE(conn_->Commit().ok());
  EXPECT_EQ(Count("SELECT count(*) FROM " + t, other->get()), 1);
  EXPECT_EQ(Count("SELECT max(id) FROM " + t, other->get()), 2);
  EXPECT_TRUE(conn_->Rollback().ok());  // nothing open: a no-op
}

TEST_P(ConformanceTest, ErrorsHaveTheirCategories) {
  const std::string t = Table("id INTEGER PRIMARY KEY, name VARCHAR(20) NOT NULL");
  auto ins = Prep("INSERT INTO " + t + " (id, name) VALUES (?, ?)");
  ASSERT_NE(ins, nullptr);
  ins->BindInt(1, 1);
  ins->BindText(2, "a");
  ASSERT_TRUE(ins->Execute().ok());
  Status dup = ins->Execute();
  EXPECT_EQ(dup.code(), StatusCode::kDbError);
  EXPECT_EQ(dup.category(), ErrorCategory::kConstraint) << dup.message();
  ins->BindInt(1, 2);
  ins->BindNull(2);
  Status null = ins->Execute();
  EXPECT_EQ(null.category(), ErrorCategory::kConstraint) << null.message();

  // Syntax errors and missing tables may surface at Prepare or at Execute, depending on the
  // back end; either way the category is kSyntax (the driver never retries it).
  for (const std::string sql : {"SELEC 1", "SELECT * FROM sbt_conf_no_such_table"}) {
    auto bad = conn_->Prepare(sql);
    Status s = bad.ok() ? (*bad)->Execute() : bad.status();
    EXPECT_EQ(s.code(), StatusCode::kDbError) << sql;
    EXPECT_EQ(s.category(), ErrorCategory::kSyntax) << sql << ": " << s.message();
  }
  // The connection stays usable after errors.
  EXPECT_EQ(Count("SELECT count(*) FROM " + t), 1);
}

TEST_P(ConformanceTest, BulkWriterLoadsTextFieldsExactly) {
  const std::string t = Table("id INTEGER PRIMARY KEY, name VARCHAR(100), x NUMERIC(12,2)");
  auto w = backend_->NewBulkWriter(t, {"id", "name", "x"});
  ASSERT_TRUE(w.ok()) << w.status().message();
  const std::string tricky = "tab\there back\\slash new\nline 'quote' \"dq\" Zoë";
  // 200 000 rows: several rounds of the back ends' buffers (MariaDB sends 4 MiB at a time).
  for (int i = 1; i <= 200000; ++i) {
    const std::string id = std::to_string(i);
    ASSERT_TRUE((*w)->AddRow({id, i == 7 ? std::string_view(tricky) : "", "28.99"}).ok());
  }
  ASSERT_TRUE((*w)->Finish().ok());
  EXPECT_EQ(Count("SELECT count(*) FROM " + t), 200000);
  auto sum = Prep("SELECT sum(x) FROM " + t);
  ASSERT_NE(sum, nullptr);
  ASSERT_TRUE(sum->Execute().ok());
  ASSERT_TRUE(sum->Next());
  // SQLite keeps NUMERIC as a double, the servers as exact decimals.
  EXPECT_NEAR(sum->GetDouble(0), 200000 * 28.99, 1e-4);
  auto sel = Prep("SELECT name FROM " + t + " WHERE id = ?");
  ASSERT_NE(sel, nullptr);
  sel->BindInt(1, 7);
  ASSERT_TRUE(sel->Execute().ok());
  ASSERT_TRUE(sel->Next());
  EXPECT_EQ(sel->GetText(0), tricky);
  sel->BindInt(1, 8);
  ASSERT_TRUE(sel->Execute().ok());
  ASSERT_TRUE(sel->Next());
  EXPECT_FALSE(sel->IsNull(0));  // "" is an empty string, not NULL
  EXPECT_EQ(sel->GetText(0), "");

  // A table that does not exist fails the load, at the writer's creation or at Finish.
  auto bad = backend_->NewBulkWriter("sbt_conf_no_such_table", {"id"});
  Status s;
  if (bad.ok()) {
    s = (*bad)->AddRow({"1"});
    if (s.ok()) s = (*bad)->Finish();
  } else {
    s = bad.status();
  }
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kDbError) << s.message();
}

TEST_P(ConformanceTest, BulkWriterLoadsNullFields) {
  const std::string t = Table("id INTEGER PRIMARY KEY, n INTEGER, d VARCHAR(20)");
  auto w = backend_->NewBulkWriter(t, {"id", "n", "d"});
  ASSERT_TRUE(w.ok()) << w.status().message();
  ASSERT_TRUE((*w)->AddRow({"1", db::kBulkNull, db::kBulkNull}).ok());
  ASSERT_TRUE((*w)->AddRow({"2", "5", "\\N"}).ok());  // the text \N, not NULL
  ASSERT_TRUE((*w)->Finish().ok());
  EXPECT_EQ(Count("SELECT count(*) FROM " + t + " WHERE n IS NULL AND d IS NULL"), 1);
  EXPECT_EQ(Count("SELECT count(*) FROM " + t + " WHERE id = 2 AND n = 5 AND d IS NOT NULL"), 1);
  auto sel = Prep("SELECT d FROM " + t + " WHERE id = 2");
  ASSERT_NE(sel, nullptr);
  ASSERT_TRUE(sel->Execute().ok());
  ASSERT_TRUE(sel->Next());
  EXPECT_EQ(sel->GetText(0), "\\N");
}

// NewSoleBulkWriter: the whole table in one transaction of the writer's own. Rows of a writer
// destroyed before Finish are not left behind (a stopped load leaves no half-table); after
// Finish every row is there, exactly, and the back end says what its sole writers do when they
// differ from NewBulkWriter's (recorded with the load).
TEST_P(ConformanceTest, SoleBulkWriterCommitsOnceAtFinish) {
  const std::string t = Table("id INTEGER PRIMARY KEY, name VARCHAR(100)");
  const std::string tricky = "tab\there back\\slash Zoë";
  {
    auto w = backend_->NewSoleBulkWriter(t, {"id", "name"});
    ASSERT_TRUE(w.ok()) << w.status().message();
    // More than one of the back ends' buffers: MariaDB sends 4 MiB (~110 000 of these rows)
    // per statement, SQLite commits every 50 000 rows outside a sole writer.
    for (int i = 1; i <= 150000; ++i) {
      ASSERT_TRUE((*w)->AddRow({std::to_string(i), "abandoned row of a stopped load"}).ok());
    }
  }  // destroyed without Finish
  EXPECT_EQ(Count("SELECT count(*) FROM " + t), 0);
  auto w = backend_->NewSoleBulkWriter(t, {"id", "name"});
  ASSERT_TRUE(w.ok()) << w.status().message();
  for (int i = 1; i <= 150000; ++i) {
    ASSERT_TRUE((*w)->AddRow({std::to_string(i), i == 7 ? std::string_view(tricky) : "x"}).ok());
  }
  ASSERT_TRUE((*w)->Finish().ok());
  EXPECT_EQ(Count("SELECT count(*) FROM " + t), 150000);
  auto sel = Prep("SELECT name FROM " + t + " WHERE id = ?");
  ASSERT_NE(sel, nullptr);
  sel->BindInt(1, 7);
  ASSERT_TRUE(sel->Execute().ok());
  ASSERT_TRUE(sel->Next());
  EXPECT_EQ(sel->GetText(0), tricky);
  if (backend_->capabilities().server) {
    EXPECT_NE(backend_->SoleBulkWriterSession(), "");
  }
}

// NewSplitBulkWriter: two writers load one table at the same time, each in its own
// transaction. The first has sent a statement (more than MariaDB's 4 MiB buffer) and keeps its
// transaction open while the second sends and commits its own rows: a writer that took the table
// for itself (InnoDB's bulk insert into an empty table) would hold the second up until the
// lock wait timeout and fail it. A writer destroyed before Finish leaves none of its rows.
TEST_P(ConformanceTest, SplitBulkWritersLoadOneTableSideBySide) {
  if (!backend_->capabilities().split_bulk_writers) {
    GTEST_SKIP() << "no split bulk writers (CapabilityTest checks they are refused)";
  }
  const std::string t = Table("id INTEGER PRIMARY KEY, name VARCHAR(100)");
  constexpr int kRows = 150000;  // per writer: more than one 4 MiB statement of these rows
  auto first = backend_->NewSplitBulkWriter(t, {"id", "name"});
  ASSERT_TRUE(first.ok()) << first.status().message();
  for (int i = 1; i <= kRows; ++i) {
    ASSERT_TRUE(
        (*first)->AddRow({std::to_string(i), "a row of the first half, padded to 40 bytes"}).ok());
  }
  {
    auto abandoned = backend_->NewSplitBulkWriter(t, {"id", "name"});
    ASSERT_TRUE(abandoned.ok()) << abandoned.status().message();
    for (int i = 2 * kRows + 1; i <= 3 * kRows; ++i) {
      ASSERT_TRUE((*abandoned)
                      ->AddRow({std::to_string(i), "an abandoned row of a stopped load, padded"})
                      .ok());
    }
  }  // destroyed without Finish
  auto second = backend_->NewSplitBulkWriter(t, {"id", "name"});
  ASSERT_TRUE(second.ok()) << second.status().message();
  for (int i = kRows + 1; i <= 2 * kRows; ++i) {
    Status s =
        (*second)->AddRow({std::to_string(i), "a row of the second half, padded to 40 byte"});
    ASSERT_TRUE(s.ok()) << s.message();
  }
  Status s = (*second)->Finish();
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(Count("SELECT count(*) FROM " + t + " WHERE id > " + std::to_string(kRows)), kRows);
  s = (*first)->Finish();
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(Count("SELECT count(*) FROM " + t), 2 * kRows);
  EXPECT_NE(backend_->SplitBulkWriterSession(), "");
}

// TryLock: a second lock on the database is refused at once with the first holder's words, and
// the database is free again once the first lock is destroyed. (A server learns of the holder's
// words and of its release a moment after the client: those checks wait up to 10 s.)
TEST_P(ConformanceTest, TryLockRefusesASecondHolderAndNamesTheFirst) {
  ASSERT_TRUE(backend_->capabilities().storebench_lock);
  const std::string first = "storebench conformance test (pid 101 on host h1, since today)";
  auto lock = backend_->TryLock(first);
  ASSERT_TRUE(lock.ok()) << lock.status().message();
  auto refused = [&](const std::string& expect) {
    Status last;
    for (int i = 0; i < 100; ++i) {
      auto second = backend_->TryLock("storebench second (pid 202 on host h2, since now)");
      if (second.ok()) return Status::Internal("a second lock was granted");
      last = second.status();
      if (last.code() == StatusCode::kFailedPrecondition && last.message() == expect) return last;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return last;
  };
  Status s = refused(first);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition) << s.message();
  EXPECT_EQ(s.message(), first);
  const auto t0 = std::chrono::steady_clock::now();
  auto again = backend_->TryLock("x");
  EXPECT_FALSE(again.ok());
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5)) << "it must not wait";

  lock->reset();
  Result<std::unique_ptr<DbLock>> after = Status::Internal("not tried");
  for (int i = 0; i < 100; ++i) {
    after = backend_->TryLock("storebench third (pid 303 on host h3, since later)");
    if (after.ok()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_TRUE(after.ok()) << "not free after release: " << after.status().message();
}

// A lock told its server is silent (DbLock::ServerSilent: a run's workers stalled) releases
// without a statement the server would not answer; a server that does answer still ends the
// closed session, and the database is free again (polled up to 10 s, as above).
TEST_P(ConformanceTest, LockToldTheServerIsSilentIsStillReleased) {
  ASSERT_TRUE(backend_->capabilities().storebench_lock);
  auto lock = backend_->TryLock("storebench conformance test (pid 101 on host h1, since today)");
  ASSERT_TRUE(lock.ok()) << lock.status().message();
  (*lock)->ServerSilent();
  lock->reset();
  Result<std::unique_ptr<DbLock>> after = Status::Internal("not tried");
  for (int i = 0; i < 100; ++i) {
    after = backend_->TryLock("storebench second (pid 202 on host h2, since later)");
    if (after.ok()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_TRUE(after.ok()) << "not free after release: " << after.status().message();
}

INSTANTIATE_TEST_SUITE_P(AllBackends, ConformanceTest, ::testing::ValuesIn(kEngines), EngineName);

// What every back end must do whatever it can do: say what it can (Capabilities that agree with
// each other), refuse politely what it cannot (a Status with a reason, never a crash or a
// silent success), and name its SQL folder. The back end is opened without a connection: these
// cases run on the skeleton, whose Connect refuses.
class CapabilityTest : public ::testing::TestWithParam<Engine> {
 protected:
  void SetUp() override {
    std::string skip;
    ASSERT_NO_FATAL_FAILURE(conformance::OpenBackend(GetParam(), &backend_, &skip));
    if (!skip.empty()) GTEST_SKIP() << skip;
  }

  // A refusal: not OK, with a message saying why, and not kInternal (a refusal is no broken
  // invariant).
  static void ExpectPoliteRefusal(const Status& s, const std::string& call) {
    EXPECT_FALSE(s.ok()) << call << " succeeded";
    EXPECT_FALSE(s.message().empty()) << call << " refused without saying why";
    EXPECT_NE(s.code(), StatusCode::kInternal) << call << ": " << s.message();
  }

  std::unique_ptr<DbBackend> backend_;
};

// db.h's Capabilities comments: counters' details need counters, counters need a server, and a
// back end that keeps no data has no copies of it and no writers to split.
TEST_P(CapabilityTest, CapabilitiesAgreeWithEachOther) {
  const Capabilities& c = backend_->capabilities();
  EXPECT_TRUE(!c.server_counters || c.server);
  EXPECT_TRUE(!c.server_counters_lag || c.server_counters);
  EXPECT_TRUE(!c.statement_counters_include_failed || c.server_counters);
  EXPECT_TRUE(!c.pristine_copy || c.keeps_data);
  EXPECT_TRUE(!c.split_bulk_writers || c.keeps_data);
}

// The workloads' SQL files are looked up in sql/<dialect>/ (workload/sql_files.h): a folder name.
TEST_P(CapabilityTest, DialectNamesASqlFolder) {
  const std::string d = backend_->dialect();
  ASSERT_FALSE(d.empty());
  for (char ch : d) {
    EXPECT_TRUE((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_') << d;
  }
  EXPECT_NE(d, "common") << "sql/common/ holds the files every dialect shares";
}

TEST_P(CapabilityTest, SplitBulkWritersAreRefusedWithoutTheCapability) {
  if (backend_->capabilities().split_bulk_writers) {
    GTEST_SKIP() << "has split bulk writers (ConformanceTest loads with them)";
  }
  auto w = backend_->NewSplitBulkWriter("sbt_conf_split", {"id"});
  ExpectPoliteRefusal(w.status(), "NewSplitBulkWriter");
}

// Without pristine_copy both calls refuse and leave the caller's lock where it was.
TEST_P(CapabilityTest, PristineCopiesAreRefusedWithoutTheCapability) {
  if (backend_->capabilities().pristine_copy) {
    GTEST_SKIP() << "keeps pristine copies (each back end's own tests check them)";
  }
  std::unique_ptr<DbLock> lock = std::make_unique<DbLock>();
  DbLock* const held = lock.get();
  auto saved = backend_->SavePristine(&lock, "storebench conformance test");
  ExpectPoliteRefusal(saved.status(), "SavePristine");
  auto restored = backend_->RestorePristine(&lock, "storebench conformance test");
  ExpectPoliteRefusal(restored.status(), "RestorePristine");
  EXPECT_EQ(lock.get(), held);
}

// Calls a back end may fail (no server, no such table, not implemented): when one fails, its
// Status says why. A back end that can do them all passes trivially.
TEST_P(CapabilityTest, FailedCallsSayWhy) {
  auto describe = backend_->Describe();
  if (!describe.ok()) ExpectPoliteRefusal(describe.status(), "Describe");
  auto conn = backend_->Connect();
  if (!conn.ok()) ExpectPoliteRefusal(conn.status(), "Connect");
  // Dropped before Finish: nothing is written.
  auto writer = backend_->NewBulkWriter("sbt_conf_no_such_table", {"id"});
  if (!writer.ok()) ExpectPoliteRefusal(writer.status(), "NewBulkWriter");
}

INSTANTIATE_TEST_SUITE_P(AllBackends, CapabilityTest, ::testing::ValuesIn(kEngines), EngineName);

}  // namespace
}  // namespace sb::db
