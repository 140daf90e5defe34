#include "driver/pacer.h"

#include <cmath>

#include "base/clock.h"

namespace sb::driver {

int64_t DrawThinkTimeNanos(Random& rng, double think_time_sec);  // runner.h

namespace {

class ClosedLoopPacer final : public Pacer {
 public:
  ClosedLoopPacer(double think, uint64_t seed)
      : think_(think), thinks_(std::floor(1000 * think) > 0), rng_(seed) {}
  // Without think time (DrawThinkTimeNanos would return 0 without drawing) the next unit is due
  // at once: no floating-point work per unit.
  int64_t NextIntendedStart(int64_t now) override {
    return thinks_ ? now + DrawThinkTimeNanos(rng_, think_) : now;
  }
  bool open_loop() const override { return false; }
  bool due_at_once() const override { return !thinks_; }

 private:
  double think_;
  bool thinks_;
  Random rng_;
};

class OpenLoopPacer final : public Pacer {
 public:
  OpenLoopPacer(double rate, int workers, int worker, Arrival arrival, int64_t start, uint64_t seed)
      : mean_gap_(1e9 * workers / rate), arrival_(arrival), rng_(seed) {
    // Stagger the workers' constant schedules by 1/rate so the aggregate is evenly spaced.
    next_ =
        static_cast<double>(start) + (arrival == Arrival::kConstant ? 1e9 / rate * worker : Gap());
  }
  int64_t NextIntendedStart(int64_t /*now*/) override {
    // The schedule never waits for the system: it is a pure function of the start and the gaps.
    const auto at = static_cast<int64_t>(next_);
    next_ += Gap();
    return at;
  }
  bool open_loop() const override { return true; }

 private:
  double Gap() {
    if (arrival_ == Arrival::kConstant) return mean_gap_;
    // Exponential gap by inversion; 1 − U is in (0, 1], so the log is finite.
    return -std::log(1.0 - rng_.NextDouble()) * mean_gap_;
  }
  double mean_gap_;
  Arrival arrival_;
  Random rng_;
  double next_;
};

}  // namespace

std::unique_ptr<Pacer> NewClosedLoopPacer(double think_time_sec, uint64_t seed) {
  return std::make_unique<ClosedLoopPacer>(think_time_sec, seed);
}

std::unique_ptr<Pacer> NewOpenLoopPacer(double rate_per_sec, int workers, int worker,
                                        Arrival arrival, int64_t start_nanos, uint64_t seed) {
  return std::make_unique<OpenLoopPacer>(rate_per_sec, workers, worker, arrival, start_nanos, seed);
}

}  // namespace sb::driver
