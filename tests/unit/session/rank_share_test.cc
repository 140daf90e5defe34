// Dividing a run among ranks (--rank_split) and among DVD Store 3's target list.
#include "session/rank_share.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace sb::session {
namespace {

std::vector<int64_t> Shares(const std::string& split, int ranks, int64_t total, int instance = 0,
                            int instances = 1) {
  std::vector<int64_t> out;
  for (int r = 0; r < ranks; ++r) {
    auto s = ShareOf(split, r, ranks, total, "threads", instance, instances);
    EXPECT_TRUE(s.ok()) << s.status().message();
    out.push_back(s.ok() ? *s : -1);
  }
  return out;
}

TEST(RankShareTest, ThreadsGoOneMoreToTheLowRanks) {
  EXPECT_EQ(Shares("threads", 3, 10), (std::vector<int64_t>{4, 3, 3}));
  EXPECT_EQ(Shares("threads", 4, 10), (std::vector<int64_t>{3, 3, 2, 2}));
  EXPECT_EQ(Shares("threads", 2, 2), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(Shares("threads", 1, 7), (std::vector<int64_t>{7}));
}

TEST(RankShareTest, ThreadSharesAddUpToTheTotal) {
  for (int ranks = 1; ranks <= 9; ++ranks) {
    for (int64_t total = ranks; total <= 40; ++total) {
      int64_t sum = 0, lo = total, hi = 0;
      for (int64_t s : Shares("threads", ranks, total)) {
        sum += s;
        lo = std::min(lo, s);
        hi = std::max(hi, s);
      }
      EXPECT_EQ(sum, total) << ranks << " ranks, " << total << " threads";
      EXPECT_LE(hi - lo, 1) << ranks << " ranks, " << total << " threads";
    }
  }
}

TEST(RankShareTest, MoreRanksThanThreadsIsRefused) {
  auto s = ShareOf("threads", 0, 4, 3, "workers", 0, 1);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.status().message(),
            "mpirun started 4 ranks for 3 workers: every rank needs at least one; use fewer ranks");
}

TEST(RankShareTest, InstancesGoWholeToOneRankEach) {
  // Five instances of 8 threads on two ranks: rank 0 runs 0, 2 and 4, rank 1 runs 1 and 3.
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(Shares("instances", 2, 8, i, 5),
              (i % 2 == 0 ? std::vector<int64_t>{8, 0} : std::vector<int64_t>{0, 8}))
        << "instance " << i;
  }
  // The thread count does not matter: one thread is not divided.
  EXPECT_EQ(Shares("instances", 3, 1, 2, 3), (std::vector<int64_t>{0, 0, 1}));
}

TEST(RankShareTest, MoreRanksThanInstancesIsRefused) {
  auto s = ShareOf("instances", 0, 3, 8, "threads", 0, 2);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.status().message().find("3 ranks for 2 instance(s)"), std::string::npos);
  EXPECT_NE(s.status().message().find("--rank_split=threads"), std::string::npos);
}

TEST(RankShareTest, RoundRobinOverTargets) {
  // Thread t drives target t mod parts: 10 threads over 4 targets are 3, 3, 2, 2.
  EXPECT_EQ(RoundRobinShare(10, 4, 0), 3);
  EXPECT_EQ(RoundRobinShare(10, 4, 1), 3);
  EXPECT_EQ(RoundRobinShare(10, 4, 2), 2);
  EXPECT_EQ(RoundRobinShare(10, 4, 3), 2);
  // Fewer threads than targets: the last targets get none.
  EXPECT_EQ(RoundRobinShare(2, 3, 2), 0);
  for (int64_t parts = 1; parts <= 6; ++parts) {
    for (int64_t total = 0; total <= 20; ++total) {
      int64_t sum = 0;
      for (int64_t i = 0; i < parts; ++i) sum += RoundRobinShare(total, parts, i);
      EXPECT_EQ(sum, total) << total << " over " << parts;
    }
  }
}

}  // namespace
}  // namespace sb::session
