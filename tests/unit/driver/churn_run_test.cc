// RunChurn (driver/churn_run.h): the churn writers on the Controller, sampled on the driver's
// clock. A fake clock makes the samples' times exact; the writers write real files.
#include "driver/churn_run.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "base/clock.h"

namespace sb::driver {
namespace {

class ChurnRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::string(STOREBENCH_TEST_TMP) + "/churn_run_test-" + info->name() + "-" +
           std::to_string(::getpid());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    auto fs = fs::DescribeFileSystem(dir_);
    ASSERT_TRUE(fs.ok()) << fs.status().message();
    options_.dir = dir_;
    options_.writers = 2;
    options_.max_bytes = 32u << 20;
    options_.duration_nanos = 3 * kNanosPerSecond;
    options_.sample_nanos = kNanosPerSecond;
    options_.fs = *fs;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string dir_;
  ChurnRunOptions options_;
};

TEST_F(ChurnRunTest, SamplesBeforeAtEveryIntervalAndAfterOnTheDriversClock) {
  FakeClock clock(kNanosPerSecond);
  std::vector<double> seen;
  auto r =
      RunChurn(clock, options_, [&](const fsload::ChurnSample& s) { seen.push_back(s.t_sec); });
  ASSERT_TRUE(r.ok()) << r.status().message();
  // Before Start, at 1 s and 2 s, and after the writers stopped at 3 s (the controller's last
  // sample, at the run's end, is the one taken after them).
  ASSERT_EQ(r->samples.size(), 4u);
  EXPECT_EQ(seen, (std::vector<double>{0, 1, 2, 3}));
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(r->samples[i].t_sec, seen[i]);
  EXPECT_EQ(r->samples[0].files, 0);
  EXPECT_FALSE(r->interrupted);
  EXPECT_FALSE(r->started_at.empty());
  EXPECT_EQ(r->write_errors, 0u) << r->first_error;
  // Every writer worked in its own directory; what they wrote is what the last sample counts.
  EXPECT_TRUE(std::filesystem::is_directory(dir_ + "/w0"));
  EXPECT_TRUE(std::filesystem::is_directory(dir_ + "/w1"));
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/w2"));
  uint64_t bytes = 0;
  int64_t files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir_)) {
    if (!e.is_regular_file()) continue;
    ++files;
    bytes += e.file_size();
  }
  EXPECT_EQ(r->samples.back().files, files);
  EXPECT_EQ(r->samples.back().file_bytes, bytes);
  EXPECT_GE(r->bytes_written, bytes);
  if (r->operations > 0) EXPECT_GT(files, 0);
}

TEST_F(ChurnRunTest, AWriterThatCannotStartFailsTheRun) {
  std::ofstream(dir_ + "/w1") << "a file where writer 1's directory goes";
  FakeClock clock;
  int samples = 0;
  auto r = RunChurn(clock, options_, [&](const fsload::ChurnSample&) { ++samples; });
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find(dir_ + "/w1"), std::string::npos) << r.status().message();
  // Found before the volume is measured: not even the sample before Start was taken.
  EXPECT_EQ(samples, 0);
}

}  // namespace
}  // namespace sb::driver
