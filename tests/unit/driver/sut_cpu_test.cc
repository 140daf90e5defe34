// The system under test's CPU probe with a command standing in for a remote host's /proc/stat:
// each call adds 300 ticks of user time and 100 of idle, so every interval is 75 % busy.
#include "driver/sut_cpu.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>

#include "base/clock.h"

namespace sb::driver {
namespace {

// A run reads once a second; what these cases assert holds for any interval between readings,
// so they read every 100 ms.
constexpr int64_t kPeriod = 100 * kNanosPerMilli;

// Until the probe has `n` intervals (n + 1 readings) or a reading failed (the case's
// assertions then say why).
void AwaitPoints(const SutCpuProbe& probe, size_t n) {
  std::string error;
  while (probe.Points(0, &error).size() < n && error.empty()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

TEST(SutCpuProbeTest, CommandReadingsBecomePerIntervalUtilization) {
  std::filesystem::create_directories(STOREBENCH_TEST_TMP);  // the first test may run before others
  const std::string state = std::string(STOREBENCH_TEST_TMP) + "/sut-cpu-state";
  std::remove(state.c_str());
  const std::string cmd = "n=$(cat " + state + " 2>/dev/null || echo 0); n=$((n+100)); echo $n > " +
                          state + "; echo \"cpu  $((3*n)) 0 0 $n 0 0 0 0\"; echo cpu0 1 0 0 0";
  SteadyClock clock;
  SutCpuProbe probe(clock, cmd, kPeriod);
  const int64_t t0 = clock.NowNanos();
  probe.Start();
  AwaitPoints(probe, 2);
  probe.Stop();
  std::string error;
  const auto points = probe.Points(t0, &error);
  EXPECT_EQ(error, "");
  ASSERT_GE(points.size(), 2u);
  for (const auto& p : points) {
    EXPECT_DOUBLE_EQ(p.utilization_pct, 75);
    EXPECT_DOUBLE_EQ(p.user_pct, 75);
    EXPECT_GT(p.t_sec, 0);
  }
  EXPECT_LT(points[0].t_sec, points[1].t_sec);
  EXPECT_EQ(probe.Source(), "command: " + cmd);
}

TEST(SutCpuProbeTest, ACommandWithoutProcStatSaysWhy) {
  SteadyClock clock;
  SutCpuProbe probe(clock, "echo no such host; exit 255", kPeriod);
  probe.Start();
  AwaitPoints(probe, 1);  // returns at the first failed reading
  probe.Stop();
  std::string error;
  EXPECT_TRUE(probe.Points(0, &error).empty());
  EXPECT_NE(error.find("no /proc/stat 'cpu' line (exit status 255)"), std::string::npos) << error;
}

TEST(SutCpuProbeTest, LocalProcStatGivesPointsWithinZeroAndHundred) {
  SteadyClock clock;
  SutCpuProbe probe(clock, "", kPeriod);
  probe.Start();
  AwaitPoints(probe, 1);
  probe.Stop();
  std::string error;
  const auto points = probe.Points(0, &error);
  EXPECT_EQ(error, "");
  ASSERT_GE(points.size(), 1u);
  EXPECT_GE(points[0].utilization_pct, 0);
  EXPECT_LE(points[0].utilization_pct, 100);
  EXPECT_EQ(probe.Source(), "local /proc/stat");
}

}  // namespace
}  // namespace sb::driver
