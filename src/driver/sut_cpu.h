// The system under test's CPU, sampled once a second beside a run: the local host's /proc/stat,
// or a remote Linux host's through a command the user gives (e.g. "ssh db1 cat /proc/stat").
// The probe samples on its own thread, so a slow command never delays the controller's tick; a
// command that has not answered in 5 s is given up (the second is missing from the series).
#ifndef STOREBENCH_DRIVER_SUT_CPU_H_
#define STOREBENCH_DRIVER_SUT_CPU_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "driver/proc_stat.h"
#include "metrics/run_result.h"

namespace sb::driver {

class SutCpuProbe {
 public:
  // `command` empty: the local /proc/stat. Else a shell command printing /proc/stat's text.
  // `period_nanos`: the time between readings (a run's is a second; tests take a shorter one).
  SutCpuProbe(Clock& clock, std::string command, int64_t period_nanos = kNanosPerSecond);
  ~SutCpuProbe();

  // Starts sampling now and then every period, until Stop.
  void Start();
  void Stop();
  // "local /proc/stat" or "command: <command>".
  std::string Source() const;
  // The per-interval utilization between consecutive readings, with times in seconds from `t0`
  // (clock nanos, e.g. the run's Start); readings that failed are skipped (the interval then
  // spans them). The first failure's reason goes to *error.
  std::vector<metrics::CpuPoint> Points(int64_t t0, std::string* error) const;

 private:
  void Loop();
  ProcStat ReadOnce(std::string* error) const;

  Clock& clock_;
  std::string command_;
  int64_t period_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::vector<std::pair<int64_t, ProcStat>> readings_;  // guarded by mu_
  std::string first_error_;                             // guarded by mu_
  std::thread thread_;
};

}  // namespace sb::driver

#endif  // STOREBENCH_DRIVER_SUT_CPU_H_
