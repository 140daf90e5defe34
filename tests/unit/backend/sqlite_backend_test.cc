#include "backend/db/sqlite/sqlite_backend.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

namespace sb::db {
namespace {

std::string TmpFile(const std::string& name) {
  std::filesystem::create_directories(STOREBENCH_TEST_TMP);
  const std::string path = std::string(STOREBENCH_TEST_TMP) + "/" + name;
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
  return path;
}

Result<std::unique_ptr<DbBackend>> Open(const std::string& path, bool create) {
  BackendOptions o;
  o.create_if_missing = create;
  return OpenSqlite(*ParseDbUrl("sqlite://" + path), o);
}

TEST(DbUrlTest, ParsesSchemesAndRejectsPasswords) {
  auto s = ParseDbUrl("sqlite:///tmp/x.db");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->scheme, "sqlite");
  EXPECT_EQ(s->database, "/tmp/x.db");
  auto pg = ParseDbUrl("postgresql://bench@127.0.0.1:5432/ds3?sslmode=disable");
  ASSERT_TRUE(pg.ok());
  EXPECT_EQ(pg->user, "bench");
  EXPECT_EQ(pg->host, "127.0.0.1");
  EXPECT_EQ(pg->port, 5432);
  EXPECT_EQ(pg->database, "ds3");
  EXPECT_EQ(pg->params.at("sslmode"), "disable");
  EXPECT_FALSE(ParseDbUrl("postgresql://bench:secret@host/ds3").ok());
  EXPECT_FALSE(ParseDbUrl("mysql://u@h/db?password=x").ok());
  EXPECT_FALSE(ParseDbUrl("/tmp/x.db").ok());
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Opening someone else's database must not change it: a connection used to switch every file to
// WAL mode (header bytes 18/19 and the change counter) before the workload refused it.
TEST(SqliteBackendTest, ConnectingLeavesAForeignDatabaseByteForByte) {
  const std::string path = TmpFile("foreign.db");
  {
    auto b = Open(path, true);
    ASSERT_TRUE(b.ok());
    auto c = (*b)->Connect();
    ASSERT_TRUE(c.ok()) << c.status().message();
    ASSERT_TRUE((*c)->ExecuteScript("PRAGMA journal_mode=DELETE; CREATE TABLE theirs (x); "
                                    "INSERT INTO theirs VALUES (1);")
                    .ok());
  }
  const std::string before = ReadAll(path);
  ASSERT_GT(before.size(), 100u);
  ASSERT_EQ(before[18], 1) << "a rollback-journal database";
  for (bool create : {false, true}) {
    auto b = Open(path, create);
    ASSERT_TRUE(b.ok());
    auto c = (*b)->Connect();
    ASSERT_TRUE(c.ok()) << c.status().message();
    auto stmt = (*c)->Prepare("SELECT count(*) FROM theirs");
    ASSERT_TRUE(stmt.ok());
    ASSERT_TRUE((*stmt)->Execute().ok());
  }
  EXPECT_TRUE(ReadAll(path) == before) << "the file changed";
  EXPECT_FALSE(std::filesystem::exists(path + "-wal"));
}

TEST(SqliteBackendTest, LoadSwitchesANewDatabaseToWal) {
  const std::string path = TmpFile("new-wal.db");
  auto b = Open(path, true);
  ASSERT_TRUE(b.ok());
  auto c = (*b)->Connect();
  ASSERT_TRUE(c.ok());
  auto stmt = (*c)->Prepare("PRAGMA journal_mode");
  ASSERT_TRUE(stmt.ok());
  ASSERT_TRUE((*stmt)->Execute().ok());
  ASSERT_TRUE((*stmt)->Next());
  EXPECT_EQ((*stmt)->GetText(0), "wal");
}

TEST(SqliteBackendTest, MissingFileIsNotFoundUnlessCreating) {
  const std::string path = TmpFile("missing.db");
  auto b = Open(path, false);
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().code(), StatusCode::kNotFound);
  EXPECT_NE(b.status().message().find(path), std::string::npos);
  EXPECT_TRUE(Open(path, true).ok());
}

// As sqlite3 does, a new database goes into a directory that exists: none is created.
TEST(SqliteBackendTest, MissingDirectoryIsRefusedNotCreated) {
  const std::string dir = std::string(STOREBENCH_TEST_TMP) + "/no-such-dir";
  std::filesystem::remove_all(dir);
  auto b = Open(dir + "/sub/x.db", /*create=*/true);
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(b.status().message().find("the directory '" + dir +
                                      "/sub' of the database file does not exist"),
            std::string::npos)
      << b.status().message();
  EXPECT_FALSE(std::filesystem::exists(dir));
  // A file where the directory should be.
  const std::string file = TmpFile("plain-file");
  std::ofstream(file) << "x";
  auto f = Open(file + "/x.db", /*create=*/true);
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.status().message().find("is not a directory"), std::string::npos)
      << f.status().message();
}

TEST(SqliteBackendTest, NotADatabaseIsRefusedAndLeftAlone) {
  const std::string path = TmpFile("text.db");
  { std::ofstream(path) << std::string(4096, 'x'); }
  auto b = Open(path, true);
  ASSERT_TRUE(b.ok());
  auto c = (*b)->Connect();
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("not an SQLite database"), std::string::npos);
  std::ifstream in(path);
  std::string content((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(content, std::string(4096, 'x'));
}

TEST(SqliteBackendTest, PreparedStatementsBindAndClassifyErrors) {
  const std::string path = TmpFile("stmt.db");
  auto b = Open(path, true);
  ASSERT_TRUE(b.ok());
  auto c = (*b)->Connect();
  ASSERT_TRUE(c.ok()) << c.status().message();
  Connection& conn = **c;
  ASSERT_TRUE(conn.ExecuteScript("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE, x REAL)").ok());
  auto ins = conn.Prepare("INSERT INTO t (name, x) VALUES (?, ?)");
  ASSERT_TRUE(ins.ok());
  (*ins)->BindText(1, "a'; DROP TABLE t; --");
  (*ins)->BindDouble(2, 1.5);
  ASSERT_TRUE((*ins)->Execute().ok());
  EXPECT_EQ(conn.LastInsertId(), 1);
  EXPECT_EQ((*ins)->RowsAffected(), 1);
  Status dup = (*ins)->Execute();
  EXPECT_EQ(dup.code(), StatusCode::kDbError);
  EXPECT_EQ(dup.category(), ErrorCategory::kConstraint);
  auto sel = conn.Prepare("SELECT id, name, x FROM t WHERE x > ?");
  ASSERT_TRUE(sel.ok());
  (*sel)->BindDouble(1, 1.0);
  ASSERT_TRUE((*sel)->Execute().ok());
  ASSERT_TRUE((*sel)->Next());
  EXPECT_EQ((*sel)->GetInt(0), 1);
  EXPECT_EQ((*sel)->GetText(1), "a'; DROP TABLE t; --");
  EXPECT_DOUBLE_EQ((*sel)->GetDouble(2), 1.5);
  EXPECT_FALSE((*sel)->Next());
  EXPECT_TRUE((*sel)->status().ok());
  auto bad = conn.Prepare("SELEC nothing");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().category(), ErrorCategory::kSyntax);
}

TEST(SqliteBackendTest, ReusedStatementsBindNewValuesEveryTime) {
  const std::string path = TmpFile("reuse.db");
  auto b = Open(path, true);
  ASSERT_TRUE(b.ok());
  auto c = (*b)->Connect();
  ASSERT_TRUE(c.ok());
  ASSERT_TRUE((*c)->ExecuteScript("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)").ok());
  auto ins = (*c)->Prepare("INSERT INTO t (id, v) VALUES (?, ?)");
  ASSERT_TRUE(ins.ok());
  for (int i = 1; i <= 5; ++i) {
    (*ins)->BindInt(1, i);
    (*ins)->BindText(2, "v" + std::to_string(i));
    ASSERT_TRUE((*ins)->Execute().ok()) << i;
  }
  auto sel = (*c)->Prepare("SELECT v FROM t WHERE id >= ? ORDER BY id");
  ASSERT_TRUE(sel.ok());
  for (int from : {4, 2}) {
    (*sel)->BindInt(1, from);
    ASSERT_TRUE((*sel)->Execute().ok());
    int rows = 0;
    while ((*sel)->Next()) ++rows;
    EXPECT_EQ(rows, 6 - from);
    EXPECT_FALSE((*sel)->Next());  // stays at the end, does not restart
  }
  // Bulk writer: many rows through one statement.
  ASSERT_TRUE((*c)->ExecuteScript("CREATE TABLE bulk (id INTEGER PRIMARY KEY, x INTEGER)").ok());
  auto w = (*b)->NewBulkWriter("bulk", {"id", "x"});
  ASSERT_TRUE(w.ok());
  for (int i = 1; i <= 1000; ++i) {
    const std::string id = std::to_string(i);
    ASSERT_TRUE((*w)->AddRow({id, "7"}).ok()) << i;
  }
  ASSERT_TRUE((*w)->Finish().ok());
  auto count = (*c)->Prepare("SELECT count(*), sum(id) FROM bulk");
  ASSERT_TRUE(count.ok());
  ASSERT_TRUE((*count)->Execute().ok());
  ASSERT_TRUE((*count)->Next());
  EXPECT_EQ((*count)->GetInt(0), 1000);
  EXPECT_EQ((*count)->GetInt(1), 500500);
}

TEST(SqliteBackendTest, WriteTransactionWaitsThenTimesOut) {
  const std::string path = TmpFile("lock.db");
  BackendOptions o;
  o.create_if_missing = true;
  o.busy_timeout_ms = 100;
  auto b = OpenSqlite(*ParseDbUrl("sqlite://" + path), o);
  ASSERT_TRUE(b.ok());
  auto c1 = (*b)->Connect();
  auto c2 = (*b)->Connect();
  ASSERT_TRUE(c1.ok() && c2.ok());
  ASSERT_TRUE((*c1)->ExecuteScript("CREATE TABLE t (x)").ok());
  ASSERT_TRUE((*c1)->Begin(true).ok());
  Status s = (*c2)->Begin(true);
  EXPECT_EQ(s.category(), ErrorCategory::kTimeout);
  ASSERT_TRUE((*c1)->Rollback().ok());
  EXPECT_TRUE((*c2)->Begin(true).ok());
  EXPECT_TRUE((*c2)->Commit().ok());
}

TEST(SqliteBackendTest, DescribeRecordsVersionAndPragmas) {
  const std::string path = TmpFile("describe.db");
  auto b = Open(path, true);
  ASSERT_TRUE(b.ok());
  auto info = (*b)->Describe();
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->product, "SQLite");
  EXPECT_FALSE(info->version.empty());
  EXPECT_EQ(info->settings.at("journal_mode"), "wal");
}

}  // namespace
}  // namespace sb::db
