// cmd: real commands run through the shell: the first number they print, commands that print
// none, and a command that takes too long.
#include "power/cmd_source.h"

#include <gtest/gtest.h>

#include "power/power_spec.h"

namespace sb::power {
namespace {

std::unique_ptr<PowerSource> Make(const std::string& text) {
  auto spec = ParsePowerSpec(text);
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  return MakeCmdSource(*spec);
}

TEST(FirstNumber, TakesTheFirstReadingNotANameWithDigits) {
  EXPECT_DOUBLE_EQ(*FirstNumber("231.5\n"), 231.5);
  EXPECT_DOUBLE_EQ(*FirstNumber("    Instantaneous power reading:   231 Watts\n"), 231);
  EXPECT_DOUBLE_EQ(*FirstNumber("wt310 channel: .5 kW"), 0.5);
  EXPECT_DOUBLE_EQ(*FirstNumber("PSU1 Input 118.25"), 118.25);
  EXPECT_FALSE(FirstNumber("no reading\n").ok());
  EXPECT_FALSE(FirstNumber("").ok());
}

TEST(CmdSource, ReadsWhatTheCommandPrints) {
  auto src = Make("cmd:\"printf 'Power: %s W\\n' 42.5\"");
  ASSERT_TRUE(src->Open().ok());
  auto r = src->Read();
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->has_watts);
  EXPECT_DOUBLE_EQ(r->watts, 42.5);
  EXPECT_EQ(src->capabilities().measures, Measures::kUnknown);
  EXPECT_EQ(src->Describe(), "command: printf 'Power: %s W\\n' 42.5");
}

TEST(CmdSource, ACommandPrintingNoNumberFailsOpen) {
  auto src = Make("cmd:echo offline; exit 3");
  Status s = src->Open();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("printed no number (exit status 3)"), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("power source cmd:echo offline"), std::string::npos);
}

TEST(CmdSource, ASlowCommandIsAMissingReading) {
  // A run gives the command 2 s; this one is given 0.2 s, far short of its 5 s all the same.
  auto spec = ParsePowerSpec("cmd:sleep 5; echo 1");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  auto src = MakeCmdSource(*spec, 200);
  auto r = src->Read();
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("did not finish within 0.2 s"), std::string::npos)
      << r.status().message();
}

TEST(CmdSource, NoCommandIsRefused) {
  EXPECT_EQ(Make("cmd:")->Open().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace sb::power
