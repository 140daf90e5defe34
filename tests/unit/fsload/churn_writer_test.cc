// The churn writer's choices and steps (workload/fs/churn_writer.h), on real files in a
// directory of the test's own.
#include "workload/fs/churn_writer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "unit/fsload/test_dir.h"

namespace sb::fsload {
namespace {

TEST(ChooseChurnOpTest, NewFilesUntilTwoThenTheMix) {
  // Fewer than two data files: always a new one.
  for (uint64_t pick : {0, 30, 50, 99}) {
    EXPECT_EQ(ChooseChurnOp(pick, 0), ChurnOp::kNewFile);
    EXPECT_EQ(ChooseChurnOp(pick, 1), ChurnOp::kNewFile);
  }
  // Then 5 % new, 40 % append, 15 % extend, 35 % log, 5 % delete.
  std::map<ChurnOp, int> n;
  for (uint64_t pick = 0; pick < 100; ++pick) ++n[ChooseChurnOp(pick, 2)];
  EXPECT_EQ(n[ChurnOp::kNewFile], 5);
  EXPECT_EQ(n[ChurnOp::kAppend], 40);
  EXPECT_EQ(n[ChurnOp::kExtend], 15);
  EXPECT_EQ(n[ChurnOp::kLog], 35);
  EXPECT_EQ(n[ChurnOp::kDelete], 5);
  EXPECT_EQ(ChooseChurnOp(4, 7), ChurnOp::kNewFile);
  EXPECT_EQ(ChooseChurnOp(5, 7), ChurnOp::kAppend);
  EXPECT_EQ(ChooseChurnOp(45, 7), ChurnOp::kExtend);
  EXPECT_EQ(ChooseChurnOp(60, 7), ChurnOp::kLog);
  EXPECT_EQ(ChooseChurnOp(95, 7), ChurnOp::kDelete);
}

using ChurnWriterTest = TestDir;

// Regular files under `dir` and their sizes.
std::map<std::string, uint64_t> FilesUnder(const std::string& dir) {
  std::map<std::string, uint64_t> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.is_regular_file()) out[e.path().filename().string()] = e.file_size();
  }
  return out;
}

TEST_F(ChurnWriterTest, StepsKeepTheirFilesTheirBudgetAndTheLastFourLogs) {
  const uint64_t budget = 24u << 20;
  ChurnWriter w(dir_ + "/w0", budget, 7);
  ASSERT_TRUE(w.Prepare().ok());
  std::map<ChurnOp, int> ops;
  uint64_t written = 0;
  int64_t deleted = 0;
  for (int i = 0; i < 400; ++i) {
    const ChurnStep s = w.Step();
    EXPECT_EQ(s.errors, 0) << s.first_error;
    ++ops[s.op];
    written += s.bytes_written;
    deleted += s.files_deleted;
    // Data files are deleted from the oldest while the writer passes its budget (logs are not:
    // four at most of up to 16 MiB and a step each).
    EXPECT_LE(w.Used(), budget + w.log_files() * (16u << 20) + (9u << 20)) << i;
    EXPECT_LE(w.log_files(), 4u);
    EXPECT_GE(w.data_files(), 1u);
  }
  for (ChurnOp op : {ChurnOp::kNewFile, ChurnOp::kAppend, ChurnOp::kExtend, ChurnOp::kLog}) {
    EXPECT_GT(ops[op], 0) << static_cast<int>(op);
  }
  EXPECT_GT(deleted, 0);
  EXPECT_GE(written, w.Used());
  // What the writer counts is what is on disk.
  const auto files = FilesUnder(dir_ + "/w0");
  EXPECT_EQ(files.size(), w.data_files() + w.log_files());
  uint64_t on_disk = 0;
  for (const auto& [name, size] : files) on_disk += size;
  EXPECT_EQ(on_disk, w.Used());
}

TEST_F(ChurnWriterTest, TheSameSeedMakesTheSameChoices) {
  ChurnWriter a(dir_ + "/a", 16u << 20, 3), b(dir_ + "/b", 16u << 20, 3),
      c(dir_ + "/c", 16u << 20, 4);
  ASSERT_TRUE(a.Prepare().ok());
  ASSERT_TRUE(b.Prepare().ok());
  ASSERT_TRUE(c.Prepare().ok());
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const ChurnStep sa = a.Step(), sb = b.Step(), sc = c.Step();
    EXPECT_EQ(sa.op, sb.op) << i;
    EXPECT_EQ(sa.bytes_written, sb.bytes_written) << i;
    differs = differs || sa.op != sc.op || sa.bytes_written != sc.bytes_written;
  }
  EXPECT_TRUE(differs);
  EXPECT_EQ(FilesUnder(dir_ + "/a"), FilesUnder(dir_ + "/b"));
}

TEST_F(ChurnWriterTest, AWriteThatFailsIsCountedWithItsReason) {
  ChurnWriter w(dir_ + "/w0", 16u << 20, 1);
  ASSERT_TRUE(w.Prepare().ok());
  std::filesystem::remove_all(dir_ + "/w0");  // its files can no longer be created
  const ChurnStep s = w.Step();
  EXPECT_EQ(s.op, ChurnOp::kNewFile);
  EXPECT_EQ(s.errors, 1);
  EXPECT_EQ(s.bytes_written, 0u);
  EXPECT_NE(s.first_error.find("cannot open " + dir_ + "/w0/data0.db"), std::string::npos)
      << s.first_error;
}

TEST_F(ChurnWriterTest, PrepareNamesADirectoryItCannotCreate) {
  std::ofstream(dir_ + "/file") << "x";
  ChurnWriter w(dir_ + "/file/w0", 1u << 20, 1);
  const Status s = w.Prepare();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find(dir_ + "/file/w0"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace sb::fsload
