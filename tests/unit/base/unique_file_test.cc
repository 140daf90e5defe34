// CreateUniqueFile: default result names never replace an existing file (issue #20).
#include "base/unique_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace sb {
namespace {

namespace fs = std::filesystem;

std::string FreshDir(const std::string& name) {
  const std::string dir = std::string(STOREBENCH_TEST_TMP) + "/unique_file/" + name;
  fs::remove_all(dir);
  return dir;
}

std::string Content(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(UniqueFileTest, CreatesTheDirectoryAndThePlainNameFirst) {
  const std::string dir = FreshDir("plain") + "/results";
  auto path = CreateUniqueFile(dir, "20240101-120000", ".json");
  ASSERT_TRUE(path.ok()) << path.status().message();
  EXPECT_EQ(*path, dir + "/20240101-120000.json");
  EXPECT_TRUE(fs::is_regular_file(*path));
  EXPECT_EQ(fs::file_size(*path), 0u);
}

TEST(UniqueFileTest, TakenNamesGetASuffixAndKeepTheirContent) {
  const std::string dir = FreshDir("taken");
  fs::create_directories(dir);
  std::ofstream(dir + "/r.json") << "first run";
  std::ofstream(dir + "/r-2.json") << "second run";
  // A dangling symbolic link also takes the name: O_EXCL never follows it.
  ASSERT_EQ(::symlink((dir + "/elsewhere.json").c_str(), (dir + "/r-3.json").c_str()), 0);
  auto path = CreateUniqueFile(dir, "r", ".json");
  ASSERT_TRUE(path.ok()) << path.status().message();
  EXPECT_EQ(*path, dir + "/r-4.json");
  EXPECT_EQ(Content(dir + "/r.json"), "first run");
  EXPECT_EQ(Content(dir + "/r-2.json"), "second run");
  EXPECT_FALSE(fs::exists(dir + "/elsewhere.json"));
}

TEST(UniqueFileTest, ConcurrentCallersNeverShareAName) {
  const std::string dir = FreshDir("concurrent");
  constexpr int kThreads = 8;
  std::vector<std::string> paths(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      auto p = CreateUniqueFile(dir, "same-second", "-io.json");
      paths[i] = p.ok() ? *p : "";
    });
  }
  for (auto& t : threads) t.join();
  const std::set<std::string> distinct(paths.begin(), paths.end());
  EXPECT_EQ(distinct.size(), static_cast<size_t>(kThreads));
  EXPECT_EQ(distinct.count(""), 0u);
}

TEST(UniqueFileTest, UnwritableDirectoryIsAnIoError) {
  // /proc accepts no new files, even from root.
  auto path = CreateUniqueFile("/proc", "storebench-unique-file-test", ".json");
  ASSERT_FALSE(path.ok());
  EXPECT_EQ(path.status().code(), StatusCode::kIoError);
  EXPECT_NE(path.status().message().find("/proc/storebench-unique-file-test.json"),
            std::string::npos)
      << path.status().message();
}

}  // namespace
}  // namespace sb
