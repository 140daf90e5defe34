// The consolidation search over constructed runs: each test's runs say which counts pass, and
// the search's choices (counts tried, medians, peak, where it stops) are checked.
#include "experiment/consolidate.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace sb::experiment {
namespace {

using report::Search;
using report::SearchCount;
using report::SearchRun;

metrics::BaselineResult Baseline(double measured, bool passed) {
  metrics::BaselineResult b;
  b.rule = "opm>=100@run";
  b.measured = measured;
  b.passed = passed;
  return b;
}

// A run that ended with one baseline measured at `deciding`, passed or not, of two instances.
RunReport Judged(double deciding, bool passed, RunOutcome outcome = RunOutcome::kCompleted) {
  RunReport r;
  r.outcome = outcome;
  r.exit_code = passed ? 0 : 1;
  r.result.headline_name = "opm";
  r.result.headline_value = deciding * 3;
  r.result.baselines.push_back(Baseline(deciding, passed));
  metrics::RunResult a, b;
  a.headline_value = deciding;
  b.headline_value = deciding * 2;
  r.result.instances = {a, b};
  return r;
}

// Runs from a rule: what run `run_no` at `count` gives; records every call and every save.
class ScriptedSteps : public SearchSteps {
 public:
  explicit ScriptedSteps(std::function<RunReport(int count, int run_no)> script)
      : script_(std::move(script)) {}
  RunReport Run(int count, int run_no, int runs, int rerun) override {
    tried.push_back({count, run_no});
    reruns.push_back(rerun);
    return script_(count, run_no);
  }
  Status Save(const Search& s) override {
    ++saves;
    saved = s;
    return fail_saves ? Status::FailedPrecondition("disk full") : Status::Ok();
  }
  void Decided(const SearchCount& c) override { decided.push_back(c.count); }
  void SetAside(int count, const SearchRun& run) override { set_aside.push_back(count); }

  std::vector<std::pair<int, int>> tried;
  std::vector<int> reruns;     // the `rerun` of each call
  std::vector<int> set_aside;  // the count of each run set aside
  std::vector<int> decided;
  int saves = 0;
  bool fail_saves = false;
  Search saved;

 private:
  std::function<RunReport(int, int)> script_;
};

// Every run at a count up to `peak` passes, every run above fails.
std::function<RunReport(int, int)> PassUpTo(int peak) {
  return [peak](int count, int) {
    return count <= peak ? Judged(200, true) : Judged(50, false, RunOutcome::kFailed);
  };
}

Search NewSearch(const std::string& step, int from, int to, int runs) {
  Search s;
  s.plan = "plan.toml";
  s.step = step;
  s.from = from;
  s.to = to;
  s.runs = runs;
  return s;
}

std::vector<int> CountsTried(const ScriptedSteps& steps) {
  std::vector<int> counts;
  for (const auto& [count, run_no] : steps.tried) {
    if (run_no == 1) counts.push_back(count);
  }
  return counts;
}

TEST(ConsolidateSearchTest, LinearStepsUpUntilTheFirstFailure) {
  Search s = NewSearch("linear", 1, 8, 1);
  ScriptedSteps steps(PassUpTo(3));
  const SearchResult end = RunSearch(&s, steps);
  EXPECT_EQ(end.end, SearchEnd::kFinished);
  EXPECT_EQ(CountsTried(steps), (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(s.peak, 3);
  EXPECT_TRUE(s.finished);
  EXPECT_EQ(s.headline, "opm");
  EXPECT_TRUE(steps.saved.finished);  // the last save is the finished search
  // One save after each run, one after each decided count, one at the end.
  EXPECT_EQ(steps.saves, 4 + 4 + 1);
}

TEST(ConsolidateSearchTest, LinearEndsAtTheTopOfTheRange) {
  Search s = NewSearch("linear", 2, 4, 1);
  ScriptedSteps steps(PassUpTo(100));
  EXPECT_EQ(RunSearch(&s, steps).end, SearchEnd::kFinished);
  EXPECT_EQ(CountsTried(steps), (std::vector<int>{2, 3, 4}));
  EXPECT_EQ(s.peak, 4);
}

TEST(ConsolidateSearchTest, FailingFirstCountHasNoPeak) {
  Search s = NewSearch("doubling", 3, 16, 1);
  ScriptedSteps steps(PassUpTo(2));
  EXPECT_EQ(RunSearch(&s, steps).end, SearchEnd::kFinished);
  EXPECT_EQ(CountsTried(steps), (std::vector<int>{3}));
  EXPECT_EQ(s.peak, 0);
  EXPECT_TRUE(s.finished);
}

TEST(ConsolidateSearchTest, DoublingThenBisects) {
  Search s = NewSearch("doubling", 1, 16, 1);
  ScriptedSteps steps(PassUpTo(5));
  EXPECT_EQ(RunSearch(&s, steps).end, SearchEnd::kFinished);
  // Up 1, 2, 4, 8 (fails), then between 4 and 8: 6 (fails), 5 (passes); 5 and 6 are adjacent.
  EXPECT_EQ(CountsTried(steps), (std::vector<int>{1, 2, 4, 8, 6, 5}));
  EXPECT_EQ(s.peak, 5);
  // The search file keeps the counts in the order tried.
  ASSERT_EQ(s.counts.size(), 6u);
  EXPECT_EQ(s.counts[4].count, 6);
  EXPECT_FALSE(s.counts[4].passed);
}

TEST(ConsolidateSearchTest, DoublingIsCappedAtTheTopOfTheRange) {
  Search s = NewSearch("doubling", 3, 10, 1);
  ScriptedSteps steps(PassUpTo(100));
  EXPECT_EQ(RunSearch(&s, steps).end, SearchEnd::kFinished);
  EXPECT_EQ(CountsTried(steps), (std::vector<int>{3, 6, 10}));
  EXPECT_EQ(s.peak, 10);
}

TEST(ConsolidateSearchTest, NextCountOfDecidedCounts) {
  Search s = NewSearch("doubling", 1, 32, 1);
  EXPECT_EQ(NextCount(s), 1);
  s.counts = {{1, {}, 0, true}, {2, {}, 0, true}, {4, {}, 0, true}, {8, {}, 0, false}};
  EXPECT_EQ(NextCount(s), 6);
  s.counts.push_back({6, {}, 0, true});
  EXPECT_EQ(NextCount(s), 7);
  s.counts.push_back({7, {}, 0, true});
  EXPECT_EQ(NextCount(s), 0);  // 7 passed, 8 failed
  s.step = "linear";
  s.counts = {{1, {}, 0, true}, {2, {}, 0, false}};
  EXPECT_EQ(NextCount(s), 0);
  // A count begun and not decided comes first, wherever it is.
  s.counts = {{1, {}, 0, true}, {2, {}, -1, false}};
  EXPECT_EQ(NextCount(s), 2);
}

TEST(ConsolidateSearchTest, MedianRunDecidesACount) {
  // Three runs at count 2: the median of the deciding figures (90, 120, 110) is the third run,
  // which passed although the first did not.
  Search s = NewSearch("linear", 2, 2, 3);
  const std::map<int, RunReport> runs = {
      {1, Judged(90, false, RunOutcome::kFailed)}, {2, Judged(120, true)}, {3, Judged(110, true)}};
  ScriptedSteps steps([&](int, int run_no) { return runs.at(run_no); });
  EXPECT_EQ(RunSearch(&s, steps).end, SearchEnd::kFinished);
  ASSERT_EQ(s.counts.size(), 1u);
  const SearchCount& c = s.counts[0];
  EXPECT_EQ(c.median_run, 2);
  EXPECT_TRUE(c.passed);
  EXPECT_EQ(c.runs_passed(), 2);
  EXPECT_EQ(s.peak, 2);
  EXPECT_EQ(steps.decided, (std::vector<int>{2}));
  // The median run's figures: the lowest instance, the median instance (lower middle), the sum.
  EXPECT_DOUBLE_EQ(c.runs[2].instance_min, 110);
  EXPECT_DOUBLE_EQ(c.runs[2].instance_median, 110);
  EXPECT_DOUBLE_EQ(c.runs[2].aggregate, 330);
  EXPECT_EQ(c.runs[0].exit_code, 1);
}

TEST(ConsolidateSearchTest, MedianRunOfAnEvenCountAndTies) {
  std::vector<SearchRun> runs(4);
  runs[0].deciding = 40;
  runs[1].deciding = 10;
  runs[2].deciding = 30;
  runs[3].deciding = 20;
  EXPECT_EQ(MedianRun(runs), 3);  // the lower middle of 10, 20, 30, 40
  std::vector<SearchRun> tied(3);
  for (SearchRun& r : tied) r.deciding = 5;
  EXPECT_EQ(MedianRun(tied), 1);  // ties keep the order of the runs
  EXPECT_DOUBLE_EQ(Median({4, 1, 3, 2}), 2);
  EXPECT_DOUBLE_EQ(Median({}), 0);
}

TEST(ConsolidateSearchTest, ACompletedRunPassesOnlyWhenEveryBaselinePasses) {
  RunReport r = Judged(200, true);
  r.result.baselines.push_back(Baseline(12, false));
  EXPECT_FALSE(Summarize(r).passed);
  // A run that ended with a failure (verification, say) does not pass on its baselines.
  RunReport failed = Judged(200, true, RunOutcome::kFailed);
  EXPECT_FALSE(Summarize(failed).passed);
  EXPECT_TRUE(Summarize(Judged(200, true)).passed);
  // One instance: its figures are the run's own.
  RunReport one = Judged(200, true);
  one.result.instances.clear();
  EXPECT_DOUBLE_EQ(Summarize(one).instance_min, 600);
  EXPECT_DOUBLE_EQ(Summarize(one).instance_median, 600);
}

TEST(ConsolidateSearchTest, ResumesAPartialSearch) {
  // Interrupted during count 4's second run: 1, 2 passed; count 4 has one run of two.
  Search s = NewSearch("doubling", 1, 8, 2);
  s.headline = "opm";
  SearchRun pass;
  pass.passed = true;
  pass.deciding = 200;
  s.counts = {{1, {pass, pass}, 0, true}, {2, {pass, pass}, 0, true}, {4, {pass}, -1, false}};
  ScriptedSteps steps(PassUpTo(4));
  EXPECT_EQ(RunSearch(&s, steps).end, SearchEnd::kFinished);
  // Count 4's second run first, then 8 (fails) twice; 4 and 8 leave 6, which fails; then 5.
  EXPECT_EQ(steps.tried, (std::vector<std::pair<int, int>>{
                             {4, 2}, {8, 1}, {8, 2}, {6, 1}, {6, 2}, {5, 1}, {5, 2}}));
  EXPECT_EQ(s.peak, 4);
  ASSERT_EQ(s.counts.size(), 6u);
  EXPECT_EQ(s.counts[2].runs.size(), 2u);
  EXPECT_TRUE(s.counts[2].passed);
}

TEST(ConsolidateSearchTest, ResumeDecidesACountWhoseRunsAreAllIn) {
  Search s = NewSearch("linear", 1, 1, 1);
  SearchRun pass;
  pass.passed = true;
  s.counts = {{1, {pass}, -1, false}};  // stopped after the run, before the decision was saved
  ScriptedSteps steps(PassUpTo(0));
  EXPECT_EQ(RunSearch(&s, steps).end, SearchEnd::kFinished);
  EXPECT_TRUE(steps.tried.empty());
  EXPECT_EQ(steps.decided, (std::vector<int>{1}));
  EXPECT_EQ(s.peak, 1);
}

TEST(ConsolidateSearchTest, AnInterruptedRunStopsAndKeepsTheSearch) {
  Search s = NewSearch("linear", 1, 4, 1);
  ScriptedSteps steps([](int count, int) {
    if (count == 3) {
      RunReport r;
      r.outcome = RunOutcome::kInterrupted;
      r.exit_code = 130;
      return r;
    }
    return Judged(200, true);
  });
  EXPECT_EQ(RunSearch(&s, steps).end, SearchEnd::kInterrupted);
  EXPECT_FALSE(s.finished);
  ASSERT_EQ(steps.saved.counts.size(), 3u);
  EXPECT_TRUE(steps.saved.counts[2].runs.empty());  // the interrupted run is not recorded
  EXPECT_EQ(NextCount(steps.saved), 3);             // --resume starts there
  // The peak so far: counts 1 and 2 passed before the interruption.
  EXPECT_EQ(s.peak, 2);
  EXPECT_EQ(steps.saved.peak, 2);
}

TEST(ConsolidateSearchTest, ARunThatCouldNotStartIsNotABaselineMiss) {
  // A run that never started stops the search; it is not a failed count (which would end a
  // linear search with a peak).
  Search s = NewSearch("linear", 1, 4, 1);
  ScriptedSteps steps([](int count, int) {
    if (count == 2) {
      RunReport r;
      r.outcome = RunOutcome::kNotStarted;
      r.exit_code = 2;
      return r;
    }
    return Judged(200, true);
  });
  EXPECT_EQ(RunSearch(&s, steps).end, SearchEnd::kNotStarted);
  EXPECT_FALSE(s.finished);
  EXPECT_EQ(s.peak, 1);  // the peak so far (count 1 passed); `finished` says it is not final
  ASSERT_EQ(steps.saved.counts.size(), 2u);
  EXPECT_TRUE(steps.saved.counts[1].runs.empty());
  EXPECT_EQ(steps.saved.counts[1].median_run, -1);

  // The same count missing its baseline is decided and ends the search with a peak.
  Search missed = NewSearch("linear", 1, 4, 1);
  ScriptedSteps miss(PassUpTo(1));
  EXPECT_EQ(RunSearch(&missed, miss).end, SearchEnd::kFinished);
  EXPECT_EQ(missed.peak, 1);
  EXPECT_FALSE(missed.counts[1].passed);
}

TEST(ConsolidateSearchTest, ALostRankStopsTheSearch) {
  Search s = NewSearch("linear", 1, 4, 1);
  ScriptedSteps steps([](int count, int) {
    RunReport r = Judged(200, true);
    if (count == 2) r.outcome = RunOutcome::kRankLost;
    return r;
  });
  EXPECT_EQ(RunSearch(&s, steps).end, SearchEnd::kRankLost);
  EXPECT_TRUE(s.counts[1].runs.empty());  // its figures are not a run's
}

TEST(ConsolidateSearchTest, ARunWithoutABaselineIsAnError) {
  Search s = NewSearch("linear", 1, 4, 1);
  ScriptedSteps steps([](int, int) {
    RunReport r = Judged(200, true);
    r.result.baselines.clear();
    return r;
  });
  const SearchResult end = RunSearch(&s, steps);
  EXPECT_EQ(end.end, SearchEnd::kError);
  EXPECT_NE(end.status.message().find("needs a baseline"), std::string::npos);
}

TEST(ConsolidateSearchTest, AFailedSaveStopsTheSearch) {
  Search s = NewSearch("linear", 1, 4, 1);
  ScriptedSteps steps(PassUpTo(4));
  steps.fail_saves = true;
  const SearchResult end = RunSearch(&s, steps);
  EXPECT_EQ(end.end, SearchEnd::kError);
  EXPECT_EQ(end.status.message(), "disk full");
  EXPECT_EQ(steps.tried.size(), 1u);  // nothing runs after a search that could not be kept
}

}  // namespace
}  // namespace sb::experiment
