// SQLite's restore from what runs write (RestoreSqliteRunWrites, through
// SqliteBackend::RestorePristine): a small real database with what DVD Store's has (an appended
// parent and its appended children under a foreign key, an AUTOINCREMENT table, a rewritten
// table with a trigger, a rewritten table without an INTEGER PRIMARY KEY whose rowids have a
// gap), its pristine copy, a "run" that changes it, and a digest of every table's rows with their
// rowids, sqlite_sequence included.
#include "backend/db/sqlite/sqlite_run_writes_restore.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "backend/db/sqlite/sqlite_backend.h"

namespace sb::db {
namespace {

std::string TmpFile(const std::string& name) {
  std::filesystem::create_directories(STOREBENCH_TEST_TMP);
  const std::string path = std::string(STOREBENCH_TEST_TMP) + "/" + name;
  for (const char* suffix : {"", "-wal", "-shm", ".storebench-pristine"}) {
    std::filesystem::remove(path + suffix);
  }
  return path;
}

// The URL of `path`, its '%', '?' and '#' percent-encoded (ParseDbUrl decodes the path).
std::string Url(const std::string& path) {
  std::string url = "sqlite://";
  for (char c : path) {
    if (c == '%')
      url += "%25";
    else if (c == '?')
      url += "%3F";
    else if (c == '#')
      url += "%23";
    else
      url += c;
  }
  return url;
}

std::unique_ptr<DbBackend> Open(const std::string& path) {
  BackendOptions o;
  o.create_if_missing = true;
  auto url = ParseDbUrl(Url(path));
  EXPECT_TRUE(url.ok()) << url.status().message();
  auto b = OpenSqlite(*url, o);
  EXPECT_TRUE(b.ok()) << b.status().message();
  return std::move(b).value();
}

void Exec(DbBackend& b, const std::string& sql) {
  auto c = b.Connect();
  ASSERT_TRUE(c.ok()) << c.status().message();
  Status s = (*c)->ExecuteScript(sql);
  ASSERT_TRUE(s.ok()) << s.message();
}

// Every table's rows (b-tree tables: sqlite_sequence too) with their rowids, in rowid order.
std::string Digest(DbBackend& b) {
  auto c = b.Connect();
  EXPECT_TRUE(c.ok());
  std::vector<std::string> tables;
  {
    auto st = (*c)->Prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND rootpage > 0 ORDER BY name");
    EXPECT_TRUE(st.ok() && (*st)->Execute().ok());
    while ((*st)->Next()) tables.emplace_back((*st)->GetText(0));
  }
  std::string out;
  for (const std::string& t : tables) {
    std::string cols;
    {
      auto st = (*c)->Prepare("SELECT name FROM pragma_table_info(?1)");
      (*st)->BindText(1, t);
      EXPECT_TRUE((*st)->Execute().ok());
      while ((*st)->Next()) cols += " || '|' || quote(\"" + std::string((*st)->GetText(0)) + "\")";
    }
    auto st = (*c)->Prepare("SELECT rowid" + cols + " FROM \"" + t + "\" ORDER BY rowid");
    EXPECT_TRUE(st.ok()) << t;
    EXPECT_TRUE((*st)->Execute().ok());
    out += t + ":\n";
    while ((*st)->Next()) out += std::string((*st)->GetText(0)) + "\n";
  }
  return out;
}

ino_t Inode(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0);
  return st.st_ino;
}

constexpr char kLoad[] =
    "CREATE TABLE storebench_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "INSERT INTO storebench_meta VALUES ('workload', 'toy'), ('db_size', 'tiny');"
    "CREATE TABLE parents (id INTEGER PRIMARY KEY, name TEXT NOT NULL);"
    "CREATE TABLE children (parent INTEGER NOT NULL REFERENCES parents (id) ON DELETE CASCADE,"
    "  line INTEGER NOT NULL, note TEXT);"
    "CREATE INDEX ix_children_parent ON children (parent, line);"
    // Refers to parents without an index: a parent's delete with the foreign keys on scans it.
    "CREATE TABLE notes (parent INTEGER REFERENCES parents (id) ON DELETE CASCADE, body TEXT);"
    "CREATE TABLE counters (id INTEGER PRIMARY KEY AUTOINCREMENT, v INTEGER NOT NULL);"
    "CREATE TABLE stock (item INTEGER PRIMARY KEY, qty INTEGER NOT NULL);"
    "CREATE TABLE low (item INTEGER NOT NULL, at TEXT NOT NULL);"
    "CREATE TABLE fixed (x TEXT NOT NULL);"
    "CREATE TRIGGER restock AFTER UPDATE OF qty ON stock WHEN NEW.qty < 1 BEGIN"
    "  INSERT INTO low VALUES (NEW.item, 'run'); END;"
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50)"
    "  INSERT INTO parents SELECT i, 'p' || i FROM n;"
    "INSERT INTO children SELECT id, 1, 'a' FROM parents;"
    "INSERT INTO children SELECT id, 2, NULL FROM parents WHERE id % 3 = 0;"
    "INSERT INTO notes SELECT id, 'n' || id FROM parents WHERE id % 5 = 0;"
    // The sequence (4) above the largest id (3): a restore that only deleted would leave 6.
    "INSERT INTO counters (v) VALUES (10), (20), (30), (40); DELETE FROM counters WHERE id = 4;"
    "INSERT INTO stock SELECT id, id % 4 FROM parents;"
    // Rowids 2 and 3 only: a refill that did not carry them would make them 1 and 2.
    "INSERT INTO low VALUES (7, 'load'), (8, 'load'), (9, 'load'); DELETE FROM low WHERE rowid = 1;"
    "INSERT INTO fixed VALUES ('a'), ('b');";

// What a run of "toy" writes: new parents with children and notes, a counter, stock updates
// (the trigger adds to LOW), a LOW row deleted.
constexpr char kRun[] =
    "INSERT INTO parents VALUES (51, 'new'), (52, 'new');"
    "INSERT INTO children VALUES (51, 1, 'x'), (52, 1, 'y'), (52, 2, 'z');"
    "INSERT INTO notes VALUES (52, 'mine');"
    "INSERT INTO counters (v) VALUES (50), (60);"
    "UPDATE stock SET qty = qty - 1 WHERE item <= 20;"
    "DELETE FROM low WHERE rowid = 2;";

RunWrites Toy() {
  RunWrites w;
  w.workload = "toy";
  w.appended = {{"parents", "id"}, {"children", "parent"}, {"notes", "parent"}, {"counters", "id"}};
  w.rewritten = {"stock", "low"};
  return w;
}

class SqliteRunWritesRestoreTest : public ::testing::Test {
 protected:
  void Load(const std::string& name) {
    path_ = TmpFile(name);
    db_ = Open(path_);
    Exec(*db_, kLoad);
    std::unique_ptr<DbLock> lock;
    auto saved = db_->SavePristine(&lock, "test");
    ASSERT_TRUE(saved.ok()) << saved.status().message();
    loaded_ = Digest(*db_);
    Exec(*db_, kRun);
    changed_ = Digest(*db_);
    ASSERT_NE(changed_, loaded_);
  }

  Result<std::string> Restore(const std::optional<RunWrites>& hint) {
    auto b = Open(path_);  // a command's own back end, as `oltp restore` opens it
    if (hint) b->HintRunWrites(*hint);
    std::unique_ptr<DbLock> lock;
    return b->RestorePristine(&lock, "test");
  }

  std::string path_;
  std::unique_ptr<DbBackend> db_;
  std::string loaded_, changed_;
};

TEST_F(SqliteRunWritesRestoreTest, BringsBackTheLoadedRowsInPlace) {
  Load("rw-restore.db");
  const ino_t before = Inode(path_);
  auto method = Restore(Toy());
  ASSERT_TRUE(method.ok()) << method.status().message();
  EXPECT_EQ(Digest(*db_), loaded_);
  EXPECT_EQ(*method,
            "what toy runs write: 4 tables lost the rows above their loaded largest id (8 rows), "
            "2 were refilled (DELETE + INSERT ... SELECT from the attached copy), sqlite_sequence "
            "set back, in one transaction; the other 2 are never written by a run");
  EXPECT_EQ(Inode(path_), before) << "the file was replaced, not restored in place";
  EXPECT_FALSE(std::filesystem::exists(path_ + ".storebench-restore"));
  // The next ids a run gets are the loaded state's.
  Exec(*db_, "INSERT INTO counters (v) VALUES (1); INSERT INTO low VALUES (1, 'next');");
  auto c = db_->Connect();
  auto st = (*c)->Prepare("SELECT (SELECT max(id) FROM counters), (SELECT max(rowid) FROM low)");
  ASSERT_TRUE((*st)->Execute().ok() && (*st)->Next());
  EXPECT_EQ((*st)->GetInt(0), 5);
  EXPECT_EQ((*st)->GetInt(1), 4);
}

TEST_F(SqliteRunWritesRestoreTest, RestoresTwiceAfterTwoRuns) {
  Load("rw-restore-twice.db");
  ASSERT_TRUE(Restore(Toy()).ok());
  Exec(*db_, kRun);
  ASSERT_EQ(Digest(*db_), changed_);
  auto method = Restore(Toy());
  ASSERT_TRUE(method.ok()) << method.status().message();
  EXPECT_EQ(Digest(*db_), loaded_);
}

TEST_F(SqliteRunWritesRestoreTest, WithoutAWordOnWhatRunsWriteTheFileIsCopied) {
  Load("rw-restore-nohint.db");
  const ino_t before = Inode(path_);
  auto method = Restore(std::nullopt);
  ASSERT_TRUE(method.ok()) << method.status().message();
  EXPECT_EQ(*method, "file copy");
  EXPECT_EQ(Digest(*db_), loaded_);
  EXPECT_NE(Inode(path_), before);
}

TEST_F(SqliteRunWritesRestoreTest, AnotherWorkloadsWordIsNotTaken) {
  Load("rw-restore-other.db");
  RunWrites other = Toy();
  other.workload = "dvdstore";
  auto method = Restore(other);
  ASSERT_TRUE(method.ok()) << method.status().message();
  EXPECT_EQ(*method, "file copy");
  EXPECT_EQ(Digest(*db_), loaded_);
}

// A description that does not fit the database (a text column given as the id): the
// transaction is rolled back, the rows stay as the run left them, and RestorePristine copies
// the whole file instead.
TEST_F(SqliteRunWritesRestoreTest, ARefusalRollsBackAndTheFileIsCopied) {
  Load("rw-restore-refused.db");
  RunWrites bad = Toy();
  bad.appended.insert(bad.appended.begin(), {"fixed", "x"});  // deleted last: after the others
  {
    auto c = db_->Connect();
    auto direct = RestoreSqliteRunWrites(
        **c, path_ + ".storebench-pristine", bad,
        {"children", "counters", "fixed", "low", "notes", "parents", "stock", "storebench_meta"});
    ASSERT_FALSE(direct.ok());
    EXPECT_EQ(direct.status().code(), StatusCode::kFailedPrecondition);
    EXPECT_NE(direct.status().message().find("x of fixed is not an integer column"),
              std::string::npos)
        << direct.status().message();
  }
  EXPECT_EQ(Digest(*db_), changed_);
  auto method = Restore(bad);
  ASSERT_TRUE(method.ok()) << method.status().message();
  EXPECT_EQ(method->rfind("file copy (the restore of what runs write stopped: ", 0), 0u) << *method;
  EXPECT_EQ(Digest(*db_), loaded_);
}

TEST_F(SqliteRunWritesRestoreTest, AttachesACopyWhoseNameNeedsEncoding) {
  Load("rw restore #1 100%?.db");
  auto method = Restore(Toy());
  ASSERT_TRUE(method.ok()) << method.status().message();
  EXPECT_EQ(method->rfind("what toy runs write", 0), 0u) << *method;
  EXPECT_EQ(Digest(*db_), loaded_);
}

TEST(SqliteImmutableUriTest, EncodesWhatAUriReadsAsDelimiters) {
  EXPECT_EQ(SqliteImmutableUri("/a/b.db"), "file:/a/b.db?immutable=1");
  EXPECT_EQ(SqliteImmutableUri("/a/x?y#z%.db"), "file:/a/x%3Fy%23z%25.db?immutable=1");
}

}  // namespace
}  // namespace sb::db
