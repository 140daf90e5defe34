// Time units of the run options: DVD Store's names count minutes, the modern spellings seconds,
// and each workload's defaults are its users' (DS3: until stopped after 1 minute; sysbench 10 s).
#include "driver/run_options.h"

#include <gtest/gtest.h>

#include "base/clock.h"
#include "config/options.h"
#include "metrics/headline.h"
#include "storebench/workload.h"

namespace sb::driver {
namespace {

constexpr int64_t kSec = kNanosPerSecond;

workload::Shape SysbenchShape() {
  workload::Shape s;
  s.default_run_time = "10s";
  s.default_warmup_time = "0";
  s.sysbench_style = true;
  return s;
}

int64_t After(const workload::Shape& shape, const char* name, const char* value,
              const char* option = "run_time") {
  config::OptionSet o;
  DeclareRunOptions(&o, shape);
  EXPECT_TRUE(o.Set(name, value, "test").ok()) << name << "=" << value;
  return o.GetDurationNanos(option);
}

TEST(RunOptionsTest, DvdStoreNamesCountMinutesModernSpellingsSeconds) {
  const workload::Shape ds;
  EXPECT_EQ(After(ds, "run_time", "30"), 30 * 60 * kSec);
  EXPECT_EQ(After(ds, "duration", "30"), 30 * kSec);
  EXPECT_EQ(After(ds, "time", "30"), 30 * kSec);
  EXPECT_EQ(After(ds, "run_time", "30s"), 30 * kSec);
  EXPECT_EQ(After(ds, "duration", "2m"), 120 * kSec);
  EXPECT_EQ(After(ds, "warmup_time", "2", "warmup_time"), 120 * kSec);
  EXPECT_EQ(After(ds, "warmup", "2", "warmup_time"), 2 * kSec);
}

TEST(RunOptionsTest, DefaultsAreTheWorkloadsOwn) {
  config::OptionSet ds;
  DeclareRunOptions(&ds, workload::Shape{});
  EXPECT_EQ(ds.GetDurationNanos("run_time"), 0);  // DS3: until stopped
  EXPECT_EQ(ds.GetDurationNanos("warmup_time"), 60 * kSec);
  config::OptionSet sb;
  DeclareRunOptions(&sb, SysbenchShape());
  EXPECT_EQ(sb.GetDurationNanos("run_time"), 10 * kSec);  // sysbench --time=10
  EXPECT_EQ(sb.GetDurationNanos("warmup_time"), 0);
}

TEST(RunOptionsTest, SysbenchWarmupTimeCountsSeconds) {
  config::OptionSet o;
  DeclareRunOptions(&o, SysbenchShape());
  // sysbench's --warmup-time=5 means seconds (DS3's --warmup_time=5 minutes, with its workload).
  ASSERT_TRUE(o.Set("warmup-time", "5", "command line").ok());
  EXPECT_EQ(o.GetDurationNanos("warmup_time"), 5 * kSec);
  EXPECT_TRUE(o.Set("warmup-time", "2m", "command line").ok());
  EXPECT_EQ(o.GetDurationNanos("warmup_time"), 120 * kSec);
  EXPECT_TRUE(o.Set("warmup", "7", "command line").ok());
  EXPECT_EQ(o.GetDurationNanos("warmup_time"), 7 * kSec);
  config::OptionSet ds;
  DeclareRunOptions(&ds, workload::Shape{});
  ASSERT_TRUE(ds.Set("warmup_time", "5", "command line").ok());
  EXPECT_EQ(ds.GetDurationNanos("warmup_time"), 300 * kSec);
}

TEST(RunOptionsTest, HelpSaysWhichNameCountsMinutes) {
  config::OptionSet o;
  DeclareRunOptions(&o, workload::Shape{});
  std::string help = o.HelpText();
  // Help lines are wrapped at 100 columns: the sentence may go on on the next line.
  for (size_t at; (at = help.find("\n      ")) != std::string::npos;) help.replace(at, 7, " ");
  EXPECT_NE(help.find("minutes as --run_time (DVD Store) and seconds as --duration or --time"),
            std::string::npos)
      << help;
}

// A window the run cannot cover is refused when the options are read (before the run), not
// reported as incomplete after it.
TEST(RunOptionsTest, WindowsMustEndWithinTheRun) {
  auto read = [](const char* warmup, const char* run, const char* window, const char* baseline) {
    config::OptionSet o;
    DeclareRunOptions(&o, workload::Shape{});
    EXPECT_TRUE(o.Set("warmup_time", warmup, "test").ok());
    EXPECT_TRUE(o.Set("run_time", run, "test").ok());
    EXPECT_TRUE(o.Set("window", window, "test").ok());
    EXPECT_TRUE(o.Set("baseline", baseline, "test").ok());
    return RunOptionsFrom(o, 1);
  };
  // Windows count from Start: warm-up + run_time is the run's end, and a window may end there.
  EXPECT_TRUE(read("10s", "40s", "20s-50s", "opm>=1@20s-50s").ok());
  EXPECT_TRUE(read("0s", "2s", "", "opm>=1@run").ok());
  auto late = read("0s", "2s", "30s-50s", "");
  ASSERT_FALSE(late.ok());
  EXPECT_EQ(late.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(late.status().message(),
            "--window 30s-50s ends 50 s from Start, after the run, which ends 2 s from Start "
            "(warmup_time 0s + run_time 2s): make run_time longer or end the window by then");
  auto late_rule = read("1s", "2s", "0s-3s", "opm>=1@1s-3500ms");
  ASSERT_FALSE(late_rule.ok());
  EXPECT_NE(late_rule.status().message().find("--baseline 'opm>=1@1s-3500ms': its window ends "
                                              "3.5 s from Start"),
            std::string::npos)
      << late_rule.status().message();
  // Until stopped: the run has no known end, so no window is refused.
  EXPECT_TRUE(read("0s", "0", "30s-50s", "opm>=1@30s-50s").ok());
}

// A baseline on another workload's figure (DVD Store's OPM on a sysbench-style instance) is
// refused, not judged on this workload's units.
TEST(RunOptionsTest, ABaselineOnAFigureTheWorkloadDoesNotCountIsRefused) {
  const std::vector<metrics::HeadlineSpec> oltp = {
      metrics::UnitsPerMinute("transactions_per_minute", "transactions per minute"),
      metrics::UnitsPerSecond("tps", "transactions per second")};
  const std::vector<metrics::HeadlineSpec> dvdstore = {
      metrics::UnitsPerMinute("opm", "orders per minute")};
  auto read = [](const char* baseline, const std::vector<metrics::HeadlineSpec>& headlines) {
    config::OptionSet o;
    DeclareRunOptions(&o, workload::Shape{});
    EXPECT_TRUE(o.Set("run_time", "1m", "test").ok());
    EXPECT_TRUE(o.Set("baseline", baseline, "test").ok());
    return RunOptionsFrom(o, 1, headlines);
  };
  for (const char* rule : {"opm>=2600@run", "min_opm>=1@run", "running_opm>=1@run"}) {
    auto r = read(rule, oltp);
    ASSERT_FALSE(r.ok()) << rule;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(r.status().message().find("DVD Store's orders per minute"), std::string::npos);
    EXPECT_NE(r.status().message().find("(transactions_per_minute, tps)"), std::string::npos)
        << r.status().message();
  }
  EXPECT_FALSE(read("tps>=1@run", dvdstore).ok());
  // Each workload's own figures and the ones every workload has.
  EXPECT_TRUE(read("opm>=2600@run;min_opm>=1@run;units>=1@run", dvdstore).ok());
  EXPECT_TRUE(read("tps>=1@run;transactions_per_minute>=1@run;p99_ms<=5@run", oltp).ok());
}

}  // namespace
}  // namespace sb::driver
