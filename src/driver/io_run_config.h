// The settings of a storage test (storebench io run), shared by the runner and its instances.
#ifndef STOREBENCH_DRIVER_IO_RUN_CONFIG_H_
#define STOREBENCH_DRIVER_IO_RUN_CONFIG_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "driver/peer_group.h"
#include "metrics/live_totals.h"
#include "metrics/run_result.h"
#include "metrics/windows.h"
#include "workload/storage/test_file.h"

namespace sb::driver {

// A target and its test range (absolute offset and length in bytes).
struct IoTarget {
  std::string path;
  uint64_t range_start = 0;
  uint64_t range_bytes = 0;
  // Its extent count (filefrag's) when the run started, -1 when it has none (a block device, a
  // file system without FIEMAP: `extents_note` says which), and its file system type.
  int64_t extents = -1;
  std::string extents_note;
  std::string filesystem;
};

struct IoRunConfig {
  std::string engine = "io_uring";
  int workers = 1;
  int outstanding = 1;   // per worker and target
  int submit_batch = 1;  // I/Os per submit call; 0 = every free slot in one call
  // Open loop (--rate): I/Os start on a schedule at this aggregate rate (per second, over every
  // worker and target), each I/O's latency measured from its scheduled start, so time spent
  // waiting for a free slot counts; 0 = closed loop (Iometer: a new I/O as soon as one ends).
  double rate_iops = 0;
  bool poisson = false;                          // exponential gaps instead of even ones
  int64_t max_lag_nanos = 10 * kNanosPerSecond;  // stop when the schedule falls this far behind
  bool direct = true;
  bool allow_write = false;  // the caller checked the safety rules
  std::vector<IoTarget> targets;
  storage::DataPattern pattern = storage::DataPattern::kFullRandom;
  int64_t ramp_nanos = 0;
  int64_t run_nanos = 0;  // > 0
  uint64_t seed = 1;
  const std::atomic<bool>* stop = nullptr;  // set by a signal handler: end the test early
  PeerGroup* peers = nullptr;  // a scaled-out run's other processes (peer_group.h), or null
  // A test that finishes early still ends on a whole second (ControllerOptions::end_on_tick):
  // set when power is sampled beside it.
  bool end_on_tick = false;
  // Reporting windows and pass/fail rules, from each test's start (metrics/windows.h).
  std::vector<metrics::WindowSpec> windows;
  std::vector<metrics::BaselineRule> baselines;
  // After every sample: the test's series so far (types io, read, write; counters read_bytes,
  // write_bytes) and its running figures since the end of the ramp. On the controller thread.
  std::function<void(const metrics::TimeSeries&, const metrics::StatusFigures&)> on_interval;
  // After every sample, when set: the test's totals since its Start (read and write latency,
  // bytes and errors; spec: the specification's name), for the live endpoint. `spec_index` is
  // RunStorageTest's. On the controller thread.
  std::function<void(int spec_index, const metrics::LiveTotals&)> on_live_totals;
  // After the test ran: its Start, ramp end and last sample on the runner's clock (nanos), for
  // measurements taken beside it on the same clock (power).
  std::function<void(int64_t t0, int64_t reset_at, int64_t end_at)> on_times;
};

}  // namespace sb::driver

#endif  // STOREBENCH_DRIVER_IO_RUN_CONFIG_H_
