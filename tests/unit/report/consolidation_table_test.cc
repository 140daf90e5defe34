// The consolidation search's per-count table (report/files/consolidation_table.h) on constructed
// searches: every cell of the console table and the CSV, the failed-run lines under the table,
// and each form of the peak line.
#include "report/files/consolidation_table.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace sb::report {
namespace {

constexpr double kNone = SearchWindow::kNone;

SearchRun MakeRun(bool passed, const std::string& label, double aggregate, double cpu, double power,
              double per_watt, std::vector<double> instances) {
  SearchRun r;
  r.passed = passed;
  r.run_class = passed ? "passed" : "capacity";
  r.window.label = label;
  r.window.aggregate = aggregate;
  r.window.host_cpu_pct = cpu;
  r.window.power_w = power;
  r.window.per_watt = per_watt;
  r.window.instances = std::move(instances);
  return r;
}

// Counts in the order a doubling search tried them: 2 (failed on its median run, with two runs
// set aside), 1 (passed), and 4 begun but not decided.
Search ThreeCounts() {
  Search s;
  s.plan = "p.toml";
  s.step = "doubling";
  s.from = 1;
  s.to = 4;
  s.runs = 2;
  s.headline = "tps";
  s.peak = 1;
  SearchCount two;
  two.count = 2;
  two.runs = {MakeRun(true, "5m-10m", 101, 80, 200, 0.505, {51, 50}),
              MakeRun(false, "5m-10m", 95.3, 100, kNone, kNone, {50, 45.3})};
  two.runs[1].class_reason = "deciding 90 below 100";
  two.median_run = 1;
  two.passed = false;
  SearchRun fault;
  fault.run_class = "fault";
  fault.class_reason = "instance ds3_2: 4 reconnects";
  fault.run_no = 1;
  SearchRun no_start;
  no_start.run_class = "no_start";
  no_start.run_no = 2;
  two.set_aside = {fault, no_start};
  SearchCount one;
  one.count = 1;
  one.runs = {MakeRun(true, "5m-10m", 1234.4, 87.64, 9.5, kNone, {612, 12.34, 1.5}),
              MakeRun(true, "5m-10m", 1300, 88, 9.6, 135.4, {650, 650, 0})};
  one.median_run = 0;
  one.passed = true;
  SearchCount four;
  four.count = 4;
  SearchRun unclassified;  // a run without a class: "failed"
  four.runs = {unclassified};
  s.counts = {two, one, four};
  return s;
}

TEST(ConsolidationTableTest, HeadingsAndCsvCells) {
  EXPECT_EQ(MetricHeading("opm"), "OPM");
  EXPECT_EQ(MetricHeading(""), "FIGURE");
  EXPECT_EQ(PerWattHeading("tps"), "TPS/W");
  EXPECT_EQ(CsvNumber(7500), "7500");
  EXPECT_EQ(CsvNumber(-2), "-2");
  EXPECT_EQ(CsvNumber(37.5), "37.5");
  EXPECT_EQ(CsvNumber(0.1), "0.1");
  EXPECT_EQ(CsvNumber(1.0 / 3), "0.3333333333333333");
  EXPECT_EQ(CsvNumber(1e15), "1e+15");  // whole, but too large for "%.0f"
  EXPECT_EQ(CsvNumber(kNone), "");
  EXPECT_EQ(CsvNumber(INFINITY), "");
  EXPECT_EQ(CsvCell("plain"), "plain");
  EXPECT_EQ(CsvCell("a,b"), "\"a,b\"");
  EXPECT_EQ(CsvCell("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(CsvCell("two\nlines"), "\"two\nlines\"");
}

TEST(ConsolidationTableTest, DecidedCountsInIncreasingOrderWithoutUndecidedOnes) {
  Search s = ThreeCounts();
  SearchCount bad_index;  // a median index past its runs (a damaged file) is not decided either
  bad_index.count = 3;
  bad_index.runs = {MakeRun(true, "", 1, 1, 1, 1, {})};
  bad_index.median_run = 1;
  s.counts.push_back(bad_index);
  const std::vector<const SearchCount*> decided = DecidedCounts(s);
  ASSERT_EQ(decided.size(), 2u);
  EXPECT_EQ(decided[0]->count, 1);
  EXPECT_EQ(decided[1]->count, 2);
}

TEST(ConsolidationTableTest, ConsoleTableCellByCell) {
  // Figures from 100 up are whole, from 10 one decimal, below two; a missing one is "-".
  const std::string expected =
      "consolidation search (doubling, 2 run(s) per count, each count decided on its median "
      "run)\n"
      "per count: the median run's figures in the deciding window 5m-10m\n"
      "  instances  runs passed     aggr. TPS  host CPU %  avg power W      TPS/W          "
      "verdict  each instance's TPS\n"
      "          1       2 of 2          1234        87.6         9.50          -             "
      "PASS  612 12.3 1.50\n"
      "          2       1 of 2          95.3         100            -          -  FAIL "
      "(capacity)  50.0 45.3\n"
      "failed runs:\n"
      "  2 instance(s), run 1: fault: instance ds3_2: 4 reconnects (set aside, run again)\n"
      "  2 instance(s), run 2: no_start (not counted)\n"
      "  2 instance(s), run 2: capacity: deciding 90 below 100\n"
      "  4 instance(s), run 1: failed\n"
      "peak: 1 instance(s); 2 of 2 runs passed at the peak, 1 of 2 at 2\n";
  EXPECT_EQ(FormatSearchTable(ThreeCounts()), expected);
}

TEST(ConsolidationTableTest, PeakLineAtTheTopOfTheRangeAndWithNoPeak) {
  Search s;
  s.step = "linear";
  s.from = 3;
  s.to = 3;
  s.runs = 1;
  s.peak = 3;
  SearchCount c;
  c.count = 3;
  c.runs = {MakeRun(true, "run", 10, 1, kNone, kNone, {10})};
  c.median_run = 0;
  c.passed = true;
  s.counts = {c};
  std::string table = FormatSearchTable(s);
  EXPECT_NE(table.find("deciding window (the measured window)\n"), std::string::npos) << table;
  EXPECT_NE(table.find("aggr. FIGURE"), std::string::npos) << table;  // no headline recorded
  EXPECT_NE(table.find("FIGURE/W"), std::string::npos) << table;
  EXPECT_EQ(table.find("failed runs"), std::string::npos) << table;
  EXPECT_EQ(table.substr(table.rfind("peak:")),
            "peak: 3 instance(s); 1 of 1 runs passed at the peak (the top of the range: the peak "
            "may be higher)\n");

  s.peak = 0;
  s.counts[0].passed = false;
  s.counts[0].runs[0].passed = false;
  s.counts[0].runs[0].run_class = "capacity";
  s.counts[0].runs[0].window.label = "";
  table = FormatSearchTable(s);
  EXPECT_NE(table.find("deciding window (not recorded in this search file)\n"), std::string::npos)
      << table;
  EXPECT_NE(table.find("  3 instance(s), run 1: capacity\n"), std::string::npos) << table;
  EXPECT_EQ(table.substr(table.rfind("peak:")),
            "peak: none (the first count, 3, failed its baseline)\n");
}

TEST(ConsolidationTableTest, CsvRowPerDecidedCountWithEmptyCellsForMissingFigures) {
  EXPECT_EQ(SearchTableCsv(ThreeCounts()),
            "instances,runs,runs_passed,verdict,window,tps,host_cpu_pct,avg_power_w,tps_per_watt,"
            "instance_1_tps,instance_2_tps,instance_3_tps\n"
            "1,2,2,PASS,5m-10m,1234.4,87.64,9.5,,612,12.34,1.5\n"
            "2,2,1,FAIL,5m-10m,95.3,100,,,50,45.3,\n");
}

TEST(ConsolidationTableTest, CsvOfASearchWithoutDecidedCountsOrHeadline) {
  Search s;
  EXPECT_EQ(SearchTableCsv(s),
            "instances,runs,runs_passed,verdict,window,figure,host_cpu_pct,avg_power_w,"
            "figure_per_watt\n");
  // A label a rule wrote with a comma is quoted, so the row keeps its columns.
  SearchCount c;
  c.count = 1;
  c.runs = {MakeRun(true, "1m,2m", 5, kNone, kNone, kNone, {})};
  c.median_run = 0;
  c.passed = true;
  s.counts = {c};
  EXPECT_EQ(SearchTableCsv(s),
            "instances,runs,runs_passed,verdict,window,figure,host_cpu_pct,avg_power_w,"
            "figure_per_watt\n"
            "1,1,1,PASS,\"1m,2m\",5,,,\n");
}

}  // namespace
}  // namespace sb::report
