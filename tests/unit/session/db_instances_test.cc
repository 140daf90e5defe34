// A rank's part of an instance under mpirun (--rank_split), on a constructed driver spec.
#include "session/db_instances.h"

#include <gtest/gtest.h>

namespace sb::session {
namespace {

driver::DbInstanceSpec Spec(int threads) {
  driver::DbInstanceSpec spec;
  spec.options.threads = threads;
  spec.options.rate_per_sec = 100;
  spec.options.units_total = 10;
  spec.options.seed = 5;
  spec.options.op_log_path = "ops.log";
  return spec;
}

TEST(ScaleToRankShareTest, ScalesRateAndUnitsWithTheThreads) {
  driver::DbInstanceSpec spec = Spec(4);
  ScaleToRankShare(&spec, 1, 2);
  EXPECT_EQ(spec.options.threads, 1);
  EXPECT_DOUBLE_EQ(spec.options.rate_per_sec, 25);
  EXPECT_EQ(spec.options.units_total, 3);  // 2.5 rounded
  EXPECT_EQ(spec.options.seed, 5u + 2 * 7919);
  EXPECT_EQ(spec.options.op_log_path, "ops.log.rank2");
}

TEST(ScaleToRankShareTest, RankZeroKeepsTheSeedAndAtLeastOneUnit) {
  driver::DbInstanceSpec spec = Spec(30);
  ScaleToRankShare(&spec, 1, 0);
  EXPECT_EQ(spec.options.seed, 5u);
  EXPECT_EQ(spec.options.units_total, 1);  // 0.33 would be none
}

TEST(ScaleToRankShareTest, ARankWithoutThreadsWritesNoOpLog) {
  driver::DbInstanceSpec spec = Spec(4);
  ScaleToRankShare(&spec, 0, 1);  // --rank_split=instances: another rank's instance
  EXPECT_EQ(spec.options.threads, 0);
  EXPECT_DOUBLE_EQ(spec.options.rate_per_sec, 0);
  EXPECT_TRUE(spec.options.op_log_path.empty());
}

TEST(ScaleToRankShareTest, UnlimitedUnitsStayUnlimited) {
  driver::DbInstanceSpec spec = Spec(4);
  spec.options.units_total = 0;
  ScaleToRankShare(&spec, 2, 1);
  EXPECT_EQ(spec.options.units_total, 0);
}

}  // namespace
}  // namespace sb::session
