// When each unit of work starts: the driver's two loop models.
//
// Closed loop (DVD Store's model, the default): a worker starts its next unit when the previous
// one ends plus a think time. When the server stalls, the worker simply sends less, so the
// stall's cost to the requests that would have been sent is invisible (coordinated omission).
//
// Open loop (--rate): units are scheduled at a fixed aggregate rate regardless of how fast they
// complete. Each unit's latency is measured from its *intended* start, so a stall shows up in the
// latency of every unit scheduled during it; the schedule lag (actual − intended start) is
// recorded separately.
#ifndef STOREBENCH_DRIVER_PACER_H_
#define STOREBENCH_DRIVER_PACER_H_

#include <cstdint>
#include <memory>
#include <string>

#include "base/random.h"

namespace sb::driver {

enum class Arrival { kConstant, kPoisson };

class Pacer {
 public:
  virtual ~Pacer() = default;
  // The intended start of the next unit. `now` is the time the previous unit ended (or the run
  // started). Called by one worker thread only.
  virtual int64_t NextIntendedStart(int64_t now) = 0;
  virtual bool open_loop() const = 0;
  // True when every unit is due as soon as the previous one ends (a closed loop without think
  // time): NextIntendedStart(now) is always `now`, and the worker need not call it.
  virtual bool due_at_once() const { return false; }
  // The terminal the next unit runs for (specification-style driving, driver/terminals.h), or
  // -1.
  virtual int64_t terminal() const { return -1; }
  // Terminals: how long the terminal of the next unit had already been due when this worker
  // took it (it waited for a free worker, i.e. for a connection); 0 otherwise.
  virtual int64_t queued_nanos() const { return 0; }
};

// Closed loop: next start = previous end + a think time drawn as DVD Store draws it.
std::unique_ptr<Pacer> NewClosedLoopPacer(double think_time_sec, uint64_t seed);

// Open loop for one of `workers` workers sharing an aggregate `rate_per_sec`: each worker keeps
// its own schedule at rate/workers, starting at `start_nanos` with a per-worker phase offset so
// the workers' arrivals interleave evenly. Poisson arrivals draw exponential gaps.
std::unique_ptr<Pacer> NewOpenLoopPacer(double rate_per_sec, int workers, int worker,
                                        Arrival arrival, int64_t start_nanos, uint64_t seed);

}  // namespace sb::driver

#endif  // STOREBENCH_DRIVER_PACER_H_
