// Two consolidation searches side by side on constructed searches with known peaks and figures:
// the peaks' ratio in the sentence a report quotes, per watt at each peak, the per-count
// aggregates of both, and the JSON and CSV.
#include "report/files/search_comparison.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

namespace sb::report {
namespace {

// A decided search over 1..top whose counts up to `peak` passed; count n's median run has the
// aggregate n * per_instance in its deciding window at `watts`.
Search Searched(int top, int peak, double per_instance, double watts) {
  Search s;
  s.headline = "opm";
  s.from = 1;
  s.to = top + 1;
  s.finished = true;
  s.peak = peak;
  for (int n = 1; n <= top; ++n) {
    SearchCount c;
    c.count = n;
    SearchRun r;
    r.passed = n <= peak;
    r.aggregate = -1;  // the measured window's: not what is compared
    r.window.label = "23m-28m";
    r.window.aggregate = n * per_instance;
    r.window.power_w = watts;
    r.window.per_watt = n * per_instance / watts;
    c.runs = {r};
    c.median_run = 0;
    c.passed = r.passed;
    s.counts.push_back(c);
  }
  return s;
}

TEST(SearchComparisonTest, PeaksPerWattAndCountsSideBySide) {
  // A: 9 instances of 2,700 OPM at 400 W; B: 11 at 500 W.
  const SearchComparison c = CompareSearches(Searched(10, 9, 2700, 400), "A", "a.json",
                                             Searched(12, 11, 2700, 500), "B", "b.json");
  EXPECT_EQ(c.a.peak, 9);
  EXPECT_EQ(c.b.peak, 11);
  EXPECT_NEAR(c.peak_change, 2.0 / 9, 1e-12);
  EXPECT_EQ(PeakSentence(c), "B supported 22.2 % more instances than A (11 against 9)");
  EXPECT_DOUBLE_EQ(c.a.peak_per_watt, 9 * 2700.0 / 400);
  EXPECT_DOUBLE_EQ(c.b.peak_per_watt, 11 * 2700.0 / 500);
  EXPECT_NEAR(c.per_watt_change, (11 * 2700.0 / 500) / (9 * 2700.0 / 400) - 1, 1e-12);
  EXPECT_EQ(PerWattSentence(c),
            "B's OPM/W at its peak is 2.2 % lower than A's (59.4 against 60.8)");
  ASSERT_EQ(c.counts.size(), 12u);
  EXPECT_DOUBLE_EQ(c.counts[9].a, 27000);  // count 10: both decided
  EXPECT_DOUBLE_EQ(c.counts[9].b, 27000);
  EXPECT_EQ(c.counts[9].verdict_a, "FAIL");
  EXPECT_EQ(c.counts[9].verdict_b, "PASS");
  EXPECT_TRUE(std::isnan(c.counts[11].a));  // count 12: only B ran it
  EXPECT_EQ(c.counts[11].verdict_a, "");

  const std::string text = FormatSearchComparison(c);
  EXPECT_NE(text.find("B supported 22.2 % more instances than A"), std::string::npos) << text;
  EXPECT_NE(text.find("OPM/W at the peak"), std::string::npos) << text;
  EXPECT_NE(text.find("27000 FAIL           27000 PASS"), std::string::npos) << text;

  const auto j = nlohmann::json::parse(SearchComparisonToJson(c));
  EXPECT_EQ(j["kind"], kSearchComparisonKind);
  EXPECT_EQ(j["a"]["peak"], 9);
  EXPECT_EQ(j["b"]["peak"], 11);
  EXPECT_NEAR(j["peak_change_pct"].get<double>(), 22.222, 1e-3);
  EXPECT_TRUE(j["counts"][11]["a_aggregate"].is_null());
  EXPECT_EQ(j["counts"][0]["b_aggregate"], 2700);

  const std::string csv = SearchComparisonCsv(c);
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "instances,A_opm,A_verdict,B_opm,B_verdict");
  EXPECT_NE(csv.find("\n12,,,32400,FAIL\n"), std::string::npos) << csv;
}

TEST(SearchComparisonTest, FewerSameAndNoPeak) {
  const SearchComparison fewer = CompareSearches(Searched(5, 4, 100, 100), "A", "a.json",
                                                 Searched(5, 3, 100, 100), "B", "b.json");
  EXPECT_EQ(PeakSentence(fewer), "B supported 25.0 % fewer instances than A (3 against 4)");
  const SearchComparison same = CompareSearches(Searched(5, 4, 100, 100), "A", "a.json",
                                                Searched(5, 4, 100, 100), "B", "b.json");
  EXPECT_EQ(PeakSentence(same), "B supported the same number of instances as A (4 against 4)");
  const SearchComparison none = CompareSearches(Searched(1, 0, 100, 100), "A", "a.json",
                                                Searched(5, 4, 100, 100), "B", "b.json");
  EXPECT_TRUE(std::isnan(none.peak_change));
  EXPECT_EQ(PeakSentence(none), "A passed no count; B supported 4 instance(s)");
}

TEST(SearchComparisonTest, PerWattNeedsPowerAtBothPeaks) {
  Search b = Searched(5, 4, 100, 100);
  for (SearchCount& c : b.counts) c.runs[0].window.per_watt = SearchWindow::kNone;
  b.finished = false;
  const SearchComparison c =
      CompareSearches(Searched(5, 4, 100, 100), "A", "a.json", b, "B", "b.json");
  EXPECT_TRUE(std::isnan(c.per_watt_change));
  EXPECT_NE(PerWattSentence(c).find("no ratio"), std::string::npos);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_NE(c.warnings[0].find("did not finish"), std::string::npos);
}

}  // namespace
}  // namespace sb::report
