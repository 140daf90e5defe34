// Several database instances under one controller (Runner::RunMany), on the null back end with
// the noop workload: each instance has its own figures, and the aggregate is their exact merge.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <vector>

#include "backend/db/null/null_backend.h"
#include "base/clock.h"
#include "driver/runner.h"
#include "metrics/windows.h"
#include "unit/driver/stub_workload.h"
#include "workload/noop/noop_workload.h"

namespace sb::driver {
namespace {

struct Fixture {
  std::vector<std::unique_ptr<noop::NoopWorkload>> workloads;
  std::vector<std::unique_ptr<db::DbBackend>> backends;
  std::vector<DbInstanceSpec> specs;

  // `units[i]`: units per thread of instance i (each with `threads[i]` threads).
  Fixture(const std::vector<int>& threads, const std::vector<int>& units) {
    for (size_t i = 0; i < threads.size(); ++i) {
      workloads.push_back(std::make_unique<noop::NoopWorkload>());
      backends.push_back(db::OpenNull(db::DbUrl(), db::BackendOptions()).value());
      DbInstanceSpec s;
      s.name = "n" + std::to_string(i + 1);
      s.workload = workloads.back().get();
      s.backend = backends.back().get();
      s.options.threads = threads[i];
      s.options.units_per_thread = units[i];
      s.options.ramp_rate = 0;
      s.options.seed = 1 + i;
      specs.push_back(s);
    }
  }
};

RunOptions Common() {
  RunOptions o;
  o.run_nanos = 60 * kNanosPerSecond;  // the units end the run long before
  o.log_freq_sec = 0;
  return o;
}

TEST(RunManyTest, AggregateIsTheExactSumOfTheInstances) {
  Fixture f({2, 3, 1}, {500, 200, 1000});
  SteadyClock clock;
  Runner runner(clock);
  RunOptions common = Common();
  common.baselines = {*metrics::ParseBaseline("units>=900@run")};
  RunOutcome out = runner.RunMany(f.specs, common, {});
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  const metrics::RunResult& r = out.result;
  ASSERT_EQ(r.instances.size(), 3u);
  // Every unit of every instance, counted once: 2·500 + 3·200 + 1·1000.
  EXPECT_EQ(r.instances[0].latency[0].count, 1000u);
  EXPECT_EQ(r.instances[1].latency[0].count, 600u);
  EXPECT_EQ(r.instances[2].latency[0].count, 1000u);
  EXPECT_EQ(r.latency[0].count, 2600u);
  EXPECT_EQ(r.instances[1].name, "n2");
  EXPECT_EQ(r.workers_started, 6);
  // The merged histogram's extremes are the instances' extremes.
  double max_ms = 0;
  for (const auto& in : r.instances) max_ms = std::max(max_ms, in.latency[0].max_ms);
  EXPECT_DOUBLE_EQ(r.latency[0].max_ms, max_ms);
  // The aggregate series adds the instances' per-second counts.
  uint64_t series_total = 0;
  for (const auto& p : r.series.points) series_total += p.type_counts[0];
  EXPECT_EQ(series_total, 2600u);
  // Judged per instance: n2 completed 600 < 900, so the run fails, decided by n2.
  ASSERT_EQ(r.baselines.size(), 1u);
  EXPECT_FALSE(r.baselines[0].passed);
  EXPECT_EQ(r.baselines[0].decided_by, "n2");
  EXPECT_DOUBLE_EQ(r.baselines[0].measured, 600);
  EXPECT_TRUE(r.instances[0].baselines[0].passed);
  EXPECT_FALSE(r.instances[1].baselines[0].passed);
  // Verify sees each instance's own whole-run totals.
  ASSERT_EQ(out.instance_whole_run.size(), 3u);
  EXPECT_EQ(out.instance_whole_run[2].types[0].count, 1000u);
  EXPECT_EQ(out.whole_run.types[0].count, 2600u);
}

TEST(RunManyTest, OneInstanceHasNoInstanceList) {
  Fixture f({2}, {100});
  SteadyClock clock;
  Runner runner(clock);
  RunOutcome out = runner.RunMany(f.specs, Common(), {});
  ASSERT_TRUE(out.status.ok());
  EXPECT_TRUE(out.result.instances.empty());
  EXPECT_EQ(out.result.latency[0].count, 200u);
  ASSERT_FALSE(out.result.headlines.empty());
  EXPECT_EQ(out.result.headlines[0].first, "ops_per_minute");
}

TEST(RunManyTest, AStopSignalEndsEveryInstance) {
  Fixture f({4, 4}, {0, 0});  // no unit limit: only the stop ends the run
  std::atomic<bool> stop{false};
  RunOptions common = Common();
  common.stop = &stop;
  RunCallbacks cb;
  // The stop comes at the first second's sample: both instances' noop units have run by then.
  cb.on_interval = [&](const metrics::TimeSeries&, const metrics::StatusFigures&) { stop = true; };
  SteadyClock clock;
  Runner runner(clock);
  RunOutcome out = runner.RunMany(f.specs, common, cb);
  ASSERT_TRUE(out.status.ok());
  EXPECT_TRUE(out.result.interrupted);
  EXPECT_GT(out.result.instances[0].latency[0].count, 0u);
  EXPECT_GT(out.result.instances[1].latency[0].count, 0u);
}

TEST(RunManyTest, LiveTotalsArePerInstanceAndOnlyGrow) {
  Fixture f({2, 1}, {300, 500});
  RunCallbacks cb;
  std::vector<std::vector<metrics::LiveTotals>> calls;
  cb.on_live_totals = [&](const std::vector<metrics::LiveTotals>& t) { calls.push_back(t); };
  SteadyClock clock;
  Runner runner(clock);
  RunOutcome out = runner.RunMany(f.specs, Common(), cb);
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  ASSERT_FALSE(calls.empty());
  for (size_t c = 0; c < calls.size(); ++c) {
    ASSERT_EQ(calls[c].size(), 2u);
    for (size_t i = 0; i < 2; ++i) {
      const metrics::LiveTotals& t = calls[c][i];
      EXPECT_EQ(t.instance, "n" + std::to_string(i + 1));
      EXPECT_EQ(t.workload, "noop");
      ASSERT_EQ(t.units.size(), 1u);
      ASSERT_EQ(t.counters.size(), t.counter_names.size());
      if (c == 0) continue;
      const metrics::LiveTotals& before = calls[c - 1][i];
      EXPECT_GE(t.units[0].count(), before.units[0].count());
      for (size_t k = 0; k < t.counters.size(); ++k) EXPECT_GE(t.counters[k], before.counters[k]);
    }
  }
  // The last call holds every unit of each instance, not the aggregate's.
  EXPECT_EQ(calls.back()[0].units[0].count(), out.result.instances[0].latency[0].count);
  EXPECT_EQ(calls.back()[1].units[0].count(), 500u);
}

// Every session's first unit fails with a server's error that is not retried (a missing table).
class BrokenWorkload final : public StubWorkload {
 public:
  BrokenWorkload() : StubWorkload("broken") {
    shape_.unit_name = "op";
    shape_.headline_name = "ops_per_minute";
    shape_.headlines = {metrics::UnitsPerMinute("ops_per_minute", "operations per minute")};
    shape_.step_types = {"op"};
  }
  Result<std::unique_ptr<workload::Session>> NewSession(std::unique_ptr<db::Connection>, uint64_t,
                                                        int) override {
    return std::unique_ptr<workload::Session>(new BrokenSession());
  }

 private:
  class BrokenSession final : public workload::Session {
   public:
    Status RunUnit(workload::OpContext&) override {
      return Status::Db(ErrorCategory::kOther, "relation \"orders\" does not exist");
    }
  };
};

TEST(RunManyTest, AnInstanceWhoseThreadsAllFailSaysWhyAndTheOthersGoOn) {
  Fixture f({2, 2}, {300, 300});
  BrokenWorkload broken;
  f.specs[0].workload = &broken;
  SteadyClock clock;
  Runner runner(clock);
  RunOutcome out = runner.RunMany(f.specs, Common(), {});
  // The run fails, and its warning names the instance and quotes the error that ended it.
  const std::string why =
      "every thread of instance n1 stopped on an error (the first: relation \"orders\" does "
      "not exist)";
  EXPECT_EQ(out.status.message(), why);
  ASSERT_EQ(out.result.instances.size(), 2u);
  ASSERT_EQ(out.result.instances[0].warnings.size(), 1u);
  EXPECT_EQ(out.result.instances[0].warnings[0], why);
  EXPECT_EQ(out.result.instances[0].workers_failed, 2);
  // The other instance did all its units and has no warning.
  EXPECT_TRUE(out.result.instances[1].warnings.empty());
  EXPECT_EQ(out.result.instances[1].latency[0].count, 600u);
}

}  // namespace
}  // namespace sb::driver
