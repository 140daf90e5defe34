#include <gtest/gtest.h>

#include "base/clock.h"
#include "driver/pacer.h"
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

TEST(ThinkTimeTest, OnlyAClosedLoopWithoutThinkTimeIsDueAtOnce) {
  // The worker skips NextIntendedStart when the pacer says every unit is due at once: that
  // must hold only when it would return `now` every time.
  auto none = NewClosedLoopPacer(0, 1);
  EXPECT_TRUE(none->due_at_once());
  for (int64_t now : {0, 5, 1000000}) EXPECT_EQ(none->NextIntendedStart(now), now);
  auto thinks = NewClosedLoopPacer(0.01, 1);
  EXPECT_FALSE(thinks->due_at_once());
  EXPECT_FALSE(NewOpenLoopPacer(100, 1, 0, Arrival::kConstant, 0, 1)->due_at_once());
}

}  // namespace
}  // namespace sb::driver
