// A worker that lost its connection (driver/worker.h, RunUnits) tries to reconnect after 100 ms,
// doubling the wait up to 1 s, so it is back within a second of the server
// (docs/measurement.md, "Errors, retries, reconnects").
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "base/clock.h"
#include "driver/pacer.h"
#include "driver/worker.h"

namespace sb::driver {
namespace {

// The first unit loses its connection; the next ends the run.
class LosingSession final : public workload::Session {
 public:
  LosingSession(RunSignals& signals, bool lose) : signals_(signals), lose_(lose) {}
  Status RunUnit(workload::OpContext&) override {
    if (lose_) return Status::Db(ErrorCategory::kConnectionLost, "server closed the connection");
    signals_.gate.store(RunSignals::kEnded);
    return Status::Ok();
  }

 private:
  RunSignals& signals_;
  bool lose_;
};

TEST(ReconnectBackoffTest, WaitsDoubleFrom100MsUpToOneSecond) {
  Layout layout;
  layout.steps = 1;
  layout.unit_name = "unit";
  RunSignals signals;
  signals.gate.store(RunSignals::kStarted);
  Worker w(0, layout, 1);
  w.session = std::make_unique<LosingSession>(signals, true);
  FakeClock clock;
  // The server refuses 8 tries, then answers; each try's instant on the worker's clock.
  std::vector<int64_t> tries;
  w.reconnect = [&]() -> Result<std::unique_ptr<workload::Session>> {
    tries.push_back(clock.NowNanos());
    if (tries.size() <= 8) return Status::Db(ErrorCategory::kConnectionLost, "refused");
    return std::unique_ptr<workload::Session>(std::make_unique<LosingSession>(signals, false));
  };
  w.pacer = NewClosedLoopPacer(0, 1);
  LoopLimits limits;
  RunUnits(w, layout, limits, clock, signals, nullptr);
  ASSERT_EQ(tries.size(), 9u);
  std::vector<int64_t> waits_ms;
  for (size_t i = 1; i < tries.size(); ++i) {
    waits_ms.push_back((tries[i] - tries[i - 1]) / 1'000'000);
  }
  EXPECT_EQ(waits_ms, (std::vector<int64_t>{100, 200, 400, 800, 1000, 1000, 1000, 1000}));
  metrics::RecorderSnapshot snap;
  w.recorder.Snapshot(&snap);
  EXPECT_EQ(snap.counters[layout.reconnects()], 1);
}

}  // namespace
}  // namespace sb::driver
