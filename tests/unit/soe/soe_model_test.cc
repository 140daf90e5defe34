// The Order Entry model: the transaction mix over many seeded draws, think-time draws, sizes and
// the bad-input refusals (negative or all-zero weights, a minimum delay above its maximum).
#include "workload/soe/soe_model.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>

namespace sb::soe {
namespace {

TEST(TxMix, DrawsFollowTheWeights) {
  // The VMware FT paper's mix: NCR 20, BP 50, PO 10, BO 50 (the others disabled).
  std::array<int64_t, kNumTx> w{};
  w[kNcr] = 20;
  w[kBp] = 50;
  w[kPo] = 10;
  w[kBo] = 50;
  auto mix = TxMix::FromWeights(w);
  ASSERT_TRUE(mix.ok()) << mix.status().message();
  Random rng(42);
  constexpr int kDraws = 200000;
  std::array<int64_t, kNumTx> n{};
  for (int i = 0; i < kDraws; ++i) ++n[mix->Pick(rng)];
  for (int t = 0; t < kNumTx; ++t) {
    const double p = static_cast<double>(w[t]) / 130.0;
    EXPECT_DOUBLE_EQ(mix->Probability(t), p);
    // Five standard deviations of a binomial count: a fair mix never fails this.
    const double sd = std::sqrt(kDraws * p * (1 - p));
    EXPECT_NEAR(static_cast<double>(n[t]), kDraws * p, 5 * sd + 1) << InfoOf(t).short_name;
    if (w[t] == 0) {
      EXPECT_EQ(n[t], 0) << InfoOf(t).short_name;
    }
  }
}

TEST(TxMix, RefusesNegativeAndAllZeroWeights) {
  std::array<int64_t, kNumTx> w{};
  auto zero = TxMix::FromWeights(w);
  ASSERT_FALSE(zero.ok());
  EXPECT_EQ(zero.status().code(), StatusCode::kInvalidArgument);
  w[kBp] = 5;
  w[kOp] = -1;
  auto negative = TxMix::FromWeights(w);
  ASSERT_FALSE(negative.ok());
  EXPECT_NE(negative.status().message().find("OP"), std::string::npos);
}

TEST(Delays, DrawnInRangeAndMinAboveMaxRefused) {
  Random rng(7);
  int64_t lo = INT64_MAX, hi = 0;
  for (int i = 0; i < 20000; ++i) {
    const int64_t d = DrawDelayNanos(rng, 50, 250);
    ASSERT_GE(d, 50 * 1000000LL);
    ASSERT_LE(d, 250 * 1000000LL);
    ASSERT_EQ(d % 1000000, 0);
    lo = std::min(lo, d);
    hi = std::max(hi, d);
  }
  EXPECT_EQ(lo, 50 * 1000000LL);  // both ends are reached
  EXPECT_EQ(hi, 250 * 1000000LL);
  EXPECT_EQ(DrawDelayNanos(rng, 0, 0), 0);
  Delays d;
  d.min_ms = 300;
  d.max_ms = 250;
  EXPECT_EQ(CheckDelays(d).code(), StatusCode::kInvalidArgument);
  d.min_ms = 0;
  d.inter_min_ms = 10;
  d.inter_max_ms = 5;
  EXPECT_EQ(CheckDelays(d).code(), StatusCode::kInvalidArgument);
  d.inter_max_ms = 10;
  EXPECT_TRUE(CheckDelays(d).ok());
}

TEST(SoeSize, ScaleOneIsSwingbenchsWizard) {
  auto s = SizeForScale(1);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->customers, 1000000);
  EXPECT_EQ(s->addresses, 1500000);
  EXPECT_EQ(s->orders, 1429790);
  EXPECT_EQ(s->logons, 2382984);
  EXPECT_EQ(s->warehouses, 1000);
  EXPECT_EQ(s->products, 1000);
  EXPECT_EQ(SizeForScale(0.001)->customers, 1000);
  EXPECT_EQ(SizeForScale(0.001)->warehouses, 10);
  EXPECT_FALSE(SizeForScale(0).ok());
  EXPECT_FALSE(SizeForScale(0.000001).ok());
  EXPECT_FALSE(SizeForScale(2000).ok());
}

TEST(TxNames, FromSwingbenchClassesAndShortNames) {
  EXPECT_EQ(TxFromClassName("com.dom.benchmarking.swingbench.benchmarks.orderentryplsql."
                            "NewCustomerProcessV2"),
            kNcr);
  EXPECT_EQ(TxFromClassName("x.BrowseAndUpdateOrders"), kBo);
  EXPECT_EQ(TxFromClassName("x.SalesRepsQuery"), kSq);
  EXPECT_EQ(TxFromClassName("x.SomethingElse"), -1);
  EXPECT_EQ(TxFromShortName("wa"), kWa);
}

}  // namespace
}  // namespace sb::soe
