// A background worker (Workload::background_workers(), driver/worker.h): its session's calls
// record their steps and counters, but are not units of the run, and the run's unit limits do not
// stop it.
#include <gtest/gtest.h>

#include <memory>
#include <utility>
#include <vector>

#include "base/clock.h"
#include "driver/pacer.h"
#include "driver/worker.h"

namespace sb::driver {
namespace {

// A worker's layout with `steps` step types and `counters` workload counters.
Layout TestLayout(int steps, int counters) {
  Layout layout;
  layout.steps = steps;
  layout.workload_counters = counters;
  layout.unit_name = "unit";
  return layout;
}

// Each call records one sample of step 0 and adds 1 to counter 0; the run ends after `calls`.
class CountingSession final : public workload::Session {
 public:
  CountingSession(RunSignals& signals, int calls) : signals_(signals), left_(calls) {}
  Status RunUnit(workload::OpContext& ctx) override {
    ctx.RecordStep(0, 1000, /*add_to_unit=*/false);
    ctx.Count(0, 1);
    if (--left_ == 0) signals_.gate.store(RunSignals::kEnded);
    return Status::Ok();
  }

 private:
  RunSignals& signals_;
  int left_;
};

TEST(BackgroundWorkerTest, CallsRecordStepsAndCountersButNoUnits) {
  const Layout layout = TestLayout(1, 1);
  for (bool background : {false, true}) {
    RunSignals signals;
    signals.gate.store(RunSignals::kStarted);
    Worker w(0, layout, 1);
    w.background = background;
    w.session = std::make_unique<CountingSession>(signals, 5);
    w.pacer = NewClosedLoopPacer(0, 1);
    std::atomic<int64_t> units_left{2};
    LoopLimits limits;
    limits.units_left = &units_left;  // two units for the whole run
    FakeClock clock;
    RunUnits(w, layout, limits, clock, signals, nullptr);
    metrics::RecorderSnapshot snap;
    w.recorder.Snapshot(&snap);
    if (background) {
      // Every call ran (the run's two units are not its to take) and none is a unit.
      EXPECT_EQ(snap.types[0].count(), 0u);
      EXPECT_EQ(snap.types[1].count(), 5u);
      EXPECT_EQ(snap.counters[0], 5);
      EXPECT_EQ(units_left.load(), 2);
    } else {
      EXPECT_EQ(snap.types[0].count(), 2u);  // an ordinary worker stops after the two units
      EXPECT_EQ(snap.types[1].count(), 2u);
    }
  }
}

// A unit with more steps and counts than the worker keeps inline (8 of each): every one is
// recorded with the unit, in order of no importance, none lost or doubled.
class ManyStepsSession final : public workload::Session {
 public:
  Status RunUnit(workload::OpContext& ctx) override {
    for (int i = 0; i < 20; ++i) {
      ctx.RecordStep(i % 3, 1000 * (i + 1), /*add_to_unit=*/true);
      ctx.Count(i % 3, i + 1);
    }
    return Status::Ok();
  }
};

TEST(WorkerTest, AUnitWithManyStepsAndCountsRecordsEveryOne) {
  const Layout layout = TestLayout(3, 3);
  RunSignals signals;
  signals.gate.store(RunSignals::kStarted);
  Worker w(0, layout, 1);
  w.session = std::make_unique<ManyStepsSession>();
  w.pacer = NewClosedLoopPacer(0, 1);
  LoopLimits limits;
  limits.max_units = 3;
  FakeClock clock;
  RunUnits(w, layout, limits, clock, signals, nullptr);
  metrics::RecorderSnapshot snap;
  w.recorder.Snapshot(&snap);
  EXPECT_EQ(snap.types[0].count(), 3u);
  // Steps i = 0..19 by type i % 3: 7, 7 and 6 per unit; counts add i + 1 to counter i % 3.
  EXPECT_EQ(snap.types[1].count(), 21u);
  EXPECT_EQ(snap.types[2].count(), 21u);
  EXPECT_EQ(snap.types[3].count(), 18u);
  EXPECT_EQ(snap.counters[0], 3 * (1 + 4 + 7 + 10 + 13 + 16 + 19));
  EXPECT_EQ(snap.counters[1], 3 * (2 + 5 + 8 + 11 + 14 + 17 + 20));
  EXPECT_EQ(snap.counters[2], 3 * (3 + 6 + 9 + 12 + 15 + 18));
}

// Each unit counts 1 with the unit (Count) and 10 whatever becomes of it (CountNow), then
// fails as `outcomes` says, one per unit: a lost connection (the worker abandons the unit and
// reconnects) or a syntax error (the worker gives up).
class FailingSession final : public workload::Session {
 public:
  explicit FailingSession(std::vector<ErrorCategory> outcomes) : outcomes_(std::move(outcomes)) {}
  Status RunUnit(workload::OpContext& ctx) override {
    ctx.Count(0, 1);
    ctx.CountNow(1, 10);
    const ErrorCategory c = outcomes_.at(next_++);
    return c == ErrorCategory::kNone ? Status::Ok() : Status::Db(c, "unit failed");
  }

 private:
  std::vector<ErrorCategory> outcomes_;
  size_t next_ = 0;
};

TEST(WorkerTest, CountNowSurvivesAnAbandonedOrFailedUnitAndCountDoesNot) {
  const Layout layout = TestLayout(1, 2);
  RunSignals signals;
  signals.gate.store(RunSignals::kStarted);
  Worker w(0, layout, 1);
  // One good unit, one abandoned on a lost connection, then one the worker gives up on.
  const std::vector<ErrorCategory> outcomes = {ErrorCategory::kNone, ErrorCategory::kConnectionLost,
                                               ErrorCategory::kSyntax};
  w.session = std::make_unique<FailingSession>(outcomes);
  w.reconnect = [&]() -> Result<std::unique_ptr<workload::Session>> {
    // The new connection's session carries on with the outcomes after the abandoned unit.
    return std::unique_ptr<workload::Session>(std::make_unique<FailingSession>(
        std::vector<ErrorCategory>(outcomes.begin() + 2, outcomes.end())));
  };
  w.pacer = NewClosedLoopPacer(0, 1);
  LoopLimits limits;
  FakeClock clock;
  RunUnits(w, layout, limits, clock, signals, nullptr);
  EXPECT_EQ(w.state.load(), WorkerState::kFailed);
  metrics::RecorderSnapshot snap;
  w.recorder.Snapshot(&snap);
  EXPECT_EQ(snap.types[0].count(), 1u);  // one unit completed
  EXPECT_EQ(snap.counters[0], 1);        // Count: only the completed unit's
  EXPECT_EQ(snap.counters[1], 30);       // CountNow: all three units'
  EXPECT_EQ(snap.counters[layout.reconnects()], 1);
}

}  // namespace
}  // namespace sb::driver
