// OutputStream: an output written during a run appears at its path whole, after Commit, or not
// at all; a failed write is kept for the run to end on.
#include "base/output_stream.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace sb {
namespace {

namespace fs = std::filesystem;

std::string FreshDir(const std::string& name) {
  const std::string dir = std::string(STOREBENCH_TEST_TMP) + "/output_stream/" + name;
  fs::remove_all(dir);
  return dir;
}

std::string Content(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

size_t Entries(const std::string& dir) {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

TEST(OutputStreamTest, ThePathAppearsOnlyAtCommitAndReplacesTheOldFile) {
  const std::string dir = FreshDir("commit");
  const std::string path = dir + "/status.csv";
  fs::create_directories(dir);
  std::ofstream(path) << "old\n";
  auto out = OutputStream::Open(path, "--out_filename");
  ASSERT_TRUE(out.ok()) << out.status().message();
  (*out)->Append("a\n");
  (*out)->Append("b\n");
  EXPECT_EQ(Content(path), "old\n");  // the earlier file stays until the new one is whole
  ASSERT_TRUE((*out)->Commit().ok());
  EXPECT_EQ(Content(path), "a\nb\n");
  EXPECT_EQ(Entries(dir), 1u);  // no temporary file left
}

TEST(OutputStreamTest, AStreamNotCommittedLeavesNothing) {
  const std::string dir = FreshDir("abandoned") + "/sub";
  {
    auto out = OutputStream::Open(dir + "/status.csv", "--out_filename");
    ASSERT_TRUE(out.ok()) << out.status().message();
    (*out)->Append("a\n");
  }
  EXPECT_EQ(Entries(dir), 0u);
}

TEST(OutputStreamTest, AFailedWriteIsKeptAndNamesThePath) {
  // /dev/full refuses every write with ENOSPC, as a full disk does.
  auto out = OutputStream::Open("/dev/full", "--out_filename");
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_TRUE((*out)->error().ok());
  (*out)->Append("a\n");
  const Status s = (*out)->error();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("'/dev/full'"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("--out_filename"), std::string::npos) << s.message();
  EXPECT_FALSE((*out)->Commit().ok());
}

}  // namespace
}  // namespace sb
