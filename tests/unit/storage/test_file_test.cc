// Test-file preparation and the safety refusals, on real files in the build tree.
#include "workload/storage/test_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

namespace sb::storage {
namespace {

std::string TmpPath(const std::string& name) {
  std::filesystem::create_directories(STOREBENCH_TEST_TMP);
  const std::string p = std::string(STOREBENCH_TEST_TMP) + "/" + name;
  std::filesystem::remove(p);
  return p;
}

void Quiet(const std::string&) {}

TEST(TestFileTest, PrepareCreatesAMarkedFileThatRunsMayWrite) {
  PrepareOptions o;
  o.path = TmpPath("prepare_ok.tst");
  o.data_bytes = 4 << 20;
  bool created = false;
  ASSERT_TRUE(PrepareTestFile(o, Quiet, &created).ok());
  EXPECT_TRUE(created);
  EXPECT_EQ(std::filesystem::file_size(o.path), kHeaderBytes + o.data_bytes);
  auto info = InspectTarget(o.path);
  ASSERT_TRUE(info.ok());
  EXPECT_TRUE(info->storebench_file);
  EXPECT_EQ(info->data_start, kHeaderBytes);
  EXPECT_EQ(info->data_bytes, o.data_bytes);
  EXPECT_EQ(info->pattern, "full_random");
  EXPECT_TRUE(CheckWritable(*info, false).ok());
  // A second prepare with the same size leaves the file alone.
  ASSERT_TRUE(PrepareTestFile(o, Quiet, &created).ok());
  EXPECT_FALSE(created);
  std::filesystem::remove(o.path);
}

TEST(TestFileTest, ForeignFileIsNeitherOverwrittenNorWritten) {
  const std::string path = TmpPath("foreign.dat");
  std::string content(2 << 20, 'x');
  std::ofstream(path) << content;
  PrepareOptions o;
  o.path = path;
  o.data_bytes = 4 << 20;
  bool created = true;
  Status s = PrepareTestFile(o, Quiet, &created);
  EXPECT_EQ(s.code(), StatusCode::kAlreadyExists) << s.message();
  EXPECT_FALSE(created);
  EXPECT_EQ(std::filesystem::file_size(path), content.size()) << "nothing was written";
  std::ifstream in(path);
  std::string back((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(back, content);
  auto info = InspectTarget(path);
  ASSERT_TRUE(info.ok());
  EXPECT_FALSE(info->storebench_file);
  EXPECT_EQ(info->data_start, 0u);
  EXPECT_EQ(CheckWritable(*info, false).code(), StatusCode::kFailedPrecondition);
  EXPECT_TRUE(CheckWritable(*info, true).ok());
  std::filesystem::remove(path);
}

// Issue #20: a prepare stopped by a signal leaves state=preparing; run and prepare used to call
// that file foreign ("storebench did not create it") and prepare refused to touch it.
TEST(TestFileTest, StoppedPrepareIsNamedAsSuchAndPreparedAgain) {
  PrepareOptions o;
  o.path = TmpPath("prepare_stopped.tst");
  o.data_bytes = 8 << 20;
  std::atomic<bool> stop{true};
  o.stop = &stop;
  bool created = true;
  Status s = PrepareTestFile(o, Quiet, &created);
  EXPECT_EQ(s.code(), StatusCode::kCancelled) << s.message();
  EXPECT_FALSE(created);
  EXPECT_NE(s.message().find("state=preparing"), std::string::npos) << s.message();

  auto info = InspectTarget(o.path);
  ASSERT_TRUE(info.ok()) << info.status().message();
  EXPECT_FALSE(info->storebench_file);
  EXPECT_TRUE(info->prepare_interrupted);
  s = CheckWritable(*info, /*force_destroy=*/false);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("was interrupted"), std::string::npos) << s.message();
  EXPECT_EQ(s.message().find("did not create it"), std::string::npos) << s.message();

  stop = false;
  std::vector<std::string> said;
  ASSERT_TRUE(PrepareTestFile(
                  o, [&](const std::string& m) { said.push_back(m); }, &created)
                  .ok());
  EXPECT_TRUE(created);
  ASSERT_FALSE(said.empty());
  EXPECT_NE(said[0].find("interrupted"), std::string::npos) << said[0];
  info = InspectTarget(o.path);
  ASSERT_TRUE(info.ok());
  EXPECT_TRUE(info->storebench_file);
  EXPECT_FALSE(info->prepare_interrupted);
  std::filesystem::remove(o.path);
}

// Issue #20: open(2) on a FIFO waits for a writer; InspectTarget must refuse it at once.
TEST(TestFileTest, FifoIsRefusedWithoutBlocking) {
  const std::string path = TmpPath("target.fifo");
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  auto info = InspectTarget(path);
  ASSERT_FALSE(info.ok());
  EXPECT_EQ(info.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(info.status().message().find("is a FIFO"), std::string::npos)
      << info.status().message();
  std::filesystem::remove(path);
}

TEST(TestFileTest, MissingFileIsNotFound) {
  auto info = InspectTarget(TmpPath("missing.tst"));
  EXPECT_EQ(info.status().code(), StatusCode::kNotFound);
}

TEST(TestFileTest, DetectsSignatures) {
  std::vector<uint8_t> d(68 * 1024, 0);
  EXPECT_EQ(DetectSignature(d.data(), d.size()), "");
  d[510] = 0x55;
  d[511] = 0xAA;
  EXPECT_NE(DetectSignature(d.data(), d.size()).find("MBR"), std::string::npos);
  std::memcpy(&d[512], "EFI PART", 8);
  EXPECT_NE(DetectSignature(d.data(), d.size()).find("GPT"), std::string::npos);
  std::vector<uint8_t> e(68 * 1024, 0);
  e[1080] = 0x53;
  e[1081] = 0xEF;
  EXPECT_EQ(DetectSignature(e.data(), e.size()), "ext2/3/4");
}

TEST(TestFileTest, PatternsFillAsNamed) {
  Random rng(1);
  std::vector<uint8_t> b(4096);
  FillPattern(DataPattern::kRepeating, rng, 0x5A, b.data(), b.size());
  EXPECT_EQ(b[0], 0x5A);
  EXPECT_EQ(b[4095], 0x5A);
  FillPattern(DataPattern::kFullRandom, rng, 0, b.data(), b.size());
  int distinct = 0;
  std::vector<bool> seen(256);
  for (uint8_t c : b) distinct += !seen[c], seen[c] = true;
  EXPECT_GT(distinct, 200);
  EXPECT_EQ(ParseDataPattern("pseudo_random").value(), DataPattern::kPseudoRandom);
  EXPECT_FALSE(ParseDataPattern("zeros").ok());
}

}  // namespace
}  // namespace sb::storage
