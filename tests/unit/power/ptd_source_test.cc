// The ptd:// source against a PTDaemon simulator speaking the protocol over loopback
// (tests/ptd_simulator.py): readings, phase marks, error replies, a meter that stops answering.
#include "power/ptd_source.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "power/power_spec.h"
#include "unit/power/ptd_simulator_process.h"

namespace sb::power {
namespace {

using testing::PtdSimulator;

std::unique_ptr<PowerSource> Make(int port, const std::string& options = "") {
  auto spec = ParsePowerSpec("ptd://127.0.0.1:" + std::to_string(port) + options);
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  return MakePtdSource(*spec);
}

std::string TempLog(const std::string& name) {
  const std::string dir = std::string(STOREBENCH_TEST_TMP) + "/power";
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/" + name + "-" + std::to_string(getpid()) + ".log";
  std::filesystem::remove(path);
  return path;
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(ParsePtdWatts, ReadsTheReplyAndRejectsErrors) {
  EXPECT_DOUBLE_EQ(*ParsePtdWatts("Watts,231.500"), 231.5);
  EXPECT_DOUBLE_EQ(*ParsePtdWatts("Watts, 12"), 12);
  auto e = ParsePtdWatts("Error: range overflow");
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("Error: range overflow"), std::string::npos);
  EXPECT_FALSE(ParsePtdWatts("Watts,").ok());
  EXPECT_FALSE(ParsePtdWatts("Hello").ok());
}

TEST(PtdSource, ReadsWattsAndSendsTheProtocol) {
  const std::string log = TempLog("ptd-normal");
  PtdSimulator sim({"--watts", "231.5", "--log", log});
  ASSERT_GT(sim.port(), 0);
  auto src = Make(sim.port(), "?mark=warmup");
  ASSERT_TRUE(src->Open().ok());
  EXPECT_EQ(src->capabilities().measures, Measures::kWall);
  auto r = src->Read();
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->has_watts);
  EXPECT_DOUBLE_EQ(r->watts, 231.5);
  ASSERT_TRUE(src->Mark("window 23m-28m start").ok());
  src->Close();
  const std::string sent = ReadAll(log);
  // Hello, Identify, Go with the first mark; the mark change as Stop + Go; the end.
  EXPECT_NE(sent.find("Hello\nIdentify\nGo,1000,0,warmup\nWatts\n"), std::string::npos) << sent;
  EXPECT_NE(sent.find("Stop\nGo,1000,0,window 23m-28m start\n"), std::string::npos) << sent;
  EXPECT_NE(sent.find("Uncertainty\nRL\nStop\n"), std::string::npos) << sent;
  // The identification, uncertainty and log length end up in the description.
  const std::string d = src->Describe();
  EXPECT_NE(d.find("WT310"), std::string::npos) << d;
  EXPECT_NE(d.find("Uncertainty,0.0123"), std::string::npos) << d;
  EXPECT_NE(d.find("2 samples"), std::string::npos) << d;
  // The uncertainty reply fills the source's uncertainty (the result's `uncertainty`).
  EXPECT_DOUBLE_EQ(src->capabilities().uncertainty, 0.0123);
}

TEST(ParsePtdUncertainty, ReadsAFractionOrAPercentage) {
  EXPECT_DOUBLE_EQ(*ParsePtdUncertainty("Uncertainty,0.0123"), 0.0123);
  EXPECT_DOUBLE_EQ(*ParsePtdUncertainty("Uncertainty, 1.5%"), 0.015);
  EXPECT_FALSE(ParsePtdUncertainty("Uncertainty,").ok());
  EXPECT_FALSE(ParsePtdUncertainty("Uncertainty,-1").ok());
  EXPECT_FALSE(ParsePtdUncertainty("Uncertainty,0.1x").ok());
  EXPECT_FALSE(ParsePtdUncertainty("Error: no uncertainty").ok());
}

TEST(PtdSource, AnErrorReplyIsAFailedReadAndTheNextReadWorks) {
  PtdSimulator sim({"--watts", "100", "--error-every", "2"});
  ASSERT_GT(sim.port(), 0);
  auto src = Make(sim.port());
  ASSERT_TRUE(src->Open().ok());
  ASSERT_TRUE(src->Read().ok());
  auto second = src->Read();
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.status().message().find("Error: range overflow"), std::string::npos);
  auto third = src->Read();
  ASSERT_TRUE(third.ok()) << third.status().message();
  EXPECT_DOUBLE_EQ(third->watts, 100);
}

TEST(PtdSource, AMeterThatStopsAnsweringGivesErrorsNotAHang) {
  PtdSimulator sim({"--watts", "100", "--hang-after", "1"});
  ASSERT_GT(sim.port(), 0);
  auto src = Make(sim.port(), "?timeout_ms=200");
  ASSERT_TRUE(src->Open().ok());
  ASSERT_TRUE(src->Read().ok());
  auto r = src->Read();
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("no answer within 200 ms"), std::string::npos)
      << r.status().message();
  // The connection was dropped; the next read reconnects and the silent daemon fails it too.
  EXPECT_FALSE(src->Read().ok());
}

TEST(PtdSource, SomethingElseOnThePortIsNotAPtdaemon) {
  PtdSimulator sim({"--not-ptd"});
  ASSERT_GT(sim.port(), 0);
  auto src = Make(sim.port());
  Status s = src->Open();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("is not a PTDaemon"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("ptd://127.0.0.1:"), std::string::npos) << s.message();
}

TEST(PtdSource, AnUnreachableDaemonFailsOpenNamingTheSource) {
  // A port nobody listens on: bind one, learn its number, close it.
  int port = 0;
  {
    PtdSimulator sim({});
    port = sim.port();
  }
  ASSERT_GT(port, 0);
  auto src = Make(port);
  Status s = src->Open();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("power source ptd://127.0.0.1:" + std::to_string(port)),
            std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("cannot connect"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace sb::power
