// SQLite's bulk writer holds rows and inserts them many to a statement (sqlite_bulk_writer.h):
// every row must land in its own place with its own values whatever its position in a
// statement, the rows left over at Finish included, and an error must name its rows.
#include "backend/db/sqlite/sqlite_bulk_writer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "backend/db/sqlite/sqlite_backend.h"

namespace sb::db {
namespace {

class SqliteBulkWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(STOREBENCH_TEST_TMP);
    // A file per test: ctest runs this binary's tests as separate processes at once.
    path_ = std::string(STOREBENCH_TEST_TMP) + "/bulk_writer_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".db";
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path_ + suffix);
    BackendOptions o;
    o.create_if_missing = true;
    auto b = OpenSqlite(*ParseDbUrl("sqlite://" + path_), o);
    ASSERT_TRUE(b.ok()) << b.status().message();
    backend_ = std::move(b).value();
    auto c = backend_->Connect();
    ASSERT_TRUE(c.ok()) << c.status().message();
    conn_ = std::move(c).value();
  }

  int64_t Int(const std::string& sql) {
    auto stmt = conn_->Prepare(sql);
    EXPECT_TRUE(stmt.ok()) << sql;
    if (!stmt.ok()) return -1;
    EXPECT_TRUE((*stmt)->Execute().ok()) << sql;
    EXPECT_TRUE((*stmt)->Next()) << sql;
    return (*stmt)->GetInt(0);
  }

  std::string path_;
  std::unique_ptr<DbBackend> backend_;
  std::unique_ptr<Connection> conn_;
};

// 1000 rows: 15 full statements of 64 rows and 40 left for Finish. Every 7th row has a NULL
// and every 5th an empty string (not NULL), in every position of a statement; the text column
// is the id's own digits, so a row bound with another row's values shows.
TEST_F(SqliteBulkWriterTest, EveryRowKeepsItsOwnValuesInAndAcrossStatements) {
  ASSERT_TRUE(
      conn_->ExecuteScript("CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER, s TEXT, v TEXT)")
          .ok());
  auto w = backend_->NewBulkWriter("t", {"id", "n", "s", "v"});
  ASSERT_TRUE(w.ok()) << w.status().message();
  for (int i = 1; i <= 1000; ++i) {
    const std::string id = std::to_string(i);
    const std::string n = std::to_string(i * 3);
    const std::string s = "row " + id;
    ASSERT_TRUE((*w)->AddRow({id, i % 7 == 0 ? kBulkNull : std::string_view(n), s,
                              i % 5 == 0 ? std::string_view() : std::string_view(s)})
                    .ok())
        << i;
  }
  ASSERT_TRUE((*w)->Finish().ok());
  EXPECT_EQ(Int("SELECT count(*) FROM t"), 1000);
  EXPECT_EQ(Int("SELECT count(*) FROM t WHERE s = 'row ' || id"), 1000);
  EXPECT_EQ(Int("SELECT count(*) FROM t WHERE n IS NULL"), 1000 / 7);
  EXPECT_EQ(Int("SELECT count(*) FROM t WHERE id % 7 != 0 AND n = id * 3"), 1000 - 1000 / 7);
  EXPECT_EQ(Int("SELECT count(*) FROM t WHERE typeof(n) = 'integer'"), 1000 - 1000 / 7);
  EXPECT_EQ(Int("SELECT count(*) FROM t WHERE v = ''"), 1000 / 5);
  EXPECT_EQ(Int("SELECT count(*) FROM t WHERE v IS NULL"), 0);
  EXPECT_EQ(Int("SELECT count(*) FROM t WHERE id % 5 != 0 AND v = s"), 1000 - 1000 / 5);
}

// A duplicate key inside a full statement fails the load with a constraint error naming the
// statement's first row, and one among the rows left for Finish names that row itself.
TEST_F(SqliteBulkWriterTest, AnErrorNamesItsRows) {
  ASSERT_TRUE(conn_->ExecuteScript("CREATE TABLE t (id INTEGER PRIMARY KEY, x TEXT)").ok());
  {
    auto w = backend_->NewBulkWriter("t", {"id", "x"});
    ASSERT_TRUE(w.ok()) << w.status().message();
    Status s;
    for (int i = 1; i <= 200 && s.ok(); ++i) {
      s = (*w)->AddRow({std::to_string(i == 100 ? 99 : i), "x"});  // 99 twice
    }
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.category(), ErrorCategory::kConstraint) << s.message();
    EXPECT_NE(s.message().find("the first starting '65'"), std::string::npos) << s.message();
  }
  ASSERT_TRUE(conn_->ExecuteScript("DELETE FROM t").ok());
  auto w = backend_->NewBulkWriter("t", {"id", "x"});
  ASSERT_TRUE(w.ok()) << w.status().message();
  for (int i = 1; i <= 70; ++i) ASSERT_TRUE((*w)->AddRow({std::to_string(i), "x"}).ok());
  ASSERT_TRUE((*w)->AddRow({"3", "x"}).ok());  // held: the 7 rows after the first 64
  Status s = (*w)->Finish();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.category(), ErrorCategory::kConstraint) << s.message();
  EXPECT_NE(s.message().find("row starting '3'"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace sb::db
