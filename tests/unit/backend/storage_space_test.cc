#include "backend/db/storage_space.h"

#include <gtest/gtest.h>
#include <sys/statvfs.h>

#include <filesystem>
#include <fstream>

#include "backend/db/sqlite/sqlite_backend.h"

namespace sb::db {
namespace {

std::string TmpDir(const std::string& name) {
  const std::string dir = std::string(STOREBENCH_TEST_TMP) + "/" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return std::filesystem::absolute(dir).lexically_normal().string();
}

TEST(SpaceOfDirectoryTest, MeasuresTheFileSystem) {
  const std::string dir = TmpDir("space_dir");
  const StorageSpace space = SpaceOfDirectory(dir);
  ASSERT_TRUE(space.known) << space.why_unknown;
  EXPECT_EQ(space.where, dir);
  struct statvfs st {};
  ASSERT_EQ(::statvfs(dir.c_str(), &st), 0);
  // The same file system a moment later: within 1 GB of what statvfs says now.
  const double now = static_cast<double>(st.f_bavail) * static_cast<double>(st.f_frsize);
  EXPECT_NEAR(static_cast<double>(space.free_bytes), now, 1e9);
}

TEST(SpaceOfDirectoryTest, MissingDirectoryIsUnknownWithItsName) {
  const StorageSpace space = SpaceOfDirectory("/nonexistent/storebench/dir");
  EXPECT_FALSE(space.known);
  EXPECT_NE(space.why_unknown.find("/nonexistent/storebench/dir"), std::string::npos);
}

TEST(IsLocalHostTest, SocketsAndLoopbackAreLocal) {
  EXPECT_TRUE(IsLocalHost(""));
  EXPECT_TRUE(IsLocalHost("/run/postgresql"));
  EXPECT_TRUE(IsLocalHost("localhost"));
  EXPECT_TRUE(IsLocalHost("127.0.0.1"));
  EXPECT_TRUE(IsLocalHost("::1"));
  EXPECT_FALSE(IsLocalHost("db1.example.com"));
  EXPECT_FALSE(IsLocalHost("10.0.0.5"));
}

// SQLite: the file's directory, and the file (with its write-ahead log) as used.
TEST(SqliteFreeSpaceTest, FileSystemOfTheFileAndTheFileAsUsed) {
  const std::string dir = TmpDir("space_sqlite");
  const std::string path = dir + "/x.db";
  BackendOptions o;
  o.create_if_missing = true;
  auto backend = OpenSqlite(*ParseDbUrl("sqlite://" + path), o);
  ASSERT_TRUE(backend.ok()) << backend.status().message();
  auto empty = (*backend)->FreeSpace();
  ASSERT_TRUE(empty.ok());
  ASSERT_TRUE(empty->known) << empty->why_unknown;
  EXPECT_EQ(empty->where, dir);
  EXPECT_EQ(empty->used_bytes, 0);
  std::ofstream(path) << std::string(5000, 'x');
  std::ofstream(path + "-wal") << std::string(3000, 'y');
  auto used = (*backend)->FreeSpace();
  ASSERT_TRUE(used.ok());
  EXPECT_EQ(used->used_bytes, 8000);
}

}  // namespace
}  // namespace sb::db
