// compare's tables (stats/comparison.h: the console summary, the verbose table and the CSV) on
// a constructed Comparison with known figures, cell by cell; compare_test checks the
// statistics that fill one.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "stats/comparison.h"

namespace sb::report {
namespace {

GroupFigures Figures(const std::string& label, int runs, double median, double min, double max,
                     double stddev, double pct) {
  GroupFigures g;
  g.label = label;
  g.runs = runs;
  g.median = median;
  g.min = min;
  g.max = max;
  g.mean = median;
  g.stddev = stddev;
  g.normalized_pct = pct;
  return g;
}

// Two groups: B's OPM is higher with an interval above 1; its purchase p99 is lower but A had
// one run, so there is no interval; the p50 is only in the verbose table.
Comparison TwoGroups() {
  Comparison c;
  c.labels = {"A", "B"};
  c.files = {{"a1.json", "a2.json"}, {"b1.json", "b2.json", "b3.json"}};
  c.workload = "dvdstore";
  c.mismatches = {"db_size: 10MB vs 20MB"};
  c.options.resamples = 2000;
  c.options.seed = 7;
  c.options.confidence = 0.9;
  MetricComparison opm;
  opm.name = "opm";
  opm.words = "orders per minute";
  opm.reference = "A";
  opm.groups = {Figures("A", 2, 100, 90, 110, 14.25, 100),
                Figures("B", 3, 127.5, 120, 135, 7.5, 127.5)};
  PairFigures higher;
  higher.a = "A";
  higher.b = "B";
  higher.ratio = 1.275;
  higher.has_interval = true;
  higher.low = 1.1;
  higher.high = 1.45;
  higher.verdict = "higher";
  higher.better = true;
  opm.pairs = {higher};
  MetricComparison p99;
  p99.name = "p99_ms.purchase";
  p99.words = "purchase p99 response time, ms";
  p99.lower_is_better = true;
  p99.reference = "A";
  p99.groups = {Figures("A", 2, 12.5, 10, 15, 3.5, 100), Figures("B", 3, 10, 9, 11, 1, 80)};
  PairFigures none;
  none.a = "A";
  none.b = "B";
  none.ratio = 0.8;
  none.no_interval = "one run in A";
  none.verdict = "no difference shown";
  p99.pairs = {none};
  MetricComparison p50 = p99;
  p50.name = "p50_ms.purchase";
  c.metrics = {opm, p99, p50};
  return c;
}

TEST(ComparisonTableTest, CsvRowPerMetricAndGroupCellByCell) {
  EXPECT_EQ(ComparisonCsv(TwoGroups()),
            "metric,group,runs,median,min,max,mean,stddev,normalized_pct,reference,ratio_to_first,"
            "ci_low,ci_high,verdict\n"
            "opm,A,2,100,90,110,100,14.25,100,A,1,,,reference\n"
            "opm,B,3,127.5,120,135,127.5,7.5,127.5,A,1.275,1.1,1.45,higher\n"
            "p99_ms.purchase,A,2,12.5,10,15,12.5,3.5,100,A,1,,,reference\n"
            "p99_ms.purchase,B,3,10,9,11,10,1,80,A,0.8,,,no difference shown\n"
            "p50_ms.purchase,A,2,12.5,10,15,12.5,3.5,100,A,1,,,reference\n"
            "p50_ms.purchase,B,3,10,9,11,10,1,80,A,0.8,,,no difference shown\n");
}

TEST(ComparisonTableTest, SummaryHasMediansAndOnePairPhrasePerMetric) {
  EXPECT_EQ(
      FormatComparison(TwoGroups()),
      "comparison of 2 groups (dvdstore): ratio of means, 90 % interval from a hierarchical "
      "bootstrap (runs, then instances), 2000 resamples, seed 7\n"
      "  A: 2 run(s)\n"
      "  B: 3 run(s)\n"
      "  warning (--force): db_size: 10MB vs 20MB\n"
      "\n"
      "  metric                              A            B  (medians)\n"
      "  opm                               100        127.5  B/A = 1.2750 [1.1000, 1.4500]: B "
      "higher (better)\n"
      "  p99_ms.purchase                  12.5           10  B/A = 0.8000 (one run in A)\n"
      "(1 more metrics, each with its spread and % of the reference: --verbose)\n");
}

TEST(ComparisonTableTest, VerboseTableHasEveryMetricWithSpreadAndShareOfTheReference) {
  const std::string text = FormatComparison(TwoGroups(), /*verbose=*/true);
  EXPECT_NE(text.find("\nopm (orders per minute), % of A\n"
                      "  group            runs         median            min            max  % of "
                      "ref\n"
                      "  A                   2            100             90            110    "
                      "100.0%\n"
                      "  B                   3          127.5            120            135    "
                      "127.5%\n"
                      "  B/A = 1.2750 [1.1000, 1.4500]: B higher (better)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\np50_ms.purchase (purchase p99 response time, ms; lower is better), % of "
                      "A\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("(medians)"), std::string::npos) << text;
}

TEST(ComparisonTableTest, ALowerFigureThatIsWorseAndASecondPairOnItsOwnLine) {
  Comparison c = TwoGroups();
  c.labels.push_back("C");
  c.files.push_back({"c1.json"});
  c.metrics.resize(1);
  MetricComparison& opm = c.metrics[0];
  opm.groups.push_back(Figures("C", 1, 80, 80, 80, 0, 80));
  PairFigures lower = opm.pairs[0];
  lower.b = "C";
  lower.ratio = 0.8;
  lower.low = 0.7;
  lower.high = 0.9;
  lower.verdict = "lower";
  lower.better = false;
  opm.pairs.push_back(lower);
  const std::string text = FormatComparison(c);
  // The second pair stands under the first, after the metric and the three medians' columns.
  EXPECT_NE(text.find("  opm                               100        127.5           80  B/A = "
                      "1.2750 [1.1000, 1.4500]: B higher (better)\n" +
                      std::string(2 + 24 + 13 * 3 + 2, ' ') +
                      "C/A = 0.8000 [0.7000, 0.9000]: C lower (worse)\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("more metrics"), std::string::npos) << text;
}

}  // namespace
}  // namespace sb::report
