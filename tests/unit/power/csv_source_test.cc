// csv: analyzer logs: timestamp formats, named columns, and alignment to the run through the
// wall clock with an offset (the logger's clock running ahead).
#include "power/csv_source.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "base/clock.h"
#include "power/power_spec.h"
#include "power/sampler.h"

namespace sb::power {
namespace {

PowerSpec Spec(const std::string& text) {
  auto s = ParsePowerSpec(text);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return *s;
}

TEST(ParseLogTime, ReadsTheFormatsLoggersWrite) {
  const double base = *ParseLogTime("2026-12-01T10:00:00Z", false);
  EXPECT_DOUBLE_EQ(base, 1796119200);  // date -u -d 2026-12-01T10:00:00Z +%s
  EXPECT_DOUBLE_EQ(*ParseLogTime("2026-12-01 10:00:01.5", true), base + 1.5);
  EXPECT_DOUBLE_EQ(*ParseLogTime("2026/12/01 10:00:02", true), base + 2);
  EXPECT_DOUBLE_EQ(*ParseLogTime("12/01/2026 10:00:03.25", true), base + 3.25);
  EXPECT_DOUBLE_EQ(*ParseLogTime("2026-12-01T12:00:00+02:00", false), base);
  EXPECT_DOUBLE_EQ(*ParseLogTime("2026-12-01T05:30:00-04:30", false), base);
  EXPECT_DOUBLE_EQ(*ParseLogTime("1796119200.25", false), base + 0.25);
  EXPECT_FALSE(ParseLogTime("yesterday", false).ok());
  EXPECT_FALSE(ParseLogTime("2026-12-01", false).ok());
  EXPECT_FALSE(ParseLogTime("2026-12-01T10:00:00Zjunk", false).ok());
}

TEST(ParsePowerCsv, NamedColumnsJoinedDateAndTimeAndOffset) {
  const std::string text =
      "Date;Time;U-1;P-1\r\n"
      "2026/12/01;10:00:00.0;230.1;250.5\r\n"
      "2026/12/01;10:00:01.0;230.0;251.5\r\n";
  auto r = ParsePowerCsv(text, Spec("csv:x?time=date+time&watts=p-1&tz=utc&offset=-2.5"), "log");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->size(), 2u);
  EXPECT_DOUBLE_EQ((*r)[0].unix_sec, 1796119200 - 2.5);
  EXPECT_DOUBLE_EQ((*r)[0].watts, 250.5);
  EXPECT_DOUBLE_EQ((*r)[1].unix_sec, 1796119201 - 2.5);
}

TEST(ParsePowerCsv, BadLogsNameTheProblem) {
  auto r = ParsePowerCsv("when,w\n1,2\n", Spec("csv:x"), "power source csv:x");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("no time column 'time' (its columns: when, w)"),
            std::string::npos)
      << r.status().message();
  r = ParsePowerCsv("time,watts\n1,abc\n", Spec("csv:x"), "log");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("line 2"), std::string::npos) << r.status().message();
  r = ParsePowerCsv("time,watts\nnoon,5\n", Spec("csv:x"), "log");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("not a timestamp"), std::string::npos);
  EXPECT_FALSE(ParsePowerCsv("time,watts\n", Spec("csv:x"), "log").ok());
  EXPECT_FALSE(ParsePowerCsv("time,watts\n1,2\n", Spec("csv:x?offset=soon"), "log").ok());
}

// A logger whose clock runs 3 s ahead writes a reading each second (100, 101, ... W); with
// offset=-3 each lands on its second of the sampler's grid, without it none does.
void AlignmentCase(const std::string& options, bool expect_aligned) {
  const std::string dir = std::string(STOREBENCH_TEST_TMP) + "/power";
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/log-" + std::to_string(getpid()) + ".csv";
  std::filesystem::remove(path);
  std::vector<std::unique_ptr<PowerSource>> sources;
  sources.push_back(MakeCsvSource(Spec("csv:" + path + options)));
  ASSERT_TRUE(sources[0]->Open().ok());  // the file does not exist yet: it is read at the end
  // A log has no thread reading it while sampling: it is placed on the grid at Stop, through the
  // wall clock read at Start, so the run's 2.3 s (three ticks) pass on a fake clock.
  FakeClock clock;
  PowerSampler sampler(clock, std::move(sources));
  sampler.Start();
  const double start_unix =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  {
    std::ofstream log(path);
    log << "Time,Watts\n";
    char buf[64];
    for (int k = 0; k < 20; ++k) {
      std::snprintf(buf, sizeof buf, "%.3f,%d\n", start_unix + k + 3, 100 + k);
      log << buf;
    }
  }
  clock.Advance(2300 * kNanosPerMilli);
  sampler.Stop();
  const PowerRecording rec = sampler.Recording();
  ASSERT_GE(rec.tick_at.size(), 3u);
  const SourceRecording& s = rec.sources[0];
  ASSERT_EQ(s.watts.size(), rec.tick_at.size());
  for (size_t k = 0; k < s.watts.size(); ++k) {
    if (expect_aligned) {
      EXPECT_DOUBLE_EQ(s.watts[k], 100 + static_cast<double>(k)) << "tick " << k;
    } else if (k < 3) {
      EXPECT_TRUE(std::isnan(s.watts[k])) << "tick " << k;
    }
  }
  if (!expect_aligned) {
    ASSERT_FALSE(s.errors.empty());
    EXPECT_NE(s.errors[0].first.find("offset="), std::string::npos);
  }
  std::filesystem::remove(path);
}

TEST(CsvSource, AnOffsetAlignsALoggerWhoseClockRunsAhead) { AlignmentCase("?offset=-3", true); }

TEST(CsvSource, WithoutTheOffsetTheFirstSecondsHaveNoReading) { AlignmentCase("", false); }

TEST(CsvSource, AnExistingLogIsCheckedBeforeTheRun) {
  const std::string dir = std::string(STOREBENCH_TEST_TMP) + "/power";
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/bad-" + std::to_string(getpid()) + ".csv";
  std::ofstream(path) << "stamp,P\n1,2\n";
  auto src = MakeCsvSource(Spec("csv:" + path));
  Status s = src->Open();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("no time column"), std::string::npos) << s.message();
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace sb::power
