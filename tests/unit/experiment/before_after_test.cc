// The before/after experiment's trial order (ABBA) and its ratio with the bootstrap interval.
#include "experiment/before_after.h"

#include <gtest/gtest.h>

#include <cmath>

namespace sb::experiment {
namespace {

using C = Condition;

TEST(AbbaOrderTest, AlternatesWhichConditionRunsFirst) {
  EXPECT_EQ(AbbaOrder(1), (std::vector<C>{C::kBefore, C::kAfter}));
  EXPECT_EQ(AbbaOrder(3),
            (std::vector<C>{C::kBefore, C::kAfter, C::kAfter, C::kBefore, C::kBefore, C::kAfter}));
  // Over an even number of rounds each condition has the same mean position, so a linear
  // drift (a cache warming up) adds the same to both.
  const std::vector<C> o = AbbaOrder(4);
  double pos_before = 0, pos_after = 0;
  for (size_t i = 0; i < o.size(); ++i) (o[i] == C::kBefore ? pos_before : pos_after) += i;
  EXPECT_EQ(pos_before, pos_after);
}

TEST(CompareBeforeAfterTest, NoMeasurableEffectWhenTheIntervalHoldsOne) {
  // The same spread on both sides: ratio 1, the interval around it.
  const BeforeAfterRatio same = CompareBeforeAfter({100, 110, 90, 105}, {95, 108, 102, 100});
  ASSERT_TRUE(same.has_interval);
  EXPECT_LT(same.low, 1.0);
  EXPECT_GT(same.high, 1.0);
  EXPECT_EQ(same.verdict, "no measurable effect");
  // A clear change: every after trial above every before trial.
  const BeforeAfterRatio up = CompareBeforeAfter({100, 101, 99, 100}, {150, 152, 149, 151});
  ASSERT_TRUE(up.has_interval);
  EXPECT_NEAR(up.ratio, 1.5, 0.01);
  EXPECT_GT(up.low, 1.0);
  EXPECT_EQ(up.verdict, "higher after");
  EXPECT_EQ(CompareBeforeAfter({100, 101}, {50, 51}).verdict, "lower after");
}

TEST(CompareBeforeAfterTest, TooFewTrialsOrAZeroMeanGiveNoInterval) {
  const BeforeAfterRatio one = CompareBeforeAfter({100}, {120});
  EXPECT_FALSE(one.has_interval);
  EXPECT_NEAR(one.ratio, 1.2, 1e-12);
  EXPECT_NE(one.verdict.find("at least 2 trials"), std::string::npos);
  const BeforeAfterRatio zero = CompareBeforeAfter({0, 0}, {1, 2});
  EXPECT_FALSE(zero.has_interval);
  EXPECT_TRUE(std::isnan(zero.ratio));
}

}  // namespace
}  // namespace sb::experiment
