// The process-wide group and the transport a program installs: storebench has none and refuses
// a job of several ranks (naming storebench-mpi), storebench-mpi starts and stops its own.
#include "dist/world.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <memory>
#include <string>

namespace sb::dist {
namespace {

class WorldTest : public ::testing::Test {
 protected:
  void TearDown() override {
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK", "PMIX_RANK"}) {
      unsetenv(v);
    }
    InstallTransport({});
  }
};

TEST_F(WorldTest, WithoutATransportSeveralRanksAreRefusedNamingStorebenchMpi) {
  setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
  EXPECT_TRUE(LaunchedByMpirun());
  EXPECT_FALSE(BuiltWithMpi());
  const Status s = StartWorld(nullptr, nullptr);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("run storebench-mpi under mpirun"), std::string::npos) << s.message();
  EXPECT_EQ(World(), nullptr);
}

TEST_F(WorldTest, WithoutATransportOneRankRunsAlone) {
  setenv("OMPI_COMM_WORLD_SIZE", "1", 1);
  EXPECT_TRUE(StartWorld(nullptr, nullptr).ok());
  EXPECT_EQ(World(), nullptr);
  EndWorld();
}

TEST_F(WorldTest, RankAndSizeFromTheLaunchersEnvironment) {
  EXPECT_FALSE(LaunchedByMpirun());
  EXPECT_EQ(RankFromEnvironment(), -1);
  EXPECT_EQ(SizeFromEnvironment(), -1);
  setenv("PMIX_RANK", "1", 1);
  EXPECT_TRUE(LaunchedByMpirun());
  EXPECT_EQ(RankFromEnvironment(), 1);
  setenv("OMPI_COMM_WORLD_RANK", "3", 1);  // Open MPI's own variable first
  setenv("OMPI_COMM_WORLD_SIZE", "4x", 1);
  EXPECT_EQ(RankFromEnvironment(), 3);
  EXPECT_EQ(SizeFromEnvironment(), -1);  // not a number
}

// A transport of one process: started, makes no group, stopped by EndWorld.
int g_starts = 0, g_stops = 0;
class OneProcess : public Transport {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void Send(int, int, std::string) override {}
  bool TryReceive(int, int, std::string*) override { return false; }
};

TEST_F(WorldTest, AnInstalledTransportIsStartedAndStopped) {
  InstallTransport({.start = [](int*, char***) -> std::unique_ptr<Transport> {
                      ++g_starts;
                      return std::make_unique<OneProcess>();
                    },
                    .stop = [](bool) { ++g_stops; }});
  EXPECT_TRUE(BuiltWithMpi());
  setenv("OMPI_COMM_WORLD_SIZE", "1", 1);
  EXPECT_TRUE(StartWorld(nullptr, nullptr).ok());
  EXPECT_EQ(g_starts, 1);
  EXPECT_EQ(World(), nullptr);
  EndWorld();
  EXPECT_EQ(g_stops, 1);
}

}  // namespace
}  // namespace sb::dist
