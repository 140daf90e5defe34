// A rank's share of a run under mpirun (session/scale_out.h) on a group of constructed ranks: a
// transport that only names its rank and size (nothing is sent), installed as storebench-mpi
// installs MPI's, so dist::World() is a group of three and RankShare and SplitPlanAmongRanks
// answer as rank `rank` would. Without a group each is a run of one process.
#include "session/scale_out.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "dist/world.h"

namespace sb::session {
namespace {

int g_rank = 0;
int g_size = 1;

// Ranks that never talk: RankShare and the plan's split only read the rank and the size.
class SilentRanks : public dist::Transport {
 public:
  int rank() const override { return g_rank; }
  int size() const override { return g_size; }
  void Send(int, int, std::string) override {}
  bool TryReceive(int, int, std::string*) override { return false; }
};

// Options as the command line declares them for a run: --rank_split and n_threads.
config::OptionSet RunOptions(const std::string& split, int threads) {
  config::OptionSet o;
  o.Add({.name = "rank_split",
         .type = config::OptionType::kEnum,
         .default_value = "threads",
         .choices = {"threads", "instances"}});
  o.Add({.name = "n_threads", .type = config::OptionType::kInt, .default_value = "1"});
  EXPECT_TRUE(o.Set("rank_split", split, "test").ok());
  EXPECT_TRUE(o.Set("n_threads", std::to_string(threads), "test").ok());
  return o;
}

class ScaleOutTest : public ::testing::Test {
 protected:
  // Makes this process rank `rank` of `size` (World() null for a size of 1).
  void JoinAs(int rank, int size) {
    g_rank = rank;
    g_size = size;
    dist::InstallTransport({.start = [](int*, char***) -> std::unique_ptr<dist::Transport> {
                              return std::make_unique<SilentRanks>();
                            },
                            .stop = [](bool) {}});
    setenv("OMPI_COMM_WORLD_SIZE", std::to_string(size).c_str(), 1);
    ASSERT_TRUE(dist::StartWorld(nullptr, nullptr).ok());
    ASSERT_EQ(dist::World() != nullptr, size > 1);
  }
  void TearDown() override {
    dist::EndWorld();
    dist::InstallTransport({});
    unsetenv("OMPI_COMM_WORLD_SIZE");
  }
};

TEST_F(ScaleOutTest, WithoutAGroupTheShareIsTheWholeAndThePlanIsNotSplit) {
  EXPECT_EQ(*RankShare(RunOptions("instances", 7), 7, "threads", 2, 5), 7);
  PlanBuild build;
  SplitPlanAmongRanks(&build);
  EXPECT_FALSE(build.check);
  EXPECT_FALSE(build.owns);
}

TEST_F(ScaleOutTest, RankShareDividesThreadsAsRankSplitSays) {
  JoinAs(1, 3);
  // 10 threads over 3 ranks are 4, 3, 3: rank 1 runs 3.
  EXPECT_EQ(*RankShare(RunOptions("threads", 10), 10, "threads", 0, 1), 3);
  // Whole instances: rank 1 of 3 runs instances 1 and 4, none of instance 2.
  EXPECT_EQ(*RankShare(RunOptions("instances", 8), 8, "threads", 4, 5), 8);
  EXPECT_EQ(*RankShare(RunOptions("instances", 8), 8, "threads", 2, 5), 0);
  auto few = RankShare(RunOptions("threads", 2), 2, "workers", 0, 1);
  ASSERT_FALSE(few.ok());
  EXPECT_EQ(few.status().message(),
            "mpirun started 3 ranks for 2 workers: every rank needs at least one; use fewer ranks");
}

TEST_F(ScaleOutTest, SplitByInstancesOwnsEveryKthInstance) {
  JoinAs(2, 3);
  PlanBuild build;
  SplitPlanAmongRanks(&build);
  ASSERT_TRUE(build.check);
  ASSERT_TRUE(build.owns);
  // The first instance's check reads the run-wide --rank_split.
  const config::OptionSet o = RunOptions("instances", 4);
  for (int i = 0; i < 7; ++i) EXPECT_TRUE(build.check(i, 7, o).ok()) << i;
  std::vector<int> owned;
  for (int i = 0; i < 7; ++i) {
    if (build.owns(i)) owned.push_back(i);
  }
  EXPECT_EQ(owned, (std::vector<int>{2, 5}));
}

TEST_F(ScaleOutTest, SplitByThreadsLeavesEveryInstanceToRankZero) {
  JoinAs(1, 2);
  PlanBuild build;
  SplitPlanAmongRanks(&build);
  const config::OptionSet o = RunOptions("threads", 3);
  EXPECT_TRUE(build.check(0, 2, o).ok());
  EXPECT_FALSE(build.owns(0));
  EXPECT_FALSE(build.owns(1));

  JoinAs(0, 2);  // a fresh group: this process is now the coordinator
  PlanBuild first;
  SplitPlanAmongRanks(&first);
  EXPECT_TRUE(first.check(0, 2, o).ok());
  EXPECT_TRUE(first.owns(0));
  EXPECT_TRUE(first.owns(1));
}

TEST_F(ScaleOutTest, APlanThatCannotBeDividedIsRefusedAtItsCheck) {
  JoinAs(0, 3);
  PlanBuild build;
  SplitPlanAmongRanks(&build);
  // Two instances on three ranks, each run whole.
  const Status by_instances = build.check(0, 2, RunOptions("instances", 8));
  ASSERT_FALSE(by_instances.ok());
  EXPECT_NE(by_instances.message().find("3 ranks for 2 instance(s)"), std::string::npos)
      << by_instances.message();
  // One thread of an instance divided among three ranks.
  const Status by_threads = build.check(1, 2, RunOptions("threads", 1));
  ASSERT_FALSE(by_threads.ok());
  EXPECT_EQ(by_threads.message(),
            "mpirun started 3 ranks for 1 threads: every rank needs at least one; use fewer ranks");
}

}  // namespace
}  // namespace sb::session
