// The one reading rule of every power source (power/reading_rule.h): a finite number of watts
// from 0 to 1 MW, else a missing second with its reason. Each case is a value a source has
// produced: a command printing "-5" (read as +5 W before), "0x20" (32 W), "1e400" and "inf"
// (counted as readings with null points), "1e308" (an average that overflowed to null).
#include "power/reading_rule.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <thread>
#include <vector>

#include "power/cmd_source.h"
#include "power/csv_source.h"
#include "power/power_spec.h"
#include "power/ptd_source.h"
#include "power/sampler.h"

namespace sb::power {
namespace {

TEST(CheckWatts, FiniteFromZeroToOneMegawatt) {
  EXPECT_TRUE(CheckWatts(0).ok());
  EXPECT_TRUE(CheckWatts(231.5).ok());
  EXPECT_TRUE(CheckWatts(kMaxPlausibleWatts).ok());
  for (double bad :
       {-5.0, -0.001, kMaxPlausibleWatts * 1.001, 1e308, std::numeric_limits<double>::infinity(),
        std::numeric_limits<double>::quiet_NaN()}) {
    const Status s = CheckWatts(bad);
    EXPECT_FALSE(s.ok()) << bad;
    EXPECT_NE(s.message().find("implausible reading"), std::string::npos) << s.message();
  }
  EXPECT_EQ(CheckWatts(-5).message(),
            "implausible reading -5 W (a reading is a number from 0 to 1000000 W)");
}

TEST(ParseDecimal, DecimalOnlyWithSignAndOverflowAsInfinity) {
  double w = 0;
  EXPECT_EQ(ParseDecimal("231.5 W", &w), 5u);
  EXPECT_DOUBLE_EQ(w, 231.5);
  EXPECT_EQ(ParseDecimal("-5", &w), 2u);
  EXPECT_DOUBLE_EQ(w, -5);
  EXPECT_EQ(ParseDecimal("+.5", &w), 3u);
  EXPECT_DOUBLE_EQ(w, 0.5);
  EXPECT_EQ(ParseDecimal("1e400", &w), 5u);
  EXPECT_TRUE(std::isinf(w));
  EXPECT_EQ(ParseDecimal("1e-400", &w), 6u);
  EXPECT_DOUBLE_EQ(w, 0);
  EXPECT_EQ(ParseDecimal("0x20", &w), 1u);  // the "0" only: never 32
  EXPECT_DOUBLE_EQ(w, 0);
  EXPECT_EQ(ParseDecimal("inf", &w), 0u);
  EXPECT_EQ(ParseDecimal("nan", &w), 0u);
  EXPECT_EQ(ParseDecimal("-", &w), 0u);
  EXPECT_EQ(ParseDecimal("", &w), 0u);
}

TEST(FirstNumber, KeepsTheSignAndRefusesHexadecimal) {
  EXPECT_DOUBLE_EQ(*FirstNumber("-5\n"), -5);
  EXPECT_DOUBLE_EQ(*FirstNumber("power: -12.5 W"), -12.5);
  EXPECT_DOUBLE_EQ(*FirstNumber("PSU-1 Input 118.25"), 118.25);  // a name's hyphen, not a sign
  EXPECT_TRUE(std::isinf(*FirstNumber("1e400")));
  auto hex = FirstNumber("0x20\n");
  ASSERT_FALSE(hex.ok());
  EXPECT_NE(hex.status().message().find("hexadecimal"), std::string::npos);
  EXPECT_FALSE(FirstNumber("inf\n").ok());
}

TEST(ParsePtdWatts, DecimalOnly) {
  EXPECT_FALSE(ParsePtdWatts("Watts,inf").ok());
  EXPECT_FALSE(ParsePtdWatts("Watts,nan").ok());
  EXPECT_FALSE(ParsePtdWatts("Watts,0x20").ok());
  EXPECT_DOUBLE_EQ(*ParsePtdWatts("Watts,-1.000"), -1);  // the rule makes it a missing second
  EXPECT_TRUE(std::isinf(*ParsePtdWatts("Watts,1e400")));
}

// A real command printing `output`, sampled by the sampler: every second is missing, each with
// its reason counted, and nothing reaches the points or the averages.
void ExpectEveryReadingMissing(const std::string& output, const std::string& reason) {
  auto spec = ParsePowerSpec("cmd:echo " + output);
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  std::vector<std::unique_ptr<PowerSource>> sources;
  sources.push_back(MakeCmdSource(*spec));
  SteadyClock clock;
  PowerSampler sampler(clock, std::move(sources), 100 * kNanosPerMilli);
  sampler.Start();
  // Until the command's first reading is recorded (every reading is refused alike, so one
  // suffices); Stop then counts any tick still under way as missing too.
  std::vector<double> latest;
  while (sampler.Latest(&latest) < 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  sampler.Stop();
  const PowerRecording rec = sampler.Recording();
  ASSERT_EQ(rec.sources.size(), 1u);
  const SourceRecording& s = rec.sources[0];
  ASSERT_FALSE(s.watts.empty());
  for (double w : s.watts) EXPECT_TRUE(std::isnan(w)) << output << " read as " << w;
  int64_t counted = 0;
  bool named = false;
  for (const auto& [m, n] : s.errors) {
    counted += n;
    named = named || m.find(reason) != std::string::npos;
  }
  EXPECT_TRUE(named) << output << ": no error naming '" << reason << "'";
  EXPECT_EQ(counted, static_cast<int64_t>(s.watts.size())) << output;
}

TEST(ReadingRule, ACommandsImplausibleOutputIsAMissingSecond) {
  ExpectEveryReadingMissing("-5", "implausible reading -5 W");
  ExpectEveryReadingMissing("0x20", "no number");
  ExpectEveryReadingMissing("1e400", "implausible reading inf W");
  ExpectEveryReadingMissing("inf", "no number");
  ExpectEveryReadingMissing("1e308", "implausible reading 1e+308 W");
  ExpectEveryReadingMissing("1000001", "implausible reading 1e+06 W");
}

TEST(ReadingRule, ALogsImplausibleLinesAreReadThenRefused) {
  PowerSpec spec;
  spec.text = "csv:log.csv";
  auto log = ParsePowerCsv("time,watts\n100,-5\n101,1e400\n102,250\n", spec, "log.csv");
  ASSERT_TRUE(log.ok()) << log.status().message();
  ASSERT_EQ(log->size(), 3u);
  EXPECT_FALSE(CheckWatts((*log)[0].watts).ok());
  EXPECT_FALSE(CheckWatts((*log)[1].watts).ok());
  EXPECT_TRUE(CheckWatts((*log)[2].watts).ok());
  auto hex = ParsePowerCsv("time,watts\n100,0x20\n", spec, "log.csv");
  ASSERT_FALSE(hex.ok());
  EXPECT_NE(hex.status().message().find("is not a number"), std::string::npos);
}

}  // namespace
}  // namespace sb::power
