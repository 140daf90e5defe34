// The read and copy passes (workload/fs/file_pass.h) on real files through the psync engine,
// run by hand (the driver times them: tests/unit/driver/file_pass_runner_test.cc).
#include "workload/fs/file_pass.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "backend/io/sync/psync_engine.h"
#include "base/random.h"
#include "unit/fsload/test_dir.h"

namespace sb::fsload {
namespace {

std::unique_ptr<io::IoEngine> Psync() {
  auto e = io::CreatePsyncEngine(io::EngineOptions{});
  EXPECT_TRUE(e.ok());
  return std::move(e).value();
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Steps `pass` to its end; the number of steps that transferred.
int RunToEnd(FilePass& pass) {
  int steps = 0;
  for (;;) {
    auto more = pass.Step();
    EXPECT_TRUE(more.ok()) << more.status().message();
    if (!more.ok() || !*more) return steps;
    ++steps;
  }
}

class FilePassTest : public TestDir {
 protected:
  void SetUp() override {
    TestDir::SetUp();
    src_ = dir_ + "/src";
    // 3 blocks of 64 KiB and an unaligned tail, random bytes.
    Random rng(5);
    contents_.resize(3 * 65536 + 1000);
    for (char& c : contents_) c = static_cast<char>(rng.Next64());
    std::ofstream(src_, std::ios::binary) << contents_;
  }
  std::string src_, contents_;
};

TEST_F(FilePassTest, AReadPassReadsTheWholeFileInBlocks) {
  for (bool direct : {true, false}) {
    ReadPassOptions o;
    o.path = src_;
    o.block = 65536;
    o.direct = direct;
    auto pass = OpenReadPass(Psync(), o);
    ASSERT_TRUE(pass.ok()) << pass.status().message();
    EXPECT_EQ(RunToEnd(**pass), 4);
    EXPECT_EQ((*pass)->bytes(), contents_.size());
    if (!direct) EXPECT_EQ((*pass)->how(), "buffered");
  }
}

TEST_F(FilePassTest, ARangedReadEndsAtItsLengthAndFailsShortOfIt) {
  ReadPassOptions o;
  o.path = src_;
  o.block = 65536;
  o.direct = false;
  o.start = 65536;
  o.length = 2 * 65536;
  auto pass = OpenReadPass(Psync(), o);
  ASSERT_TRUE(pass.ok());
  EXPECT_EQ(RunToEnd(**pass), 2);
  EXPECT_EQ((*pass)->bytes(), 2u * 65536);

  o.length = 4 * 65536;  // past the end of the file
  auto past = OpenReadPass(Psync(), o);
  ASSERT_TRUE(past.ok());
  Result<bool> step = true;
  while (step.ok() && *step) step = (*past)->Step();
  ASSERT_FALSE(step.ok());
  EXPECT_NE(step.status().message().find("the sequential read of '" + src_ + "' failed"),
            std::string::npos);
}

TEST_F(FilePassTest, AReadPassOfAMissingFileIsAnError) {
  ReadPassOptions o;
  o.path = dir_ + "/missing";
  auto pass = OpenReadPass(Psync(), o);
  ASSERT_FALSE(pass.ok());
  EXPECT_NE(pass.status().message().find(o.path), std::string::npos);
}

TEST_F(FilePassTest, ACopyPassCopiesEveryByteIncludingTheUnalignedTail) {
  for (bool direct : {true, false}) {
    CopyPassOptions o;
    o.src = src_;
    o.dst = dir_ + (direct ? "/dst-direct" : "/dst-buffered");
    o.block = 65536;
    o.direct = direct;
    {
      auto pass = OpenCopyPass(Psync(), o);
      ASSERT_TRUE(pass.ok()) << pass.status().message();
      EXPECT_EQ(RunToEnd(**pass), 4);
      ASSERT_TRUE((*pass)->Finish().ok());
      EXPECT_EQ((*pass)->bytes(), contents_.size());
    }
    EXPECT_EQ(ReadAll(o.dst), contents_);  // kept after the pass is gone
  }
}

TEST_F(FilePassTest, ACopyNotFinishedLeavesNoPartialFile) {
  CopyPassOptions o;
  o.src = src_;
  o.dst = dir_ + "/dst";
  o.block = 65536;
  {
    auto pass = OpenCopyPass(Psync(), o);
    ASSERT_TRUE(pass.ok());
    ASSERT_TRUE((*pass)->Step().ok());
    EXPECT_TRUE(std::filesystem::exists(o.dst));
  }
  EXPECT_FALSE(std::filesystem::exists(o.dst));
}

TEST_F(FilePassTest, ACopyWritesOnlyANewFile) {
  CopyPassOptions o;
  o.src = src_;
  o.dst = dir_ + "/dst";
  std::ofstream(o.dst) << "keep me";
  auto pass = OpenCopyPass(Psync(), o);
  ASSERT_FALSE(pass.ok());
  EXPECT_EQ(pass.status().code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(ReadAll(o.dst), "keep me");
  // A missing SRC: DST was created first and is removed again.
  o.src = dir_ + "/missing";
  o.dst = dir_ + "/dst2";
  auto missing = OpenCopyPass(Psync(), o);
  ASSERT_FALSE(missing.ok());
  EXPECT_FALSE(std::filesystem::exists(o.dst));
}

}  // namespace
}  // namespace sb::fsload
