// The run controller's phases on a fake clock: synchronized start, warm-up reset, windows, stop.
// The instances here have no threads: each completes one unit every `unit_nanos` of clock time
// since Start, recorded when the controller asks for a snapshot, so every figure is known exactly.
#include "driver/controller.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "base/clock.h"
#include "metrics/recorder.h"

namespace sb::driver {
namespace {

class ClockInstance final : public Instance {
 public:
  ClockInstance(std::string name, FakeClock& clock, int64_t unit_nanos)
      : name_(std::move(name)), clock_(clock), unit_nanos_(unit_nanos), recorder_(1, 1) {}

  const std::string& name() const override { return name_; }
  void Launch(RunSignals& signals) override {
    launched = true;
    signals_ = &signals;
  }
  Readiness Ready() const override {
    Readiness r;
    r.total = 2;  // two "workers"
    ++polls_;
    if (fail_to_start) {
      r.failed = 1;
      r.first_error = Status::FailedPrecondition("worker 1 could not connect");
      return r;
    }
    r.ready = polls_ > ready_after_polls ? 2 : 1;
    return r;
  }
  void OnStart(int64_t t0) override {
    start_nanos = t0;
    started = true;
    gate_at_start = signals_->gate.load();
  }
  std::vector<const metrics::Recorder*> Recorders() const override { return {&recorder_}; }
  void KeepSnapshots(SnapshotPoint point,
                     const std::vector<metrics::RecorderSnapshot>& per_worker) override {
    kept.push_back(point);
  }
  // Called before every sample's snapshot: the units due by now are recorded here.
  Activity Check() const override {
    CatchUp();
    Activity a;
    a.finished = finish_at_units > 0 && recorded_ >= finish_at_units;
    a.lagging = lag_at_units > 0 && recorded_ >= lag_at_units;
    return a;
  }
  // Paused (as DbInstance holds its workers) from its reading until AfterReset: no unit is due
  // meanwhile. `units_at_reading` is what the database would count at the reading.
  bool OnWarmupEnd() override {
    if (!pause_at_warmup_end) return false;
    CatchUp();
    held_since_ = clock_.NowNanos();
    clock_.Advance(250 * kNanosPerMilli);  // a reading that takes 250 ms
    units_at_reading = recorded_;
    return true;
  }
  void AfterReset() override {
    if (held_since_ < 0) return;
    held_nanos_ += clock_.NowNanos() - held_since_;
    held_since_ = -1;
  }
  // Records the units due by the clock (one per unit_nanos since Start, pauses left out).
  void CatchUp() const {
    if (!started || held_since_ >= 0) return;
    const int64_t due = (clock_.NowNanos() - start_nanos - held_nanos_) / unit_nanos_;
    for (; recorded_ < due; ++recorded_) recorder_.Record(0, 1000);
    if (stop_at_units > 0 && recorded_ >= stop_at_units && stop != nullptr) *stop = true;
  }
  void Join() override {
    joined = true;
    gate_at_join = signals_->gate.load();
  }

  // Test knobs and observations.
  int ready_after_polls = 0;
  bool fail_to_start = false;
  int64_t stop_at_units = 0;  // set *stop once this many units are recorded
  std::atomic<bool>* stop = nullptr;
  int64_t finish_at_units = 0;  // report finished once this many units are recorded
  int64_t lag_at_units = 0;     // report lagging (behind its open loop's schedule) from then
  bool pause_at_warmup_end = false;
  int64_t units_at_reading = -1;
  bool launched = false, started = false, joined = false;
  int gate_at_start = -1, gate_at_join = -1;
  int64_t start_nanos = -1;
  std::vector<SnapshotPoint> kept;  // the points KeepSnapshots was called for

 private:
  std::string name_;
  FakeClock& clock_;
  int64_t unit_nanos_;
  mutable metrics::Recorder recorder_;
  RunSignals* signals_ = nullptr;
  mutable int64_t recorded_ = 0;
  mutable int polls_ = 0;
  int64_t held_since_ = -1, held_nanos_ = 0;
};

constexpr int64_t kMs = kNanosPerMilli;
constexpr int64_t kSec = kNanosPerSecond;

uint64_t Units(const metrics::RecorderSnapshot& s) { return s.types[0].count(); }

TEST(ControllerTest, StartsEveryInstanceTogetherOnceAllAreReady) {
  FakeClock clock(5 * kSec);
  ClockInstance a("a", clock, 10 * kMs), b("b", clock, 10 * kMs);
  b.ready_after_polls = 30;  // b's second worker connects 30 polls (300 ms) later
  ControllerOptions o;
  o.run_nanos = 2 * kSec;
  o.system_cpu = false;
  int on_start_calls = 0;
  ControllerCallbacks cb;
  cb.on_start = [&] {
    ++on_start_calls;
    EXPECT_FALSE(a.started);  // before anyone starts
  };
  ControllerOutcome out = Controller(clock, o).Run({&a, &b}, cb);
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  EXPECT_EQ(on_start_calls, 1);
  EXPECT_EQ(a.start_nanos, b.start_nanos);
  EXPECT_EQ(out.t0, a.start_nanos);
  EXPECT_GE(out.t0, 5 * kSec + 300 * kMs);  // waited for b
  // The workers saw the gate closed at Start's call and ended at Join.
  EXPECT_EQ(a.gate_at_start, RunSignals::kWaiting);
  EXPECT_EQ(a.gate_at_join, RunSignals::kEnded);
  EXPECT_TRUE(a.joined && b.joined);
  // 2 s at one unit per 10 ms, for each instance separately.
  EXPECT_EQ(Units(out.at_end[0]), 200u);
  EXPECT_EQ(Units(out.at_end[1]), 200u);
  EXPECT_DOUBLE_EQ(out.measured_sec(), 2.0);
}

TEST(ControllerTest, WarmupResetSamplesOnTheBoundaryAndMeasuresAfterIt) {
  FakeClock clock(0);
  ClockInstance a("a", clock, 10 * kMs);
  ControllerOptions o;
  o.warmup_nanos = 2500 * kMs;
  o.run_nanos = 3 * kSec;
  o.system_cpu = false;
  std::vector<double> times;
  std::vector<bool> warm;
  std::vector<int64_t> ticks;
  std::vector<uint64_t> per_interval;
  int resets = 0;
  ControllerCallbacks cb;
  cb.on_sample = [&](const Sample& s) {
    times.push_back(s.t_sec);
    warm.push_back(s.warmup);
    ticks.push_back(s.tick);
    per_interval.push_back(Units((*s.interval)[0]));
  };
  cb.on_reset = [&](const std::vector<metrics::RecorderSnapshot>& at_reset, int64_t reset_at) {
    ++resets;
    EXPECT_EQ(Units(at_reset[0]), 250u);
  };
  ControllerOutcome out = Controller(clock, o).Run({&a}, cb);
  ASSERT_TRUE(out.status.ok());
  EXPECT_EQ(resets, 1);
  EXPECT_EQ(times, (std::vector<double>{1, 2, 2.5, 3, 4, 5, 5.5}));
  EXPECT_EQ(warm, (std::vector<bool>{true, true, true, false, false, false, false}));
  EXPECT_EQ(ticks, (std::vector<int64_t>{1, 2, 0, 3, 4, 5, 0}));
  EXPECT_EQ(per_interval, (std::vector<uint64_t>{100, 100, 50, 50, 100, 100, 50}));
  EXPECT_TRUE(out.warmed_up);
  EXPECT_EQ(out.reset_at - out.t0, 2500 * kMs);
  EXPECT_EQ(Units(out.at_reset[0]), 250u);
  EXPECT_EQ(Units(out.at_end[0]), 550u);
  EXPECT_DOUBLE_EQ(out.measured_sec(), 3.0);
  // The instance was given the reset's and the end's per-worker snapshots.
  EXPECT_EQ(a.kept, (std::vector<SnapshotPoint>{SnapshotPoint::kReset, SnapshotPoint::kEnd}));
}

// A real clock wakes a little after each deadline: the sample on the warm-up's end, 50 us late,
// is still the warm-up's (the reset comes with it), and the ones after it are measured.
class LateClock final : public Clock {
 public:
  explicit LateClock(FakeClock& inner) : inner_(inner) {}
  int64_t NowNanos() const override { return inner_.NowNanos(); }
  void SleepUntil(int64_t deadline_nanos) override {
    if (inner_.NowNanos() >= deadline_nanos) return;
    inner_.SleepUntil(deadline_nanos);
    inner_.Advance(50 * 1000);
  }

 private:
  FakeClock& inner_;
};

TEST(ControllerTest, ALateSampleOnTheWarmupsEndIsStillWarmup) {
  FakeClock fake(0);
  LateClock clock(fake);
  ClockInstance a("a", fake, 10 * kMs);
  ControllerOptions o;
  o.warmup_nanos = 2 * kSec;
  o.run_nanos = 2 * kSec;
  o.system_cpu = false;
  std::vector<bool> warm;
  ControllerCallbacks cb;
  cb.on_sample = [&](const Sample& s) { warm.push_back(s.warmup); };
  ControllerOutcome out = Controller(clock, o).Run({&a}, cb);
  ASSERT_TRUE(out.status.ok());
  ASSERT_GE(warm.size(), 4u);
  EXPECT_TRUE(warm[0]);
  EXPECT_TRUE(warm[1]);  // at 2 s + 50 us: the reset's sample
  for (size_t i = 2; i < warm.size(); ++i) EXPECT_FALSE(warm[i]) << i;
  EXPECT_GT(out.reset_at - out.t0, 2 * kSec);
}

TEST(ControllerTest, PausingInstanceGetsTheResetSnapshotAfterItsReading) {
  FakeClock clock(0);
  ClockInstance a("a", clock, 10 * kMs);
  a.pause_at_warmup_end = true;
  ControllerOptions o;
  o.warmup_nanos = 1 * kSec;
  o.run_nanos = 2 * kSec;
  o.system_cpu = false;
  ControllerOutcome out = Controller(clock, o).Run({&a}, {});
  ASSERT_TRUE(out.status.ok());
  // The 250 ms reading happened between the sample at 1 s and the reset, the workers held.
  EXPECT_EQ(out.reset_at - out.t0, 1250 * kMs);
  EXPECT_EQ(Units(out.at_reset[0]), 100u);
  // The pause is not taken out of the measured window: it is exactly the 2 s asked for.
  EXPECT_EQ(out.end_at - out.reset_at, 2 * kSec);
  EXPECT_DOUBLE_EQ(out.measured_sec(), 2.0);
  EXPECT_EQ(Units(out.at_end[0]) - Units(out.at_reset[0]), 200u);
}

// Several instances pausing for their readings: every one stays held until the common reset
// snapshot, so each instance's reset holds exactly the units its database had at its reading
// (an instance resumed before the others' readings ran units that the database counted after
// its reading and the client before the reset: false cross-check differences).
TEST(ControllerTest, EveryPausingInstanceIsHeldUntilTheCommonReset) {
  FakeClock clock(0);
  ClockInstance a("a", clock, 10 * kMs), b("b", clock, 10 * kMs), c("c", clock, 10 * kMs);
  for (ClockInstance* in : {&a, &b, &c}) in->pause_at_warmup_end = true;
  ControllerOptions o;
  o.warmup_nanos = 1 * kSec;
  o.run_nanos = 2 * kSec;
  o.system_cpu = false;
  ControllerOutcome out = Controller(clock, o).Run({&a, &b, &c}, {});
  ASSERT_TRUE(out.status.ok());
  EXPECT_EQ(out.reset_at - out.t0, 1750 * kMs);  // three readings of 250 ms
  int i = 0;
  for (ClockInstance* in : {&a, &b, &c}) {
    EXPECT_EQ(static_cast<int64_t>(Units(out.at_reset[i])), in->units_at_reading) << in->name();
    EXPECT_EQ(Units(out.at_end[i]) - Units(out.at_reset[i]), 200u) << in->name();
    ++i;
  }
}

TEST(ControllerTest, WindowsAreMeasuredFromStartAtTheirEdges) {
  FakeClock clock(0);
  ClockInstance a("a", clock, 20 * kMs), b("b", clock, 10 * kMs);
  ControllerOptions o;
  o.warmup_nanos = 1 * kSec;
  o.run_nanos = 5 * kSec;
  o.system_cpu = false;
  o.windows = {{"2s-4s", 2, 4}, {"5s-9s", 5, 9}};
  std::vector<std::pair<double, int>> edges;
  ControllerCallbacks cb;
  cb.on_sample = [&](const Sample& s) {
    for (int w : s.windows_started) edges.emplace_back(s.t_sec, w + 1);
    for (int w : s.windows_ended) edges.emplace_back(s.t_sec, -(w + 1));
  };
  ControllerOutcome out = Controller(clock, o).Run({&a, &b}, cb);
  ASSERT_TRUE(out.status.ok());
  ASSERT_EQ(out.windows.size(), 2u);
  EXPECT_TRUE(out.windows[0].complete);
  EXPECT_EQ(Units(out.windows[0].delta[0]), 100u);  // 2 s at 50/s
  EXPECT_EQ(Units(out.windows[0].delta[1]), 200u);  // 2 s at 100/s
  // The run ends at 6 s: the second window is cut short and says so.
  EXPECT_TRUE(out.windows[1].started);
  EXPECT_FALSE(out.windows[1].complete);
  EXPECT_EQ(out.windows[1].end_at - out.t0, 6 * kSec);
  EXPECT_EQ(Units(out.windows[1].delta[1]), 100u);
  EXPECT_EQ(edges, (std::vector<std::pair<double, int>>{{2, 1}, {4, -1}, {5, 2}}));
}

TEST(ControllerTest, AWindowFromStartCountsItsFirstSecond) {
  // A window from 0 s starts at Start, not at the first sample a second later: its figures
  // are the whole span's, as a window from 2 s has its own (a 0s-1s window once counted 0).
  FakeClock clock(0);
  ClockInstance a("a", clock, 10 * kMs);
  ControllerOptions o;
  o.run_nanos = 3 * kSec;
  o.system_cpu = false;
  o.windows = {{"0s-1s", 0, 1}, {"0s-3s", 0, 3}, {"1s-2s", 1, 2}};
  std::vector<std::pair<double, int>> edges;
  ControllerCallbacks cb;
  cb.on_sample = [&](const Sample& s) {
    for (int w : s.windows_started) edges.emplace_back(s.t_sec, w + 1);
  };
  ControllerOutcome out = Controller(clock, o).Run({&a}, cb);
  ASSERT_TRUE(out.status.ok());
  ASSERT_EQ(out.windows.size(), 3u);
  EXPECT_EQ(out.windows[0].start_at, out.t0);
  EXPECT_EQ(Units(out.windows[0].delta[0]), 100u);  // 1 s at 100/s
  EXPECT_EQ(Units(out.windows[1].delta[0]), 300u);  // 3 s
  EXPECT_EQ(Units(out.windows[2].delta[0]), 100u);
  // Reported started with the first sample, as every edge is.
  EXPECT_EQ(edges, (std::vector<std::pair<double, int>>{{1, 1}, {1, 2}, {1, 3}}));
}

TEST(ControllerTest, StopFlagEndsTheRunAtTheNextSampleAndMarksItInterrupted) {
  FakeClock clock(0);
  std::atomic<bool> stop{false};
  ClockInstance a("a", clock, 10 * kMs);
  a.stop_at_units = 300;  // the flag is raised during the 3 s sample
  a.stop = &stop;
  ControllerOptions o;
  o.run_nanos = 60 * kSec;
  o.stop = &stop;
  o.system_cpu = false;
  ControllerOutcome out = Controller(clock, o).Run({&a}, {});
  ASSERT_TRUE(out.status.ok());
  EXPECT_TRUE(out.interrupted);
  EXPECT_EQ(out.end_at - out.t0, 3 * kSec);  // seen before sleeping towards 4 s
  EXPECT_EQ(Units(out.at_end[0]), 300u);
}

TEST(ControllerTest, AFailedOutputEndsTheRunAtTheSampleThatSeesIt) {
  // An output written during the run (an op log on a full disk) fails during the third second:
  // the 3 s sample ends the run, which is not a signal's stop.
  FakeClock clock(0);
  ClockInstance a("a", clock, 10 * kMs);
  ControllerOptions o;
  o.run_nanos = 60 * kSec;
  o.system_cpu = false;
  ControllerCallbacks cb;
  int64_t t0 = -1;
  cb.on_start = [&] { t0 = clock.NowNanos(); };
  cb.output_error = [&] {
    return clock.NowNanos() - t0 > 2 * kSec ? Status::IoError("cannot write --op_log 'x'")
                                            : Status::Ok();
  };
  ControllerOutcome out = Controller(clock, o).Run({&a}, cb);
  ASSERT_TRUE(out.status.ok());
  EXPECT_EQ(out.output_error.message(), "cannot write --op_log 'x'");
  EXPECT_FALSE(out.interrupted);
  EXPECT_EQ(out.end_at - out.t0, 3 * kSec);
  EXPECT_EQ(Units(out.at_end[0]), 300u);
}

TEST(ControllerTest, RunEndsWhenEveryInstanceHasFinished) {
  FakeClock clock(0);
  ClockInstance a("a", clock, 10 * kMs), b("b", clock, 10 * kMs);
  a.finish_at_units = 150;
  b.finish_at_units = 350;
  ControllerOptions o;  // no duration: until finished
  o.system_cpu = false;
  ControllerOutcome out = Controller(clock, o).Run({&a, &b}, {});
  ASSERT_TRUE(out.status.ok());
  EXPECT_FALSE(out.interrupted);
  // a finished at 1.5 s and the others went on; b finished at 3.5 s, which ends the run then,
  // within a poll (100 ms) of its last unit: not at the 4 s sample, which a units-limited run
  // used to wait for with nothing to do.
  EXPECT_EQ(out.end_at - out.t0, 3500 * kMs);
  EXPECT_EQ(Units(out.at_end[1]), 350u);
}

TEST(ControllerTest, AShortUnitsLimitedRunEndsBeforeItsFirstTick) {
  // 20 units of 10 ms: the end sample at 0.2 s is the run's only one.
  FakeClock clock(0);
  ClockInstance a("a", clock, 10 * kMs);
  a.finish_at_units = 20;
  ControllerOptions o;
  o.system_cpu = false;
  std::vector<double> samples;
  ControllerCallbacks cb;
  cb.on_sample = [&](const Sample& s) { samples.push_back(s.t_sec); };
  ControllerOutcome out = Controller(clock, o).Run({&a}, cb);
  ASSERT_TRUE(out.status.ok());
  EXPECT_EQ(out.end_at - out.t0, 200 * kMs);
  EXPECT_EQ(samples, std::vector<double>{0.2});
}

TEST(ControllerTest, AnOpenLoopFallenBehindEndsTheRunWithinAPoll) {
  // Instance b's schedule falls more than max_lag behind at its 30th unit (0.3 s): the run of a
  // minute ends then, within a poll, not at the 1 s sample, and names b.
  FakeClock clock(0);
  ClockInstance a("a", clock, 10 * kMs), b("b", clock, 10 * kMs);
  b.lag_at_units = 30;
  ControllerOptions o;
  o.run_nanos = 60 * kSec;
  o.system_cpu = false;
  std::vector<double> samples;
  ControllerCallbacks cb;
  cb.on_sample = [&](const Sample& s) { samples.push_back(s.t_sec); };
  ControllerOutcome out = Controller(clock, o).Run({&a, &b}, cb);
  ASSERT_TRUE(out.status.ok());
  EXPECT_EQ(out.lagging_instance, 1);
  EXPECT_EQ(out.end_at - out.t0, 300 * kMs);
  EXPECT_EQ(samples, std::vector<double>{0.3});
}

TEST(ControllerTest, WithPerSecondMeasurementsBesideItAFinishedRunEndsOnItsTick) {
  // The same 20 units with power sampled beside the run (end_on_tick): the end sample waits
  // for the whole second, so the run's one second is complete for the power average.
  FakeClock clock(0);
  ClockInstance a("a", clock, 10 * kMs);
  a.finish_at_units = 20;
  ControllerOptions o;
  o.system_cpu = false;
  o.end_on_tick = true;
  std::vector<double> samples;
  ControllerCallbacks cb;
  cb.on_sample = [&](const Sample& s) { samples.push_back(s.t_sec); };
  ControllerOutcome out = Controller(clock, o).Run({&a}, cb);
  ASSERT_TRUE(out.status.ok());
  EXPECT_EQ(out.end_at - out.t0, kSec);
  EXPECT_EQ(samples, std::vector<double>{1.0});
}

TEST(ControllerTest, AnInstanceThatCannotStartStopsTheRunNamingIt) {
  FakeClock clock(0);
  ClockInstance a("ds3_1", clock, 10 * kMs), b("ds3_2", clock, 10 * kMs);
  b.fail_to_start = true;
  ControllerOptions o;
  o.run_nanos = kSec;
  o.system_cpu = false;
  ControllerOutcome out = Controller(clock, o).Run({&a, &b}, {});
  EXPECT_FALSE(out.status.ok());
  EXPECT_EQ(out.status.message(), "instance ds3_2: worker 1 could not connect");
  EXPECT_FALSE(a.started);
  EXPECT_TRUE(a.joined && b.joined);
}

TEST(ControllerTest, ConnectTimeoutCountsWorkersOfEveryInstance) {
  FakeClock clock(0);
  ClockInstance a("a", clock, 10 * kMs);
  a.ready_after_polls = 1 << 30;  // never
  ControllerOptions o;
  o.connect_timeout_nanos = 2 * kSec;
  o.system_cpu = false;
  ControllerOutcome out = Controller(clock, o).Run({&a}, {});
  EXPECT_FALSE(out.status.ok());
  EXPECT_EQ(out.status.message(), "only 1 of 2 threads connected within the timeout");
}

// Real writer threads record while the controller samples as fast as it can (the fake clock
// jumps to every tick): the intervals handed to on_sample, added up, must be exactly what the
// workers recorded, bucket for bucket, and so must the end's snapshot. A snapshot that lost or
// double-counted a sample (a short copy of a bucket range, a half batch, a subtraction over the
// wrong range) breaks the sum.
class ThreadInstance final : public Instance {
 public:
  static constexpr int kWorkers = 2;
  static constexpr int64_t kUnits = 100'000;
  // The unit's latency: it moves from the middle of the range to both ends, so the snapshots'
  // bucket ranges grow at the front and at the back while they are taken.
  static int64_t Latency(int64_t i) {
    const int64_t jitter = (i * 7919) % 1000;
    switch (i * 4 / kUnits) {
      case 0:
        return 400 * kMs / 1000 + jitter * 100;
      case 1:
        return 3'000 + jitter;
      case 2:
        return 80 * kMs + jitter * kMs;
      default:
        return (i * 2654435761) % (3 * kSec);
    }
  }

  ThreadInstance() {
    for (int w = 0; w < kWorkers; ++w)
      recorders_.push_back(std::make_unique<metrics::Recorder>(2, 1));
  }
  const std::string& name() const override { return name_; }
  void Launch(RunSignals& signals) override {
    for (int w = 0; w < kWorkers; ++w) {
      threads_.emplace_back([this, &signals, w] {
        if (!signals.WaitForStart()) return;
        metrics::Recorder& r = *recorders_[w];
        for (int64_t i = 0; i < kUnits; ++i) {
          if (i % (kUnits / 4) == 0) {
            // Two more samples before each change of range, so that some surely see the
            // narrower one.
            const int seen = samples.load();
            while (samples.load() < seen + 2 && !signals.Ended()) std::this_thread::yield();
          }
          r.BeginBatch();
          r.Record(0, Latency(i));
          r.Record(1, Latency(i) / 2);
          r.Add(0, 1);
          r.EndBatch();
        }
        finished_.fetch_add(1);
      });
    }
  }
  Readiness Ready() const override {
    Readiness r;
    // Ready at once: a thread only waits for Start (the fake clock's connect timeout passes in
    // no real time, before a thread might be scheduled).
    r.total = kWorkers;
    r.ready = kWorkers;
    return r;
  }
  std::vector<const metrics::Recorder*> Recorders() const override {
    std::vector<const metrics::Recorder*> out;
    for (const auto& r : recorders_) out.push_back(r.get());
    return out;
  }
  Activity Check() const override {
    Activity a;
    a.finished = finished_.load() == kWorkers;
    return a;
  }
  void Join() override {
    for (std::thread& t : threads_) t.join();
  }

  std::atomic<int> samples{0};  // counted by the test's on_sample

 private:
  std::string name_ = "threads";
  std::vector<std::unique_ptr<metrics::Recorder>> recorders_;
  std::vector<std::thread> threads_;
  std::atomic<int> finished_{0};
};

TEST(ControllerTest, IntervalsOfEverySampleAddUpToExactlyWhatTheWorkersRecorded) {
  FakeClock clock(0);
  ThreadInstance a;
  ControllerOptions o;  // no duration: until the workers have finished
  o.system_cpu = false;
  metrics::RecorderSnapshot total;
  ControllerCallbacks cb;
  cb.on_sample = [&](const Sample& s) {
    const metrics::RecorderSnapshot& interval = (*s.interval)[0];
    // Whole units only: every unit's latency comes with its step and its counter.
    EXPECT_EQ(interval.types[0].count(), interval.types[1].count());
    EXPECT_EQ(static_cast<int64_t>(interval.types[0].count()), interval.counters[0]);
    total.Merge(interval);
    a.samples.fetch_add(1);
  };
  ControllerOutcome out = Controller(clock, o).Run({&a}, cb);
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  EXPECT_GE(a.samples.load(), 8);  // the workers waited for them

  metrics::Histogram units, steps;
  for (int w = 0; w < ThreadInstance::kWorkers; ++w) {
    for (int64_t i = 0; i < ThreadInstance::kUnits; ++i) {
      units.Record(ThreadInstance::Latency(i));
      steps.Record(ThreadInstance::Latency(i) / 2);
    }
  }
  ASSERT_EQ(total.types.size(), 2u);
  for (const metrics::RecorderSnapshot* s : {&total, &out.at_end[0]}) {
    for (const auto& [got, want] : {std::pair{&s->types[0], &units}, {&s->types[1], &steps}}) {
      EXPECT_EQ(got->count(), want->count());
      EXPECT_EQ(got->sum(), want->sum());
      for (size_t b = 0; b < metrics::Histogram::kNumBuckets; ++b) {
        ASSERT_EQ(got->bucket_count(b), want->bucket_count(b)) << "bucket " << b;
      }
    }
    EXPECT_EQ(s->counters[0], ThreadInstance::kWorkers * ThreadInstance::kUnits);
  }
}

}  // namespace
}  // namespace sb::driver
