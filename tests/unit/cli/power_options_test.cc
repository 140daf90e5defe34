// The option table of `power log` and `power idle` (DeclarePowerCommandOptions), parsed as
// RunPowerCommand parses it, without opening a source: typed values, each verb's defaults, and
// bad values refused with OptionSet's sentence.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/power_cli.h"
#include "config/options.h"

namespace sb::cli {
namespace {

using Args = std::vector<std::string>;
constexpr int64_t kSecond = 1000000000;

Status ParsePower(const std::string& command, const Args& args, config::OptionSet* o) {
  o->set_help_command("storebench power " + command + " --help");
  DeclarePowerCommandOptions(o, command);
  return config::ParseCommandLine(args, o);
}

std::string ErrorOf(const std::string& command, const Args& args) {
  config::OptionSet o;
  const Status s = ParsePower(command, args, &o);
  EXPECT_FALSE(s.ok()) << "accepted";
  return s.message();
}

TEST(PowerOptionsTest, IdleReadsRepetitionsAndBareSeconds) {
  config::OptionSet o;
  const Status s =
      ParsePower("idle",
                 {"--power", "ptd://127.0.0.1:8888", "--power=rapl://", "--duration=90", "--settle",
                  "2m", "--repeat=3", "--json=i.json", "--csv", "i.csv"},
                 &o);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(o.GetString("power"), "ptd://127.0.0.1:8888,rapl://");
  EXPECT_EQ(o.GetDurationNanos("duration"), 90 * kSecond);  // a bare number is seconds here
  EXPECT_EQ(o.GetDurationNanos("settle"), 120 * kSecond);
  EXPECT_EQ(o.GetInt("repeat"), 3);
  EXPECT_EQ(o.GetString("json"), "i.json");
  EXPECT_EQ(o.GetString("csv"), "i.csv");
}

TEST(PowerOptionsTest, EachVerbsDefaults) {
  config::OptionSet idle;
  ASSERT_TRUE(ParsePower("idle", {}, &idle).ok());
  EXPECT_EQ(idle.GetDurationNanos("duration"), 300 * kSecond);
  EXPECT_EQ(idle.GetDurationNanos("settle"), 600 * kSecond);
  EXPECT_EQ(idle.GetInt("repeat"), 1);
  config::OptionSet log;
  ASSERT_TRUE(ParsePower("log", {"--power=csv:///tmp/w.csv"}, &log).ok());
  EXPECT_EQ(log.GetDurationNanos("duration"), 0);  // until stopped
  EXPECT_FALSE(log.Has("settle"));
  EXPECT_FALSE(log.Has("repeat"));
}

TEST(PowerOptionsTest, BadValues) {
  EXPECT_EQ(ErrorOf("idle", {"--repeat=0"}),
            "option repeat: '0' is below the minimum of 1 (command line)");
  EXPECT_EQ(ErrorOf("idle", {"--repeat=101"}),
            "option repeat: '101' is above the maximum of 100 (command line)");
  EXPECT_EQ(ErrorOf("log", {"--duration=later"}),
            "option duration: 'later' is not a duration like 90s, 2m or 1h30m, or a bare number "
            "of seconds (command line)");
  EXPECT_EQ(ErrorOf("log", {"--duration=400d"}).rfind("option duration: '400d' is ", 0), 0u);
  EXPECT_EQ(ErrorOf("log", {"--repeat=2"}),
            "unknown option 'repeat' (command line); see storebench power log --help");
}

}  // namespace
}  // namespace sb::cli
