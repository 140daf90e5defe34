// The per-count table of a consolidation search from constructed run results (no processes):
// every instance's figure, the aggregate, host CPU, power and the figure per watt are those of
// the window that decided the run, not of the whole measured window; the search file keeps
// them (a missing figure as null), and the console table and the CSV show the median run's.
#include "experiment/deciding_window.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "experiment/consolidate.h"
#include "report/files/consolidation_search.h"
#include "report/files/consolidation_table.h"

namespace sb::experiment {
namespace {

metrics::WindowResult Window(const std::string& label, double start, double end, double opm) {
  metrics::WindowResult w;
  w.label = label;
  w.start_sec = start;
  w.end_sec = end;
  w.per_minute = opm;
  w.headlines = {{"opm", opm}};
  return w;
}

// An instance whose measured window gave `whole` OPM and the window 20s-40s `deciding` OPM.
metrics::RunResult Instance(const std::string& name, double whole, double deciding) {
  metrics::RunResult i;
  i.name = name;
  i.headline_name = "opm";
  i.headline_value = whole;
  i.windows = {Window("5s-10s", 5, 10, whole * 2), Window("20s-40s", 20, 40, deciding)};
  return i;
}

// A run of three instances with power and host CPU readings, judged on "opm>=2600@20s-40s".
metrics::RunResult ThreeInstances() {
  metrics::RunResult r;
  r.headline_name = "opm";
  r.headline_value = 6108;  // the whole measured window: not the table's figure
  r.instances = {Instance("ds3_1", 2036, 2348), Instance("ds3_2", 2100, 2700),
                 Instance("ds3_3", 1972, 2650)};
  r.windows = {Window("5s-10s", 5, 10, 1), Window("20s-40s", 20, 40, 2348 + 2700 + 2650)};
  metrics::BaselineResult b;
  b.rule = "opm>=2600@20s-40s";
  b.measured = 2348;
  b.passed = false;
  r.baselines = {b};
  // Host CPU: 90 % in the deciding window's seconds (readings at 21..40 s), 10 % elsewhere.
  for (int t = 1; t <= 50; ++t) {
    metrics::CpuPoint p;
    p.t_sec = t + 0.01;  // a moment after each second, as the probe reads
    p.utilization_pct = (t > 20 && t <= 40) ? 90 : 10;
    r.sut_cpu.points.push_back(p);
  }
  r.sut_cpu.source = "local /proc/stat";
  r.sut_cpu.measured_mean_pct = 42;
  metrics::PowerSourceResult src;
  src.spec = "cmd:echo 150";
  r.power.sources = {src};
  metrics::PowerWindow measured, deciding;
  measured.label = "measured";
  measured.avg_w = 100;
  measured.seconds = 50;
  deciding.label = "20s-40s";
  deciding.start_sec = 20;
  deciding.end_sec = 40;
  deciding.avg_w = 200;
  deciding.seconds = 20;
  r.power.windows = {measured, deciding};
  return r;
}

TEST(DecidingWindowTest, RuleWindowIsTheLabelAfterTheAt) {
  EXPECT_EQ(RuleWindow("opm>=2600@23m-28m"), "23m-28m");
  EXPECT_EQ(RuleWindow("units>=100@run"), "run");
  EXPECT_EQ(RuleWindow("opm>=2600"), "");
}

TEST(DecidingWindowTest, FiguresAreTheDecidingWindowsNotTheMeasuredWindows) {
  const report::SearchWindow w = DecidingWindow(ThreeInstances());
  EXPECT_EQ(w.label, "20s-40s");
  EXPECT_EQ(w.instance_names, (std::vector<std::string>{"ds3_1", "ds3_2", "ds3_3"}));
  EXPECT_EQ(w.instances, (std::vector<double>{2348, 2700, 2650}));
  EXPECT_DOUBLE_EQ(w.aggregate, 7698);
  EXPECT_DOUBLE_EQ(w.host_cpu_pct, 90);  // the readings of seconds 21..40 only
  EXPECT_DOUBLE_EQ(w.power_w, 200);      // the deciding window's power, not the measured one's
  EXPECT_DOUBLE_EQ(w.per_watt, 7698.0 / 200);
}

TEST(DecidingWindowTest, MissingFiguresStayMissing) {
  metrics::RunResult r = ThreeInstances();
  r.power = {};
  r.sut_cpu = {};
  r.instances[1].windows.pop_back();  // an instance without the window
  const report::SearchWindow w = DecidingWindow(r);
  EXPECT_TRUE(std::isnan(w.power_w));
  EXPECT_TRUE(std::isnan(w.per_watt));
  EXPECT_TRUE(std::isnan(w.host_cpu_pct));
  EXPECT_TRUE(std::isnan(w.instances[1]));
  EXPECT_DOUBLE_EQ(w.instances[2], 2650);
}

TEST(DecidingWindowTest, TheRunWindowIsTheMeasuredWindow) {
  metrics::RunResult r = ThreeInstances();
  r.baselines[0].rule = "units>=100@run";
  const report::SearchWindow w = DecidingWindow(r);
  EXPECT_EQ(w.instances, (std::vector<double>{2036, 2100, 1972}));
  EXPECT_DOUBLE_EQ(w.aggregate, 6108);
  EXPECT_DOUBLE_EQ(w.host_cpu_pct, 42);
  EXPECT_DOUBLE_EQ(w.power_w, 100);
  EXPECT_DOUBLE_EQ(w.per_watt, 61.08);
}

TEST(DecidingWindowTest, OneInstanceIsItsOwnRow) {
  metrics::RunResult r = ThreeInstances();
  r.instances.clear();
  const report::SearchWindow w = DecidingWindow(r);
  EXPECT_EQ(w.instances, (std::vector<double>{7698}));
}

// A search of two decided counts whose median runs are built from ThreeInstances.
report::Search TwoCounts() {
  report::Search s;
  s.step = "linear";
  s.from = 2;
  s.to = 3;
  s.runs = 3;
  s.headline = "opm";
  s.peak = 2;
  s.finished = true;
  for (int count : {2, 3}) {
    report::SearchCount c;
    c.count = count;
    for (double deciding : {2000.0, 2700.0, 2500.0}) {
      RunReport run;
      run.outcome = RunOutcome::kCompleted;
      run.result = ThreeInstances();
      if (count == 2) run.result.instances.pop_back();
      run.result.baselines[0].measured = deciding;
      run.result.baselines[0].passed = count == 2 && deciding >= 2500;
      run.result.windows[1].headlines = {{"opm", deciding * 3}};
      c.runs.push_back(Summarize(run));
    }
    DecideCount(&c);
    s.counts.push_back(c);
  }
  return s;
}

TEST(DecidingWindowTest, TheTableShowsTheMedianRunsFigures) {
  const report::Search s = TwoCounts();
  ASSERT_EQ(s.counts[0].median_run, 2);  // deciding 2000, 2500, 2700: the third run
  const std::string table = report::FormatSearchTable(s);
  EXPECT_NE(table.find("deciding window 20s-40s"), std::string::npos) << table;
  EXPECT_NE(table.find("OPM/W"), std::string::npos) << table;
  // Count 2: 2 of 3 passed, the median run's aggregate 7500 at 200 W (37.5 OPM/W), 90 % CPU,
  // its two instances' figures.
  EXPECT_NE(table.find("\n          2       2 of 3          7500        90.0          200       "
                       "37.5             PASS  2348 2700\n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("peak: 2 instance(s)"), std::string::npos) << table;

  const std::string csv = report::SearchTableCsv(s);
  EXPECT_EQ(csv,
            "instances,runs,runs_passed,verdict,window,opm,host_cpu_pct,avg_power_w,opm_per_watt,"
            "instance_1_opm,instance_2_opm,instance_3_opm\n"
            "2,3,2,PASS,20s-40s,7500,90,200,37.5,2348,2700,\n"
            "3,3,0,FAIL,20s-40s,7500,90,200,37.5,2348,2700,2650\n");
}

TEST(DecidingWindowTest, TheSearchFileKeepsTheWindowAndItsMissingFigures) {
  report::Search s = TwoCounts();
  s.counts[1].runs[0].window.power_w = report::SearchWindow::kNone;
  const std::string text = report::SearchToJson(s);
  EXPECT_NE(text.find("\"median_run_window\""), std::string::npos);
  EXPECT_NE(text.find("\"avg_power_w\": null"), std::string::npos);
  auto back = report::SearchFromJson(text, "s.json");
  ASSERT_TRUE(back.ok()) << back.status().message();
  const report::SearchWindow& w = back->counts[0].runs[2].window;
  EXPECT_EQ(w.label, "20s-40s");
  EXPECT_EQ(w.instance_names, (std::vector<std::string>{"ds3_1", "ds3_2"}));
  EXPECT_EQ(w.instances, (std::vector<double>{2348, 2700}));
  EXPECT_DOUBLE_EQ(w.per_watt, 37.5);
  EXPECT_TRUE(std::isnan(back->counts[1].runs[0].window.power_w));
  EXPECT_EQ(report::SearchTableCsv(*back), report::SearchTableCsv(s));
}

}  // namespace
}  // namespace sb::experiment
