// The class of a failed run of the consolidation search (capacity, fault, no_start) from
// constructed results, and how the search reruns a faulted run (--rerun_faults).
#include "experiment/run_class.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "experiment/consolidate.h"

namespace sb::experiment {
namespace {

using report::Search;
using report::SearchCount;
using report::SearchRun;

metrics::RunResult Instance(const std::string& name, uint64_t units) {
  metrics::RunResult r;
  r.name = name;
  r.measured_sec = 60;
  metrics::LatencySummary l;
  l.count = units;
  r.latency.push_back(l);
  r.headline_value = static_cast<double>(units);
  return r;
}

// A run of two instances that ended; its one baseline passed or missed (decided by "b").
RunReport Ended(bool baseline_passed) {
  RunReport r;
  r.outcome = baseline_passed ? RunOutcome::kCompleted : RunOutcome::kFailed;
  r.exit_code = baseline_passed ? 0 : 1;
  r.result.headline_name = "opm";
  metrics::BaselineResult b;
  b.rule = "opm>=2600@23m-28m";
  b.words = "orders per minute over 23m-28m >= 2600";
  b.measured = baseline_passed ? 3000 : 2000;
  b.passed = baseline_passed;
  b.decided_by = "b";
  r.result.baselines.push_back(b);
  r.result.instances = {Instance("a", 300), Instance("b", 200)};
  return r;
}

TEST(RunClassTest, ABaselineMissedWithoutFaultsIsCapacity) {
  RunReport r = Ended(false);
  // Lock conflicts grow with load: they are the server's capacity, not a fault.
  r.result.instances[1].errors = {{"deadlock", 4}, {"serialization", 2}, {"timeout", 1}};
  const RunClass c = ClassifyRun(r, false);
  EXPECT_EQ(c.name, kClassCapacity);
  EXPECT_EQ(c.reason, "baseline missed: orders per minute over 23m-28m >= 2600 (decided by b)");
  EXPECT_EQ(Summarize(r).run_class, kClassCapacity);
}

TEST(RunClassTest, EverySignOfAFaultIsNamedWithItsInstance) {
  struct Case {
    void (*make)(metrics::RunResult*);
    std::string reason;
  };
  const std::vector<Case> cases = {
      {[](metrics::RunResult* b) { b->counters["reconnects"] = 3; }, "instance b: 3 reconnects"},
      {[](metrics::RunResult* b) { b->errors["connection_lost"] = 1; },
       "instance b: 1 connection_lost error"},
      {[](metrics::RunResult* b) { b->errors["constraint"] = 10; },
       "instance b: 10 constraint errors"},
      {[](metrics::RunResult* b) { b->workers_failed = 2; }, "instance b: 2 failed workers"},
      {[](metrics::RunResult* b) { b->workers_stalled = 1; }, "instance b: 1 stalled worker"},
      {[](metrics::RunResult* b) { b->latency[0].count = 0; },
       "instance b: no unit completed in the measured window"},
      {[](metrics::RunResult* b) {
         b->verify.push_back({"orders", false, "3 rows missing"});
       },
       "instance b: verification 'orders' failed"},
  };
  for (const Case& k : cases) {
    RunReport r = Ended(false);
    k.make(&r.result.instances[1]);
    const RunClass c = ClassifyRun(r, false);
    EXPECT_EQ(c.name, kClassFault) << k.reason;
    EXPECT_EQ(c.reason, k.reason);
  }
  // Several signs: all of them, in instance order.
  RunReport r = Ended(false);
  r.result.instances[0].counters["reconnects"] = 1;
  r.result.instances[1].workers_stalled = 2;
  EXPECT_EQ(ClassifyRun(r, false).reason, "instance a: 1 reconnect; instance b: 2 stalled workers");
}

TEST(RunClassTest, AFaultWithTheBaselinesMetIsAFault) {
  // Verification failed on a run of one instance whose baseline passed: exit 1, not passed.
  RunReport r = Ended(true);
  r.outcome = RunOutcome::kFailed;
  r.exit_code = 1;
  r.result.instances.clear();
  r.result.measured_sec = 60;
  r.result.latency.push_back({});
  r.result.latency[0].count = 10;
  r.result.verify.push_back({"rows", false, ""});
  EXPECT_EQ(ClassifyRun(r, false).name, kClassFault);
  EXPECT_EQ(ClassifyRun(r, false).reason, "verification 'rows' failed");
  r.result.verify.clear();
  EXPECT_EQ(ClassifyRun(r, false).reason, "the run failed (exit 1) with every baseline met");
}

TEST(RunClassTest, ARunThatDidNotStartAndAPassedRun) {
  RunReport r;
  r.outcome = RunOutcome::kNotStarted;
  r.exit_code = 2;
  EXPECT_EQ(ClassifyRun(r, false).name, kClassNoStart);
  EXPECT_EQ(ClassifyRun(r, false).reason, "the run did not start (exit 2)");
  r.error = "instance ds3_2: no database at /x/ds3_2.db";
  EXPECT_EQ(ClassifyRun(r, false).reason, r.error);
  // A passed run is passed, even with a reconnect it recovered from.
  RunReport ok = Ended(true);
  ok.result.instances[0].counters["reconnects"] = 1;
  EXPECT_EQ(ClassifyRun(ok, true).name, kClassPassed);
  EXPECT_EQ(ClassifyRun(ok, true).reason, "");
}

// Records the `rerun` of every call; run `faulty` faults until its `fixed_after`-th try.
class FaultySteps : public SearchSteps {
 public:
  FaultySteps(int faulty, int fixed_after) : faulty_(faulty), fixed_after_(fixed_after) {}
  RunReport Run(int count, int run_no, int runs, int rerun) override {
    calls.push_back({run_no, rerun});
    RunReport r = Ended(true);
    if (run_no == faulty_ && rerun < fixed_after_) {
      r = Ended(false);
      r.result.instances[1].counters["reconnects"] = 2;
    }
    r.result_file = "n" + std::to_string(count) + "-run" + std::to_string(run_no) + "-" +
                    std::to_string(rerun) + ".json";
    return r;
  }
  Status Save(const Search& s) override {
    saved = s;
    return Status::Ok();
  }
  void SetAside(int count, const SearchRun& run) override { ++set_aside; }
  std::vector<std::pair<int, int>> calls;
  int set_aside = 0;
  Search saved;

 private:
  int faulty_, fixed_after_;
};

Search OneCount(int runs, int rerun_faults) {
  Search s;
  s.from = s.to = 2;
  s.runs = runs;
  s.rerun_faults = rerun_faults;
  return s;
}

TEST(RunClassTest, AFaultedRunIsRunAgainBeforeItCounts) {
  // Run 2 faults twice, then passes; two reruns allowed.
  Search s = OneCount(3, 2);
  FaultySteps steps(2, 2);
  EXPECT_EQ(RunSearch(&s, steps).end, SearchEnd::kFinished);
  EXPECT_EQ(steps.calls,
            (std::vector<std::pair<int, int>>{{1, 0}, {2, 0}, {2, 1}, {2, 2}, {3, 0}}));
  const SearchCount& c = s.counts[0];
  ASSERT_EQ(c.runs.size(), 3u);
  EXPECT_EQ(c.runs_passed(), 3);
  EXPECT_EQ(c.runs[1].result_file, "n2-run2-2.json");
  ASSERT_EQ(c.set_aside.size(), 2u);
  EXPECT_EQ(steps.set_aside, 2);
  for (const SearchRun& r : c.set_aside) {
    EXPECT_EQ(r.run_no, 2);
    EXPECT_EQ(r.run_class, kClassFault);
    EXPECT_EQ(r.class_reason, "instance b: 2 reconnects");
  }
  EXPECT_EQ(s.peak, 2);
}

TEST(RunClassTest, AFaultCountsOnceItsRerunsAreUsedUp) {
  Search s = OneCount(1, 1);
  FaultySteps steps(1, 99);
  EXPECT_EQ(RunSearch(&s, steps).end, SearchEnd::kFinished);
  EXPECT_EQ(steps.calls, (std::vector<std::pair<int, int>>{{1, 0}, {1, 1}}));
  const SearchCount& c = s.counts[0];
  ASSERT_EQ(c.runs.size(), 1u);
  EXPECT_EQ(c.runs[0].run_class, kClassFault);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.set_aside.size(), 1u);
  // Without --rerun_faults a fault counts at once.
  Search none = OneCount(1, 0);
  FaultySteps once(1, 99);
  RunSearch(&none, once);
  EXPECT_EQ(once.calls.size(), 1u);
  EXPECT_TRUE(none.counts[0].set_aside.empty());
}

TEST(RunClassTest, AResumedSearchGoesOnWithTheRerunsItHad) {
  Search s = OneCount(1, 2);
  SearchRun aside;
  aside.run_no = 1;
  aside.run_class = kClassFault;
  s.counts.push_back({2, {}, -1, false});
  s.counts[0].set_aside.push_back(aside);
  FaultySteps steps(1, 99);
  RunSearch(&s, steps);
  EXPECT_EQ(steps.calls, (std::vector<std::pair<int, int>>{{1, 1}, {1, 2}}));
  EXPECT_EQ(s.counts[0].set_aside.size(), 2u);
}

TEST(RunClassTest, ARunThatDidNotStartIsSetAsideAndEndsTheSearch) {
  Search s = OneCount(1, 3);
  class NoStart : public FaultySteps {
   public:
    NoStart() : FaultySteps(0, 0) {}
    RunReport Run(int, int, int, int) override {
      RunReport r;
      r.outcome = RunOutcome::kNotStarted;
      r.exit_code = 2;
      r.error = "no database";
      r.result_file = "n2-run1.json";
      return r;
    }
  } steps;
  EXPECT_EQ(RunSearch(&s, steps).end, SearchEnd::kNotStarted);
  ASSERT_EQ(steps.saved.counts.size(), 1u);
  const SearchCount& c = steps.saved.counts[0];
  EXPECT_TRUE(c.runs.empty());  // not counted: a resumed search runs it again
  ASSERT_EQ(c.set_aside.size(), 1u);
  EXPECT_EQ(c.set_aside[0].run_class, kClassNoStart);
  EXPECT_EQ(c.set_aside[0].class_reason, "no database");
  EXPECT_EQ(c.set_aside[0].result_file, "");  // nothing was written
}

}  // namespace
}  // namespace sb::experiment
