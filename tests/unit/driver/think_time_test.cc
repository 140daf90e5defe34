#include <gtest/gtest.h>

#include "base/clock.h"
#include "driver/runner.h"

namespace sb::driver {
namespace {

TEST(ThinkTimeTest, ZeroMeansNoSleep) {
  Random r(1);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(DrawThinkTimeNanos(r, 0), 0);
}

TEST(ThinkTimeTest, DrawnAsDvdStoreWholeMillisecondsBelowTwiceTheMean) {
  // DVD Store sleeps Next(2 * floor(1000 * think_time)) ms: U[0, 2T-1] ms, mean T - 0.5 ms.
  Random r(2);
  const double think = 0.4;
  const int n = 100000;
  double sum = 0;
  int64_t max = 0;
  for (int i = 0; i < n; ++i) {
    const int64_t ns = DrawThinkTimeNanos(r, think);
    ASSERT_EQ(ns % kNanosPerMilli, 0);
    ASSERT_GE(ns, 0);
    ASSERT_LT(ns, 800 * kNanosPerMilli);
    max = std::max(max, ns);
    sum += static_cast<double>(ns) / kNanosPerMilli;
  }
  EXPECT_EQ(max, 799 * kNanosPerMilli);
  EXPECT_NEAR(sum / n, 399.5, 2.0);  // sigma of the mean is 0.73 ms
}

}  // namespace
}  // namespace sb::driver
