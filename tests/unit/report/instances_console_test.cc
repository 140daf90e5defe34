#include "report/console/instances_console.h"

#include <gtest/gtest.h>

#include <string>

namespace sb::report {
namespace {

metrics::LatencySummary Unit(double p50, double p99) {
  metrics::LatencySummary s;
  s.count = 1000;
  s.p50_ms = p50;
  s.p99_ms = p99;
  return s;
}

metrics::BaselineResult Baseline(const std::string& rule, double measured, bool passed,
                                 const std::string& decided_by = "") {
  metrics::BaselineResult b;
  b.rule = rule;
  b.words = "words are not printed in the table";
  b.measured = measured;
  b.passed = passed;
  b.decided_by = decided_by;
  return b;
}

// Two DVD Store instances under one rule on throughput and one on p99 latency.
metrics::RunResult TwoInstances() {
  metrics::RunResult a;
  a.name = "ds3_1";
  a.target = "sqlite:///a.db";
  a.headline_name = "opm";
  a.headlines = {{"opm", 2650}, {"tps", 44.25}};
  a.type_names = {"order", "login"};
  a.latency = {Unit(3.5, 40.25), Unit(1, 2)};
  a.errors = {{"deadlock", 1}, {"serialization", 2}, {"timeout", 0}};
  a.verify = {{"orders_stored", true, ""}};
  a.baselines = {Baseline("opm>=2600@23m-28m", 2650, true),
                 Baseline("p99_ms<=40@23m-28m", 40.25, false)};

  metrics::RunResult b = a;
  b.name = "ds3_2";
  b.target = "postgresql://db2/ds3";
  b.headlines = {{"opm", 2700}, {"tps", 45}};
  b.latency = {Unit(3.25, 39.5), Unit(1, 2)};
  b.errors = {};
  b.verify = {{"orders_stored", true, ""}, {"inventory_non_negative", false, ""}};
  b.baselines = {Baseline("opm>=2600@23m-28m", 2700, true),
                 Baseline("p99_ms<=40@23m-28m", 39.5, true)};

  metrics::RunResult r;
  r.headline_name = "opm";
  r.headline_value = 5350;
  r.headlines = {{"opm", 5350}, {"tps", 89.25}};
  r.type_names = {"order", "login"};
  r.latency = {Unit(3.375, 40), Unit(1, 2)};
  r.errors = {{"deadlock", 1}, {"serialization", 2}};
  r.baselines = {Baseline("opm>=2600@23m-28m", 2650, true, "ds3_1"),
                 Baseline("p99_ms<=40@23m-28m", 40.25, false, "ds3_1")};
  r.instances = {a, b};
  return r;
}

TEST(InstanceTableTest, ExactTableAndCombinedBaselines) {
  EXPECT_EQ(FormatInstanceTable(TwoInstances()),
            "  instances (2; measured window, errors over the whole run):\n"
            "  instance   target                 opm     tps  order p50 ms  order p99 ms  errors  "
            "verify  opm>=2600@23m-28m  p99_ms<=40@23m-28m\n"
            "  ds3_1      sqlite:///a.db        2650  44.250         3.500        40.250       3  "
            "pass            PASS 2650         FAIL 40.250\n"
            "  ds3_2      postgresql://db2/ds3  2700      45         3.250        39.500       0  "
            "fail            PASS 2700         PASS 39.500\n"
            "  aggregate                        5350  89.250         3.375        40.000       3  "
            "fail            PASS 2650         FAIL 40.250\n"
            "  baseline opm>=2600@23m-28m (window_mean): PASS, lowest 2650 (instance ds3_1), 2 of "
            "2 instances passed\n"
            "  baseline p99_ms<=40@23m-28m (window_mean): FAIL, highest 40.250 (instance ds3_1), 1 "
            "of 2 instances passed\n");
}

TEST(InstanceTableTest, NothingForARunOfOneInstance) {
  metrics::RunResult r = TwoInstances();
  r.instances.clear();
  EXPECT_EQ(FormatInstanceTable(r), "");
}

TEST(InstanceTableTest, WithoutHeadlineListOrChecksOrBaselines) {
  // A result from before the headline list: the one headline is the only column; no check ran
  // anywhere ("-"); an instance without a latency summary prints zeros; the kind is printed as
  // the result says.
  metrics::RunResult r = TwoInstances();
  r.headlines.clear();
  r.baselines.resize(1);
  r.baselines[0].kind = "every_interval";
  r.baselines[0].decided_by.clear();
  for (auto& one : r.instances) {
    one.headlines.clear();
    one.headline_value = 2600;
    one.verify.clear();
    one.baselines.clear();
  }
  r.instances[1].latency.clear();
  EXPECT_EQ(FormatInstanceTable(r),
            "  instances (2; measured window, errors over the whole run):\n"
            "  instance   target                 opm  order p50 ms  order p99 ms  errors  verify  "
            "opm>=2600@23m-28m\n"
            "  ds3_1      sqlite:///a.db        2600         3.500        40.250       3  -       "
            "                -\n"
            "  ds3_2      postgresql://db2/ds3  2600         0.000         0.000       0  -       "
            "                -\n"
            "  aggregate                        5350         3.375        40.000       3  -       "
            "        PASS 2650\n"
            "  baseline opm>=2600@23m-28m (every_interval): PASS, lowest 2650, 0 of 2 instances "
            "passed\n");
}

TEST(InstanceStatusLineTest, PrefixesTheDs3StatusLineWithTheInstance) {
  metrics::StatusFigures f;
  f.et_sec = 60.0;
  f.n_overall = 1234;
  f.opm = 1234;
  f.rt_tot_lastn_max_msec = 250;
  f.rt_tot_avg_msec = 35;
  f.rt_tot_sampled = 33;
  f.n_rollbacks = 25;
  f.rollback_pct = 100.0 * 25 / 1234;
  EXPECT_EQ(FormatInstanceStatusLine("ds3_2", f, ""),
            "[ds3_2] et=   60.0 n_overall=1234 opm=1234 rt_tot_lastn_max_msec=250 "
            "rt_tot_avg_msec=35 rt_tot_sampled=33 rollbacks: n=25 %=  2.0 ");
  EXPECT_EQ(FormatInstanceStatusLine("1", f, "2024-05-01T10:00:00.123Z "),
            "[1] 2024-05-01T10:00:00.123Z et=   60.0 n_overall=1234 opm=1234 "
            "rt_tot_lastn_max_msec=250 rt_tot_avg_msec=35 rt_tot_sampled=33 rollbacks: n=25 "
            "%=  2.0 ");
}

}  // namespace
}  // namespace sb::report
