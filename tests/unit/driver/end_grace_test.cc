// The run's end (DbInstance::InterruptStalled, docs/measurement.md#stalled-workers): units still
// in flight are waited for while the server answers others, and are cut only once nothing has
// answered for the end's grace. Real threads and the steady clock: the units below sleep for
// whole seconds, far from the rule's edges either way.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "backend/db/null/null_backend.h"
#include "base/clock.h"
#include "driver/runner.h"
#include "storebench/workload.h"

namespace sb::driver {
namespace {

// Each worker's first unit waits `first_unit_ms[worker]` (a statement waiting on a lock), its
// later ones return at once.
class WaitingWorkload final : public workload::Workload {
 public:
  explicit WaitingWorkload(std::vector<int> first_unit_ms) : first_unit_ms_(first_unit_ms) {
    shape_.unit_name = "op";
    shape_.headline_name = "ops_per_minute";
    shape_.headlines = {metrics::UnitsPerMinute("ops_per_minute", "operations per minute")};
    shape_.step_types = {"wait"};
  }
  std::string name() const override { return "waiting"; }
  const workload::Shape& shape() const override { return shape_; }
  void DeclareOptions(config::OptionSet*) const override {}
  Status Configure(const config::OptionSet&) override { return Status::Ok(); }
  std::map<std::string, std::string> Choices() const override { return {}; }
  Status Load(db::DbBackend&, const workload::LoadContext&) override { return Status::Ok(); }
  Status CheckReady(db::Connection&) override { return Status::Ok(); }
  Result<std::unique_ptr<workload::Session>> NewSession(std::unique_ptr<db::Connection>, uint64_t,
                                                        int worker) override {
    return std::unique_ptr<workload::Session>(new WaitingSession(first_unit_ms_.at(worker)));
  }
  Result<std::map<std::string, int64_t>> Snapshot(db::Connection&) override {
    return std::map<std::string, int64_t>{};
  }
  Result<std::vector<workload::Check>> Verify(db::Connection&,
                                              const std::map<std::string, int64_t>&,
                                              const workload::Totals*) override {
    return std::vector<workload::Check>{};
  }
  std::vector<std::pair<std::string, double>> Figures(const workload::Totals&,
                                                      const workload::Totals&,
                                                      const workload::WindowFacts&) const override {
    return {};
  }

 private:
  class WaitingSession final : public workload::Session {
   public:
    explicit WaitingSession(int ms) : ms_(ms) {}
    Status RunUnit(workload::OpContext&) override {
      std::this_thread::sleep_for(std::chrono::milliseconds(ms_));
      ms_ = 0;
      return Status::Ok();
    }

   private:
    int ms_;
  };

  std::vector<int> first_unit_ms_;
  workload::Shape shape_;
};

RunOutcome RunWaiting(std::vector<int> first_unit_ms) {
  WaitingWorkload workload(first_unit_ms);
  auto backend = db::OpenNull(db::DbUrl(), db::BackendOptions()).value();
  DbInstanceSpec spec;
  spec.name = "w";
  spec.workload = &workload;
  spec.backend = backend.get();
  spec.options.threads = static_cast<int>(first_unit_ms.size());
  spec.options.units_per_thread = 2;
  spec.options.ramp_rate = 0;
  spec.options.seed = 1;
  RunOptions common;
  common.run_nanos = kNanosPerSecond;
  common.log_freq_sec = 0;
  SteadyClock clock;
  Runner runner(clock);
  return runner.RunMany({spec}, common, {});
}

TEST(EndGraceTest, UnitsAnsweredOneAfterAnotherAfterTheEndAreNoStall) {
  // The run ends at 1 s; the grace is 5 s (no unit took longer before). Worker 0's unit returns
  // at 3.5 s, worker 1's at 7 s: 6 s after the end, but 3.5 s after the server last answered.
  // Cut at 5 s, its statement would have been one the server ran and the client never counted.
  RunOutcome out = RunWaiting({3500, 7000});
  EXPECT_TRUE(out.status.ok()) << out.status.message();
  EXPECT_EQ(out.result.workers_stalled, 0);
}

}  // namespace
}  // namespace sb::driver
