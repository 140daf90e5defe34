// Timing and progress of a workload's load (the driver is the only layer that reads the clock).
#ifndef STOREBENCH_DRIVER_LOAD_H_
#define STOREBENCH_DRIVER_LOAD_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <map>

#include "base/clock.h"
#include "metrics/load_meter.h"
#include "storebench/db.h"
#include "storebench/workload.h"

namespace sb::driver {

struct LoadOutcome {
  Status status;
  int64_t rows = 0;
  int64_t bytes = 0;  // row text sent (metrics::TableProgress::bytes), 0 if not metered
  double seconds = 0;
};

// Turns a meter's counts into samples with rates over the last few seconds and an ETA; once the
// data is in and the workload has declared index steps, samples of the index phase with each
// running step's time and an ETA from the steps' weights. Plain arithmetic on the times it is
// given, so it can be tested without a clock.
class LoadProgressTracker {
 public:
  explicit LoadProgressTracker(int64_t start_nanos, int64_t rate_window_nanos = 5'000'000'000);
  metrics::LoadSample Sample(const metrics::LoadMeter& meter, int64_t now_nanos);

 private:
  void SampleIndexPhase(const metrics::LoadMeter& meter, int64_t now_nanos, metrics::LoadSample* s);
  struct Point {
    int64_t nanos, rows, bytes;
  };
  int64_t start_;
  int64_t window_;
  std::deque<Point> history_;  // oldest first; the first point is at or before the window
  int64_t index_start_ = -1;   // when the first sample of the index phase was taken
  std::map<int, int64_t> step_seen_running_;  // step -> first sample that saw it running
};

struct LoadProgress {
  int64_t interval_nanos = 1'000'000'000;
  // Called from a driver thread every interval while rows are loading, once when the data is in
  // (sample.data_done without index_phase), then every interval during the index phase
  // (sample.index_phase) when the workload meters one. May be empty: no progress.
  std::function<void(const metrics::LoadSample&)> on_sample;
};

LoadOutcome RunLoad(workload::Workload& workload, db::DbBackend& backend, workload::LoadContext ctx,
                    Clock& clock, const LoadProgress& progress = {});

}  // namespace sb::driver

#endif  // STOREBENCH_DRIVER_LOAD_H_
