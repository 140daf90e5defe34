// The power sampler: reads every source once a second beside a run, each on a thread of its own,
// so a slow or silent source (a BMC taking a second to answer, a PTDaemon that stopped) never
// delays the workload, the run controller or the other sources. Readings are timed on the
// controller's clock, on one grid of ticks shared by every source (tick k at start + k s), so the
// seconds of all sources line up and sum. A tick a source did not fill (an error, an answer later
// than the next tick) is a missing second, recorded with the reason; sampling goes on.
//
// Logs imported after the run (csv:) are read at Stop and placed on the same grid through the
// wall-clock instant recorded at Start.
//
// Usage (the CLI layer owns it): Start() before the run, Mark() at phase changes (cheap, never
// blocks: the source's thread sends it), Stop() after, then Recording() for the result.
#ifndef STOREBENCH_POWER_SAMPLER_H_
#define STOREBENCH_POWER_SAMPLER_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "storebench/power_source.h"

namespace sb::power {

// What a sampler recorded (plain data; power/summary.h turns it into the result).
struct SourceRecording {
  std::string spec, description;
  PowerCapabilities caps;
  // Per tick: the watts (NaN: missing) — parallel to PowerRecording::tick_at.
  std::vector<double> watts;
  // Distinct errors in order of first appearance, with counts.
  std::vector<std::pair<std::string, int64_t>> errors;
  std::vector<double> clock_offsets_sec;  // of readings that carried a time
};

struct PowerRecording {
  int64_t period_nanos = kNanosPerSecond;
  std::vector<int64_t> tick_at;  // clock nanos of every tick
  std::vector<SourceRecording> sources;
  std::vector<std::pair<int64_t, std::string>> marks;  // clock nanos, mark
};

class PowerSampler {
 public:
  PowerSampler(Clock& clock, std::vector<std::unique_ptr<PowerSource>> sources,
               int64_t period_nanos = kNanosPerSecond);
  ~PowerSampler();  // NOLINT(bugprone-exception-escape): stops sampling (joins the threads)
  PowerSampler(const PowerSampler&) = delete;
  PowerSampler& operator=(const PowerSampler&) = delete;

  // Starts a thread per live source; its first reading is now. Sends no mark.
  void Start();
  // Queues `mark` for every source that takes marks; returns at once.
  void Mark(const std::string& mark);
  // Stops sampling (the tick in progress is the last), joins, closes every source, imports logs.
  void Stop();
  // Call after Stop.
  PowerRecording Recording() const;
  // While sampling: the last tick every live source has finished (read or given up on), with
  // each source's watts there (NaN: missing; non-live sources always NaN); -1 when none yet.
  int64_t Latest(std::vector<double>* watts) const;
  size_t size() const { return sources_.size(); }

 private:
  struct Slot;
  void Loop(Slot* slot);
  void Record(Slot* slot, int64_t tick, const Result<PowerReading>& r);
  void ImportLog(Slot* slot);

  Clock& clock_;
  int64_t period_;
  std::vector<std::unique_ptr<Slot>> sources_;
  int64_t start_at_ = 0;
  double start_unix_ = 0;  // the wall clock at start_at_
  int64_t ticks_ = 0;      // ticks elapsed at Stop
  std::mutex mu_;
  mutable std::mutex rec_mu_;  // guards every slot's recording while sampling
  std::condition_variable cv_;
  bool stop_ = false;
  std::atomic<bool> stopping_{false};  // stop_, readable without mu_
  bool started_ = false, stopped_ = false;
  std::vector<std::pair<int64_t, std::string>> marks_;  // guarded by mu_
};

}  // namespace sb::power

#endif  // STOREBENCH_POWER_SAMPLER_H_
