#include "metrics/windows.h"

#include <gtest/gtest.h>

namespace sb::metrics {
namespace {

TEST(WindowsTest, ParsesDvdStoreStyleWindows) {
  auto w = ParseWindows("23m-28m,90s-300s,1-2");
  ASSERT_TRUE(w.ok());
  ASSERT_EQ(w->size(), 3u);
  EXPECT_EQ((*w)[0].label, "23m-28m");
  EXPECT_DOUBLE_EQ((*w)[0].start_sec, 1380);
  EXPECT_DOUBLE_EQ((*w)[0].end_sec, 1680);
  EXPECT_DOUBLE_EQ((*w)[1].start_sec, 90);
  EXPECT_DOUBLE_EQ((*w)[2].end_sec, 120);  // bare numbers are minutes
  EXPECT_FALSE(ParseWindows("28m-23m").ok());
  EXPECT_FALSE(ParseWindows("23m").ok());
  EXPECT_FALSE(ParseWindows("a-b").ok());
}

TimeSeries Series(const std::vector<uint64_t>& per_second) {
  TimeSeries s;
  s.type_names = {"order"};
  for (size_t i = 0; i < per_second.size(); ++i) {
    IntervalPoint p;
    p.t_sec = static_cast<double>(i + 1) + 0.001;  // ticks land just after each second
    p.phase = "measure";
    p.type_counts = {per_second[i]};
    s.points.push_back(p);
  }
  return s;
}

TEST(WindowsTest, PerSecondSpreadOnKnownSeries) {
  // Seconds 1..10 carry 10, 20, ..., 100 orders.
  TimeSeries s = Series({10, 20, 30, 40, 50, 60, 70, 80, 90, 100});
  // The window 2s-6s covers the intervals ending at 3, 4, 5, 6 s.
  const std::vector<double> v = PerSecond(s, 0, 2, 6);
  ASSERT_EQ(v, (std::vector<double>{30, 40, 50, 60}));
  const Spread sp = SpreadOf(v);
  EXPECT_DOUBLE_EQ(sp.min, 30);
  EXPECT_DOUBLE_EQ(sp.max, 60);
  EXPECT_DOUBLE_EQ(sp.mean, 45);
  EXPECT_DOUBLE_EQ(sp.median, 45);
  EXPECT_DOUBLE_EQ(SpreadOf({5, 1, 3}).median, 3);
  EXPECT_DOUBLE_EQ(SpreadOf({}).max, 0);
}

// A run with a warm-up to 5 s and a pause for the server's reading until the reset at 9.37 s, as
// the controller records it: the sample on the warm-up's end, one covering the pause, three
// catch-up ticks a millisecond apart, then seconds. Only the points wholly after the reset count,
// each by its own span: a steady 100 per second.
TEST(WindowsTest, MeasuredPerSecondLeavesOutThePauseAndTheCatchUpTicks) {
  TimeSeries s = Series({100, 100, 100, 100, 100});  // t = 1.001 .. 5.001
  auto add = [&](double t, uint64_t n) {
    IntervalPoint p;
    p.t_sec = t;
    p.phase = "measure";
    p.type_counts = {n};
    s.points.push_back(p);
  };
  add(9.371, 80);  // the pause: the units in flight finished, then nothing
  add(9.372, 0);
  add(9.373, 0);
  add(9.374, 0);
  add(10.001, 63);  // 0.627 s
  for (int t = 11; t <= 39; ++t) add(t + 0.001, 100);
  add(39.37, 37);
  const std::vector<double> v = MeasuredPerSecond(s, 0, 9.37, 39.37);
  ASSERT_EQ(v.size(), 30u);  // the last point, 0.37 s, is short too
  for (double x : v) EXPECT_NEAR(x, 100, 0.5);
  EXPECT_TRUE(DetectSteadyState(v, 10, 25).steady);
  // The old reading of the same points (every "measure" point as one second) is not steady.
  std::vector<double> by_label;
  for (const auto& p : s.points) {
    if (p.t_sec > 5.01) by_label.push_back(static_cast<double>(p.type_counts[0]));
  }
  EXPECT_FALSE(DetectSteadyState(by_label, 10, 25).steady);
}

TEST(WindowsTest, PerSecondLeavesOutAShortLastPoint) {
  // The run ended 1.4 ms after the tick at 4 s: that point's 3 orders are no second's rate
  // (counted over a whole second, min_opm@run measured ~0 and failed).
  TimeSeries s = Series({10, 20, 30, 40});
  IntervalPoint tail;
  tail.t_sec = 4.0024;
  tail.phase = "measure";
  tail.type_counts = {3};
  s.points.push_back(tail);
  EXPECT_EQ(PerSecond(s, 0, 1, 4.0024), (std::vector<double>{20, 30, 40}));
  // Half a second or more is a point of its own.
  s.points.back().t_sec = 4.6;
  EXPECT_EQ(PerSecond(s, 0, 1, 4.6), (std::vector<double>{20, 30, 40, 3}));
}

TEST(WindowsTest, SteadyStateOnFlatRisingAndNoisySeries) {
  std::vector<double> flat(60, 100.0);
  auto r = DetectSteadyState(flat, 10, 25);
  EXPECT_TRUE(r.evaluated);
  EXPECT_TRUE(r.steady);
  EXPECT_NEAR(r.slope_pct, 0, 1e-9);
  EXPECT_NEAR(r.cv_pct, 0, 1e-9);

  // 50 → 150 linearly: the fitted line changes by 100 over a mean of 100 = 100 %.
  std::vector<double> rising;
  for (int i = 0; i <= 50; ++i) rising.push_back(50.0 + 2.0 * i);
  r = DetectSteadyState(rising, 10, 100);
  EXPECT_TRUE(r.evaluated);
  EXPECT_FALSE(r.steady);
  EXPECT_NEAR(r.slope_pct, 100.0, 1e-6);

  // Alternating 50/150: no trend, spread 50 %.
  std::vector<double> noisy;
  for (int i = 0; i < 60; ++i) noisy.push_back(i % 2 ? 150.0 : 50.0);
  r = DetectSteadyState(noisy, 10, 25);
  EXPECT_FALSE(r.steady);
  EXPECT_NEAR(r.cv_pct, 50.0, 1e-9);
  EXPECT_TRUE(DetectSteadyState(noisy, 10, 60).steady);

  EXPECT_FALSE(DetectSteadyState({1, 2, 3}, 10, 25).evaluated);
}

TEST(BaselineTest, ParsesRulesAndRejectsBadOnes) {
  auto b = ParseBaseline("opm>=2600@23m-28m");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->metric, "opm");
  EXPECT_EQ(b->op, ">=");
  EXPECT_DOUBLE_EQ(b->threshold, 2600);
  EXPECT_DOUBLE_EQ(b->window.start_sec, 1380);
  auto p = ParseBaseline("p99_ms<500@1m-2m");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->op, "<");
  for (const char* bad :
       {"opm>=2600", "opm2600@1m-2m", "speed>=1@1m-2m", "opm>=x@1m-2m", "opm>=1@2m-1m"}) {
    EXPECT_FALSE(ParseBaseline(bad).ok()) << bad;
  }
}

TEST(BaselineTest, PassAndFail) {
  WindowResult w;
  w.label = "23m-28m";
  w.complete = true;
  w.per_minute = 2650;
  w.per_sec_min = 40;  // 2400 per minute in the worst second
  w.running_start = 2700;
  w.running_end = 2680;
  LatencySummary l;
  l.p99_ms = 420;
  w.latency = {l};
  auto eval = [&](const char* rule) { return EvaluateBaseline(*ParseBaseline(rule), w, "orders"); };
  EXPECT_TRUE(eval("opm>=2600@23m-28m").passed);
  EXPECT_DOUBLE_EQ(eval("opm>=2600@23m-28m").measured, 2650);
  EXPECT_FALSE(eval("min_opm>=2600@23m-28m").passed);
  EXPECT_DOUBLE_EQ(eval("min_opm>=2600@23m-28m").measured, 2400);
  EXPECT_TRUE(eval("running_opm>=2600@23m-28m").passed);
  EXPECT_TRUE(eval("p99_ms<=500@23m-28m").passed);
  EXPECT_FALSE(eval("p99_ms<400@23m-28m").passed);
  const BaselineResult r = eval("opm>=2600@23m-28m");
  EXPECT_NE(r.words.find("at least 2600"), std::string::npos) << r.words;
  EXPECT_NE(r.words.find("orders per minute"), std::string::npos) << r.words;
  // A window the run did not cover cannot pass.
  w.complete = false;
  EXPECT_FALSE(eval("opm>=2600@23m-28m").passed);
  EXPECT_NE(eval("opm>=2600@23m-28m").words.find("did not cover"), std::string::npos);
}

}  // namespace
}  // namespace sb::metrics

namespace sb::metrics {
namespace {

// A series of 1-s points from Start with the given units per second (type 0).
TimeSeries SeriesOf(const std::vector<uint64_t>& per_second) {
  TimeSeries s;
  s.type_names = {"order"};
  for (size_t i = 0; i < per_second.size(); ++i) {
    IntervalPoint p;
    p.t_sec = static_cast<double>(i + 1);
    p.phase = "measure";
    p.type_counts = {per_second[i]};
    s.points.push_back(p);
  }
  return s;
}

// The three rules on one constructed series: 100 orders per second for 30 s, except a dip to
// 10 per second in seconds 16-20 (t in (15, 20]). Window 10s-30s.
struct RuleCase {
  TimeSeries series;
  WindowResult window;
  BaselineContext context;
  RuleCase() {
    std::vector<uint64_t> v(30, 100);
    for (int i = 15; i < 20; ++i) v[i] = 10;
    series = SeriesOf(v);
    window.label = "10s-30s";
    window.start_sec = 10;
    window.end_sec = 30;
    window.complete = true;
    // 20 s in the window: 15 s at 100 and 5 s at 10 = 1550 orders, 4650 per minute.
    window.per_minute = 1550.0 * 60 / 20;
    LatencySummary l;
    l.count = 1550;
    window.latency = {l};
    context.series = &series;
    context.reset_sec = 0;
  }
  BaselineResult Eval(const std::string& rule, BaselineKind kind) {
    BaselineRule r = *ParseBaseline(rule);
    r.kind = kind;
    return EvaluateBaseline(r, window, "orders", context);
  }
};

TEST(BaselineRulesTest, WindowMeanIsUnitsInTheWindowOverItsLength) {
  RuleCase c;
  const BaselineResult b = c.Eval("opm>=4600@10s-30s", BaselineKind::kWindowMean);
  EXPECT_EQ(b.kind, "window_mean");
  EXPECT_DOUBLE_EQ(b.measured, 4650);
  EXPECT_TRUE(b.passed);
}

TEST(BaselineRulesTest, EveryIntervalJudgesTheWorstTenSeconds) {
  RuleCase c;
  // Intervals (10,20]: 5·100 + 5·10 = 550 in 10 s = 3300/min; (20,30]: 6000/min.
  const BaselineResult b = c.Eval("opm>=4600@10s-30s", BaselineKind::kEveryInterval);
  EXPECT_EQ(b.kind, "every_interval");
  EXPECT_DOUBLE_EQ(b.measured, 3300);
  EXPECT_FALSE(b.passed);
  EXPECT_NE(b.words.find("10-s intervals"), std::string::npos) << b.words;
  EXPECT_TRUE(c.Eval("opm>=3300@10s-30s", BaselineKind::kEveryInterval).passed);
}

TEST(BaselineRulesTest, DsCumulativeIsTheRunningFigureAtEverySecond) {
  RuleCase c;
  // Cumulative since Start: lowest at t = 20 s: (15·100 + 5·10) / 20 s = 77.5/s = 4650/min;
  // it recovers to (25·100 + 50) / 30 = 85/s by the end. A smoothed figure: the dip shows less.
  const BaselineResult b = c.Eval("opm>=4600@10s-30s", BaselineKind::kDsCumulative);
  EXPECT_EQ(b.kind, "ds_cumulative");
  EXPECT_DOUBLE_EQ(b.measured, 4650);
  EXPECT_TRUE(b.passed);
  // From a reset at 10 s the dip weighs more: at 20 s (5·100 + 5·10) / 10 s = 55/s = 3300/min.
  c.context.reset_sec = 10;
  EXPECT_DOUBLE_EQ(c.Eval("opm>=4600@10s-30s", BaselineKind::kDsCumulative).measured, 3300);
}

TEST(BaselineRulesTest, LatencyAndCountRulesIgnoreTheRateRule) {
  RuleCase c;
  const BaselineResult units = c.Eval("units>=1500@10s-30s", BaselineKind::kEveryInterval);
  EXPECT_EQ(units.kind, "window_mean");
  EXPECT_DOUBLE_EQ(units.measured, 1550);
  EXPECT_TRUE(units.passed);
  auto whole = ParseBaseline("units>=1@run");
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole->window.label, "run");
}

TEST(BaselineRulesTest, HeadlineMetricsCanBeNamed) {
  std::vector<HeadlineSpec> headlines = {UnitsPerMinute("opm", "orders per minute")};
  HeadlineSpec qps;
  qps.name = "qps";
  qps.words = "queries per second";
  qps.counters = {{0, 1.0}};
  headlines.push_back(qps);
  EXPECT_FALSE(ParseBaseline("qps>=10@1m-2m").ok());  // not without the workload's headlines
  auto rule = ParseBaseline("qps>=10@1m-2m", headlines);
  ASSERT_TRUE(rule.ok());
  WindowResult w;
  w.complete = true;
  w.headlines = {{"opm", 600}, {"qps", 12.5}};
  BaselineContext context;
  context.headlines = &headlines;
  const BaselineResult b = EvaluateBaseline(*rule, w, "transactions", context);
  EXPECT_DOUBLE_EQ(b.measured, 12.5);
  EXPECT_TRUE(b.passed);
}

TEST(BaselineRulesTest, SeveralInstancesPassOnlyWhenAllPass) {
  const BaselineRule rule = *ParseBaseline("opm>=2600@23m-28m");
  BaselineResult a, b, c;
  a.measured = 2700;
  a.passed = true;
  b.measured = 2650;
  b.passed = true;
  c.measured = 2590;
  c.passed = false;
  BaselineResult all = CombineBaselines({a, b, c}, {"ds3_1", "ds3_2", "ds3_3"}, rule);
  EXPECT_FALSE(all.passed);
  EXPECT_DOUBLE_EQ(all.measured, 2590);  // the minimum over instances, as TPC-VMS reports
  EXPECT_EQ(all.decided_by, "ds3_3");
  EXPECT_NE(all.words.find("2 of 3 passed"), std::string::npos) << all.words;
  BaselineResult two = CombineBaselines({a, b}, {"ds3_1", "ds3_2"}, rule);
  EXPECT_TRUE(two.passed);
  EXPECT_EQ(two.decided_by, "ds3_2");
  // An upper bound is decided by the highest.
  const BaselineRule p99 = *ParseBaseline("p99_ms<=50@1m-2m");
  a.measured = 40;
  b.measured = 45;
  EXPECT_EQ(CombineBaselines({a, b}, {"x", "y"}, p99).decided_by, "y");
}

}  // namespace
}  // namespace sb::metrics
