// io fragtest's schedule (workload/fs/fragtest.h) on a real test file: fragmented, the trials
// before in their order, defragmented, the trials after; the trials themselves are recorded
// here instead of run (the driver runs them: driver/fragtest_trials.h).
#include "workload/fs/fragtest.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "backend/fs/extent_map.h"
#include "base/clock.h"
#include "base/file_lock.h"
#include "test_dir.h"
#include "workload/storage/test_file.h"

namespace sb::fsload {
namespace {

class RecordingTrials : public FragtestTrials {
 public:
  Result<FragtestTrial> RunSpec(const std::string& phase, int round, size_t spec) override {
    calls.push_back(phase + " r" + std::to_string(round + 1) + " s" + std::to_string(spec));
    const double base = phase == "before" ? 100 : 200;
    return FragtestTrial{base + static_cast<double>(spec), base / 10};
  }
  Result<double> SequentialRead() override {
    calls.emplace_back("seq");
    return 7.0;
  }
  std::vector<std::string> calls;
};

class FragtestTest : public TestDir {
 protected:
  // A 4 MiB storebench test file; false (the case skips) where its layout cannot be measured.
  bool Prepare() {
    path_ = dir_ + "/fragtest.tst";
    storage::PrepareOptions p;
    p.path = path_;
    p.data_bytes = 4 << 20;
    p.direct = false;
    bool created = false;
    EXPECT_TRUE(PrepareTestFile(
                    p, [](const std::string&) {}, &created)
                    .ok());
    auto fs = fs::DescribeFileSystem(path_);
    if (!fs.ok() || !fs::MeasureFile(path_, *fs).ok()) return false;
    fsinfo_ = *fs;
    return true;
  }
  FragtestOptions Options() {
    FragtestOptions o;
    o.path = path_;
    o.extents = 40;
    o.rounds = 2;
    o.specs = 2;
    o.seq_read = true;
    o.clock = &clock_;
    o.progress = [](const std::string&) {};
    return o;
  }
  std::string path_;
  fs::FileSystemInfo fsinfo_;
  FakeClock clock_;
};

TEST_F(FragtestTest, FragmentsThenRunsBeforeDefragmentsThenRunsAfter) {
  if (!Prepare()) GTEST_SKIP() << "no FIEMAP on the build tree's file system";
  RecordingTrials trials;
  FragtestOptions o = Options();
  int fragmented_calls = 0;
  o.on_fragmented = [&](const fs::FragmentResult& r) {
    ++fragmented_calls;
    EXPECT_TRUE(trials.calls.empty());  // before any trial
    EXPECT_EQ(r.after, MeasureFile(path_, fsinfo_)->extents);
  };
  std::unique_ptr<FileLock> lock;
  auto out = RunFragtest(o, fsinfo_, trials, &lock);
  if (!out.ok() && out.status().code() == StatusCode::kFailedPrecondition) {
    GTEST_SKIP() << out.status().message();
  }
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(fragmented_calls, 1);
  EXPECT_EQ(trials.calls,
            (std::vector<std::string>{"before r1 s0", "before r1 s1", "seq", "before r2 s0",
                                      "before r2 s1", "seq", "after r1 s0", "after r1 s1", "seq",
                                      "after r2 s0", "after r2 s1", "seq"}));
  EXPECT_EQ(out->before.name, "before");
  EXPECT_EQ(out->after.name, "after");
  EXPECT_GE(out->before.extents, 38);  // within 5 % of the 40 asked for
  EXPECT_LE(out->before.extents, 42);
  EXPECT_LT(out->after.extents, out->before.extents);
  EXPECT_EQ(out->before.iops, (std::vector<std::vector<double>>{{100, 100}, {101, 101}}));
  EXPECT_EQ(out->after.iops, (std::vector<std::vector<double>>{{200, 200}, {201, 201}}));
  EXPECT_EQ(out->after.mibs[1], (std::vector<double>{20, 20}));
  EXPECT_EQ(out->before.seq_mibs, (std::vector<double>{7, 7}));
  EXPECT_FALSE(out->defrag.attempts.empty());
}

// ABBA across two rounds: before, after, after, before; the file is defragmented before the
// first "after" and fragmented again before the last "before", and each trial finds the file in
// the state it is named for.
TEST_F(FragtestTest, AbbaOrderDefragmentsAndFragmentsAgainBetweenTrials) {
  if (!Prepare()) GTEST_SKIP() << "no FIEMAP on the build tree's file system";
  struct StateTrials : RecordingTrials {
    Result<FragtestTrial> RunSpec(const std::string& phase, int round, size_t spec) override {
      extents.push_back(fs::MeasureFile(path, fsinfo)->extents);
      return RecordingTrials::RunSpec(phase, round, spec);
    }
    std::string path;
    fs::FileSystemInfo fsinfo;
    std::vector<int64_t> extents;
  } trials;
  trials.path = path_;
  trials.fsinfo = fsinfo_;
  FragtestOptions o = Options();
  o.order = {true, false, false, true};
  o.seq_read = false;
  int fragmented_calls = 0;
  o.on_fragmented = [&](const fs::FragmentResult&) { ++fragmented_calls; };
  std::unique_ptr<FileLock> lock;
  auto out = RunFragtest(o, fsinfo_, trials, &lock);
  if (!out.ok() && out.status().code() == StatusCode::kFailedPrecondition) {
    GTEST_SKIP() << out.status().message();
  }
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(fragmented_calls, 2);  // once at the start, once more for the last trial
  EXPECT_EQ(trials.calls,
            (std::vector<std::string>{"before r1 s0", "before r1 s1", "after r1 s0", "after r1 s1",
                                      "after r2 s0", "after r2 s1", "before r2 s0",
                                      "before r2 s1"}));
  ASSERT_EQ(trials.extents.size(), 8u);
  for (size_t i : {0, 1, 6, 7}) EXPECT_GE(trials.extents[i], 38) << i;
  for (size_t i : {2, 3, 4, 5}) EXPECT_LT(trials.extents[i], 38) << i;
  EXPECT_EQ(out->before.iops, (std::vector<std::vector<double>>{{100, 100}, {101, 101}}));
  EXPECT_EQ(out->after.iops, (std::vector<std::vector<double>>{{200, 200}, {201, 201}}));
  EXPECT_FALSE(out->page_cache.empty());  // the pages were dropped before the trials
}

TEST_F(FragtestTest, AStopEndsItBeforeTheNextTrial) {
  if (!Prepare()) GTEST_SKIP() << "no FIEMAP on the build tree's file system";
  RecordingTrials trials;
  FragtestOptions o = Options();
  std::atomic<bool> stop{false};
  o.stop = &stop;
  o.on_fragmented = [&](const fs::FragmentResult&) { stop = true; };
  std::unique_ptr<FileLock> lock;
  auto out = RunFragtest(o, fsinfo_, trials, &lock);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kCancelled);
  EXPECT_TRUE(trials.calls.empty());
}

TEST(FragtestMedian, OfOddEvenAndNone) {
  EXPECT_DOUBLE_EQ(Median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(Median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(Median({}), 0);
}

}  // namespace
}  // namespace sb::fsload
