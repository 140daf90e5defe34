// The workloads' shared SQL-file layer: the dialect fallback to sql/common/, named texts,
// placeholders, and QueryInts on a real SQLite file.
#include "workload/sql_files.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "backend/db/sqlite/sqlite_backend.h"
#include "workload/named_sql.h"
#include "workload/query_ints.h"

namespace sb::workload {
namespace {

const std::map<std::string, std::string>& Files() {
  static const std::map<std::string, std::string> files = {
      {"sqlite/queries.sql", "-- name: q\nSELECT 1\n"},
      {"common/queries.sql", "-- name: q\nSELECT 2 FOR UPDATE\n"},
      {"common/admin.sql", "-- name: count\nSELECT count(*) FROM t\n"},
      {"postgres/calls.sql", "-- name: c\nSELECT f(?)\n"},
  };
  return files;
}

TEST(SqlFilesTest, TheDialectsOwnFileWinsElseTheCommonOne) {
  const SqlFiles files(Files(), "test");
  ASSERT_NE(files.Find("sqlite", "queries.sql"), nullptr);
  EXPECT_EQ(*files.Find("sqlite", "queries.sql"), "-- name: q\nSELECT 1\n");
  ASSERT_NE(files.Find("mysql", "queries.sql"), nullptr);
  EXPECT_EQ(*files.Find("mysql", "queries.sql"), "-- name: q\nSELECT 2 FOR UPDATE\n");
  // A file only in common/ serves every dialect.
  for (const char* dialect : {"sqlite", "postgres", "mysql", "null"}) {
    auto admin = files.Statements(dialect, "admin.sql");
    ASSERT_TRUE(admin.ok()) << dialect;
    EXPECT_EQ(admin->at("count"), "SELECT count(*) FROM t\n");
  }
  // A dialect's own file is not shared with the others.
  EXPECT_NE(files.Find("postgres", "calls.sql"), nullptr);
  EXPECT_EQ(files.Find("mysql", "calls.sql"), nullptr);
}

TEST(SqlFilesTest, NeitherFileIsNotFoundNamingWorkloadFileAndDialect) {
  const SqlFiles files(Files(), "test");
  auto script = files.Script("mysql", "calls.sql");
  ASSERT_FALSE(script.ok());
  EXPECT_EQ(script.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(script.status().message(), "the test workload has no calls.sql for the mysql back end");
  EXPECT_EQ(files.Statements("mysql", "calls.sql").status().message(), script.status().message());
  EXPECT_EQ(files.Texts("mysql", "calls.sql").status().code(), StatusCode::kNotFound);
}

TEST(NamedSqlTest, TextsDropTheLastNewlineOnly) {
  const auto texts = ParseNamedText(
      "-- Not SQL.\n\n-- name: one\nfirst line\nsecond line\n-- name: two\n  spaced  \n");
  ASSERT_EQ(texts.size(), 2u);
  EXPECT_EQ(texts.at("one"), "first line\nsecond line");
  EXPECT_EQ(texts.at("two"), "  spaced  ");
}

TEST(NamedSqlTest, ReplaceAllFillsEveryPlaceholderOnce) {
  std::string text = "SELECT * FROM {table} JOIN {table}_x";
  ReplaceAll(text, "{table}", "sbtest1");
  EXPECT_EQ(text, "SELECT * FROM sbtest1 JOIN sbtest1_x");
  // A value holding the placeholder is not filled in again (no endless loop).
  std::string nested = "{t}-{t}";
  ReplaceAll(nested, "{t}", "<{t}>");
  EXPECT_EQ(nested, "<{t}>-<{t}>");
}

std::unique_ptr<db::Connection> SqliteConnection(std::unique_ptr<db::DbBackend>* backend) {
  std::filesystem::create_directories(STOREBENCH_TEST_TMP);
  // One file per case: ctest runs each case as its own process, two at a time.
  const std::string path = std::string(STOREBENCH_TEST_TMP) + "/query_ints_" +
                           ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".db";
  for (const char* s : {"", "-wal", "-shm"}) std::filesystem::remove(path + s);
  db::BackendOptions options;
  options.create_if_missing = true;
  *backend = std::move(db::OpenSqlite(*db::ParseDbUrl("sqlite://" + path), options)).value();
  auto conn = std::move((*backend)->Connect()).value();
  EXPECT_TRUE(conn->ExecuteScript("CREATE TABLE t (a INTEGER, b INTEGER);"
                                  "INSERT INTO t VALUES (1, 10), (2, 20), (3, 30);")
                  .ok());
  return conn;
}

TEST(QueryIntsTest, FirstRowsColumns) {
  std::unique_ptr<db::DbBackend> backend;
  auto conn = SqliteConnection(&backend);
  auto n = QueryInts(*conn, "SELECT count(*), max(b), sum(a) FROM t", 3);
  ASSERT_TRUE(n.ok()) << n.status().message();
  EXPECT_EQ(*n, (std::vector<int64_t>{3, 30, 6}));
  // Only the first row is read.
  auto first = QueryInts(*conn, "SELECT a FROM t ORDER BY a DESC");
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(*first, (std::vector<int64_t>{3}));
}

TEST(QueryIntsTest, NoRowReadsAsZeros) {
  std::unique_ptr<db::DbBackend> backend;
  auto conn = SqliteConnection(&backend);
  auto n = QueryInts(*conn, "SELECT a, b FROM t WHERE a > 100", 2);
  ASSERT_TRUE(n.ok()) << n.status().message();
  EXPECT_EQ(*n, (std::vector<int64_t>{0, 0}));
}

TEST(QueryIntsTest, AFailingQueryIsAnError) {
  std::unique_ptr<db::DbBackend> backend;
  auto conn = SqliteConnection(&backend);
  EXPECT_FALSE(QueryInts(*conn, "SELECT count(*) FROM no_such_table").ok());
}

}  // namespace
}  // namespace sb::workload
