// CheckOutputPaths on real files: links, names of files not there yet, shared special files and
// writability (issue #20).
#include "session/output_paths.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace sb::session {
namespace {

namespace fs = std::filesystem;

class OutputPathsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::string(STOREBENCH_TEST_TMP) + "/output_paths/" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    db_ = dir_ + "/ds.db";
    std::ofstream(db_) << "a database";
    inputs_ = {{"the database file", db_}, {"the database's -wal file", db_ + "-wal"}};
  }

  Status Check(const std::vector<PathUse>& outputs) { return CheckOutputPaths(inputs_, outputs); }

  std::string dir_, db_;
  std::vector<PathUse> inputs_;
};

TEST_F(OutputPathsTest, DistinctWritableOutputsPass) {
  EXPECT_TRUE(Check({{"--json", dir_ + "/r.json", true, true}, {"--csv", dir_ + "/r.csv"}}).ok());
  EXPECT_TRUE(Check({{"--json", dir_ + "/new/sub/r.json", true, true}}).ok());
  EXPECT_TRUE(Check({{"--json", ""}}).ok());
}

TEST_F(OutputPathsTest, TheInputItselfUnderAnyNameIsRefused) {
  fs::create_symlink(db_, dir_ + "/link.json");
  fs::create_hard_link(db_, dir_ + "/hard.json");
  for (const std::string& path :
       {db_, dir_ + "/./ds.db", dir_ + "/link.json", dir_ + "/hard.json"}) {
    Status s = Check({{"--json", path, true, true}});
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << path;
    EXPECT_NE(s.message().find("refusing to write --json '" + path + "'"), std::string::npos)
        << s.message();
    EXPECT_NE(s.message().find("the database file '" + db_ + "'"), std::string::npos)
        << s.message();
  }
  EXPECT_EQ(Check({{"--json", db_}}).message(),
            "refusing to write --json '" + db_ + "': it is the database file '" + db_ + "'");
}

TEST_F(OutputPathsTest, FilesNotThereYetMatchByDirectoryAndName) {
  // The -wal file does not exist; a path to it, directly or through a dangling link, is refused.
  fs::create_symlink(db_ + "-wal", dir_ + "/to-wal");
  for (const std::string& path :
       {db_ + "-wal", dir_ + "/../" + fs::path(dir_).filename().string() + "/ds.db-wal",
        dir_ + "/to-wal"}) {
    Status s = Check({{"--op_log", path}});
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << path;
    EXPECT_NE(s.message().find("the database's -wal file"), std::string::npos) << s.message();
  }
}

TEST_F(OutputPathsTest, TwoOutputsOnOneFileAreRefusedExceptSpecialFiles) {
  Status s = Check({{"--csv", dir_ + "/a.csv"}, {"--series_csv", dir_ + "/./a.csv"}});
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "refusing to write --csv '" + dir_ + "/a.csv' and --series_csv '" + dir_ +
                             "/./a.csv': they are the same file");
  EXPECT_TRUE(Check({{"--json", "/dev/null", true, true},
                     {"--csv", "/dev/null"},
                     {"--series_csv", "/dev/null"}})
                  .ok());
}

TEST_F(OutputPathsTest, UnwritableOutputsAreRefused) {
  Status s = Check({{"--json", dir_, true, true}});
  EXPECT_EQ(s.message(), "--json '" + dir_ + "' cannot be written: it is a directory");
  s = Check({{"--csv", dir_ + "/missing/r.csv"}});
  EXPECT_EQ(s.message(), "--csv '" + dir_ + "/missing/r.csv' cannot be written: directory '" +
                             dir_ + "/missing' does not exist");
  s = Check({{"--csv", db_ + "/r.csv"}});
  EXPECT_EQ(s.message(),
            "--csv '" + db_ + "/r.csv' cannot be written: '" + db_ + "' is not a directory");
  // /proc takes no new files, even from root: tried, not guessed from permission bits.
  s = Check({{"--json", "/proc/storebench/r.json", true, true}});
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("no file can be created in '/proc'"), std::string::npos)
      << s.message();
  // The probe leaves nothing behind.
  for (const auto& e : fs::directory_iterator(dir_)) {
    EXPECT_EQ(e.path().filename().string().rfind(".storebench-write-test", 0), std::string::npos);
  }
}

}  // namespace
}  // namespace sb::session
