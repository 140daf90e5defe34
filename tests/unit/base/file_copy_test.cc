#include "base/file_copy.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

namespace sb {
namespace {

std::string Tmp(const std::string& name) {
  std::filesystem::create_directories(STOREBENCH_TEST_TMP);
  const std::string path = std::string(STOREBENCH_TEST_TMP) + "/" + name;
  std::filesystem::remove(path);
  return path;
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void Write(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

TEST(FileCopyTest, CopyWholeFileCopiesTheBytes) {
  const std::string from = Tmp("copy-from");
  const std::string to = Tmp("copy-to");
  Write(from, std::string(100000, 'x') + "end");
  auto copied = CopyWholeFile(from, to);
  ASSERT_TRUE(copied.ok()) << copied.status().message();
  EXPECT_EQ(copied->bytes, 100003);
  EXPECT_EQ(ReadAll(to), ReadAll(from));
  EXPECT_EQ(CopyWholeFile(from, to).status().code(), StatusCode::kAlreadyExists);
}

// Where the file system shares blocks (XFS, Btrfs) the clone is the file; elsewhere (ext4, tmpfs)
// nothing is copied and nothing is left behind, so the caller can do something cheaper.
TEST(FileCopyTest, CloneWholeFileClonesOrLeavesNothing) {
  const std::string from = Tmp("clone-from");
  const std::string to = Tmp("clone-to");
  Write(from, std::string(70000, 'y'));
  auto cloned = CloneWholeFile(from, to);
  ASSERT_TRUE(cloned.ok()) << cloned.status().message();
  if (cloned->reflink) {
    EXPECT_EQ(ReadAll(to), ReadAll(from));
  } else {
    EXPECT_FALSE(std::filesystem::exists(to));
  }
  EXPECT_FALSE(CloneWholeFile(Tmp("clone-missing"), to).ok());
}

}  // namespace
}  // namespace sb
