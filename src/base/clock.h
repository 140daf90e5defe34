// Time sources. Only the driver reads a clock for measurement; everything takes a Clock& so
// tests can run the driver on FakeClock.
#ifndef STOREBENCH_BASE_CLOCK_H_
#define STOREBENCH_BASE_CLOCK_H_

#include <atomic>
#include <cstdint>
#include <ctime>
#include <string>

namespace sb {

constexpr int64_t kNanosPerMicro = 1000;
constexpr int64_t kNanosPerMilli = int64_t{1000} * 1000;
constexpr int64_t kNanosPerSecond = int64_t{1000} * 1000 * 1000;

class Clock {
 public:
  virtual ~Clock() = default;
  // Monotonic nanoseconds since an arbitrary origin. Thread-safe.
  virtual int64_t NowNanos() const = 0;
  // Sleeps until NowNanos() >= deadline (returns at once if it already is).
  virtual void SleepUntil(int64_t deadline_nanos) = 0;
  void SleepFor(int64_t nanos) { SleepUntil(NowNanos() + nanos); }
  // True when NowNanos() is MonotonicNanos(): a caller that reads the clock per operation may
  // then call MonotonicNanos() itself, inline, instead of through the virtual call.
  virtual bool is_monotonic() const { return false; }
};

// CLOCK_MONOTONIC, the clock std::chrono::steady_clock reads on Linux, read directly and inline:
// a timed step reads it twice (callgrind, docs/driver-cost.md).
inline int64_t MonotonicNanos() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * kNanosPerSecond + ts.tv_nsec;
}

// std::chrono::steady_clock's source (MonotonicNanos). Never jumps with wall-clock changes.
class SteadyClock final : public Clock {
 public:
  int64_t NowNanos() const override { return MonotonicNanos(); }
  bool is_monotonic() const override { return true; }
  void SleepUntil(int64_t deadline_nanos) override;
};

// A clock that only moves when told to, or when someone sleeps on it (the sleeper advances it to
// its deadline, so single-threaded tests of paced loops run instantly and deterministically).
class FakeClock final : public Clock {
 public:
  explicit FakeClock(int64_t start_nanos = 0) : now_(start_nanos) {}
  int64_t NowNanos() const override { return now_.load(std::memory_order_acquire); }
  void SleepUntil(int64_t deadline_nanos) override;
  void Advance(int64_t nanos) { now_.fetch_add(nanos, std::memory_order_acq_rel); }

 private:
  std::atomic<int64_t> now_;
};

// Wall-clock helpers for labels in output (never for measurement).
// "2026-11-30T09:28:33.123Z"
std::string WallClockIsoUtc();
// The same for the instant `nanos` before now (a steady-clock instant read back on the wall
// clock: now minus how long ago it was).
std::string WallClockIsoUtcAgo(int64_t nanos);
// "2026-11-30 09:28:33" local time; with `compact` "20261130-092833" (for file names).
std::string WallClockLocal(bool compact = false);
// Iometer's results-file time stamp, local time with milliseconds after a colon:
// "2026-11-30 09:28:33:123" (Iometer 1.1.0, PageSetup.cpp and ManagerList.cpp, SaveResults).
std::string WallClockIometer();
// DVD Store's LOCAL prefix format "MM/dd/yyyy h:mm:ss tt".
std::string WallClockDotNetLocal();

}  // namespace sb

#endif  // STOREBENCH_BASE_CLOCK_H_
