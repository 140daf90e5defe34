// The one run loop of storebench: drives any number of instances (driver/instance.h), database
// workloads and storage workloads alike, through common phases:
//
//   launch (every instance connects / opens its targets) → Start (all at once)
//   → warm-up (DVD Store's warmup_time, Iometer's ramp) → reset → measure → end → join.
//
// Once per tick (1 s, from Start) it snapshots every instance's recorders and hands the
// cumulative snapshots and the interval's difference to the caller, who turns them into time
// series, status lines and live outputs. Samples also fall on the warm-up's end and the run's
// end when those are not whole ticks, so no interval straddles a phase boundary. Reporting
// windows are measured from Start; the controller keeps each window's snapshots at its edges.
// Stop conditions (duration, signal, every instance finished, an open loop too far behind) live
// here and nowhere else.
#ifndef STOREBENCH_DRIVER_CONTROLLER_H_
#define STOREBENCH_DRIVER_CONTROLLER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "driver/instance.h"
#include "driver/peer_group.h"
#include "driver/proc_net.h"
#include "driver/proc_stat.h"
#include "metrics/recorder.h"
#include "metrics/windows.h"
#include "storebench/status.h"

namespace sb::driver {

struct ControllerOptions {
  int64_t warmup_nanos = 0;  // the reset happens when it has elapsed (0: no warm-up)
  int64_t run_nanos = 0;     // measured time after warm-up; 0 = until stopped or finished
  int64_t connect_timeout_nanos = 60 * kNanosPerSecond;
  int64_t tick_nanos = kNanosPerSecond;
  // Reporting windows, measured from Start (each label once).
  std::vector<metrics::WindowSpec> windows;
  // Set by a signal handler: end the run early (the instances' workers see it too).
  const std::atomic<bool>* stop = nullptr;
  // Whether to read /proc/stat, /proc/net/dev and /proc/net/snmp at the reset and the end
  // (system CPU and network over the measured window).
  bool system_cpu = true;
  // Run the controller thread at real-time priority (SCHED_FIFO 1) while it drives the run,
  // when the process may (root or CAP_SYS_NICE); otherwise as it is. With many busy workers on
  // few cores (1,000 null-engine workers on 2 cores) a normal thread gets a slice only every
  // second or so, and its samples, the run's end and a stop come late by tens of seconds; the
  // controller sleeps between samples, so it takes little CPU either way.
  bool realtime = false;
  // The other processes of a scaled-out run (driver/peer_group.h), or null for a run of one
  // process (then nothing below changes). With peers, the start is a barrier, the end and the
  // warm-up pause are agreed, and on the coordinator every snapshot is the merge of all
  // processes' (so callbacks and the outcome show the whole run).
  PeerGroup* peers = nullptr;
  // Whether a run whose every instance has finished (units done, or every worker failed) still
  // ends on the next whole tick rather than within a poll: measurements taken beside the run
  // each second (power: a window's average is the mean of its complete seconds) need the run's
  // seconds whole; without them a sub-second units-limited run would have no power at all.
  bool end_on_tick = false;
};

// One sample, handed to ControllerCallbacks::on_sample. Snapshots are per instance.
struct Sample {
  int64_t tick = 0;       // whole ticks since Start; 0 for a sample on a phase boundary
  int64_t now = 0;        // clock nanos
  double t_sec = 0;       // seconds since Start
  bool warmup = false;    // the interval ending here belongs to warm-up
  bool finished = false;  // the run ends with this sample
  // The run's planned end (clock nanos; INT64_MAX without a run time): set again at the reset.
  int64_t end_at = INT64_MAX;
  const std::vector<metrics::RecorderSnapshot>* cumulative = nullptr;
  const std::vector<metrics::RecorderSnapshot>* interval = nullptr;  // since the previous sample
  // The reset so far (Start until the warm-up ends; a reset at this sample comes after it).
  const std::vector<metrics::RecorderSnapshot>* at_reset = nullptr;
  int64_t t0 = 0, reset_at = 0;      // clock nanos
  std::vector<int> windows_started;  // indexes into ControllerOptions::windows
  std::vector<int> windows_ended;
};

struct ControllerCallbacks {
  // Every instance is ready; called just before Start (the DVD Store controller line).
  std::function<void()> on_start;
  // After every sample, on the controller thread; keep it short.
  std::function<void(const Sample&)> on_sample;
  // After the warm-up reset (DVD Store's "Stats reset"), with the reset's snapshots and instant.
  std::function<void(const std::vector<metrics::RecorderSnapshot>& at_reset, int64_t reset_at)>
      on_reset;
  // Asked at every sample: an output written during the run (an op log, a status CSV) that
  // could not be written, a full disk. An error ends the run at that sample, as its end would
  // (not as a signal: the outcome is not interrupted), and is the outcome's output_error.
  std::function<Status()> output_error;
};

// A window's measurement: the snapshots at its edges, per instance.
struct WindowMeasure {
  metrics::WindowSpec spec;
  bool started = false;
  bool complete = false;             // the run covered the whole window
  int64_t start_at = 0, end_at = 0;  // clock nanos of the edges (end: the run's end if cut short)
  std::vector<metrics::RecorderSnapshot> delta;  // per instance: end − start
};

struct ControllerOutcome {
  // Non-OK: the run could not start (the instance and worker are named) or was stopped before
  // Start. When it is OK the run happened, possibly cut short (interrupted, lagging, failed).
  Status status;
  bool interrupted = false;   // stopped by the stop flag before the planned end
  bool warmed_up = false;     // the warm-up ended (or there was none); false: reset_at is Start
  int lagging_instance = -1;  // an open-loop instance fell behind: the run stopped (its index)
  Status output_error;        // the run stopped on ControllerCallbacks::output_error
  int64_t t0 = 0;             // Start
  int64_t reset_at = 0;       // the warm-up reset (t0 without warm-up)
  int64_t end_at = 0;         // the last sample
  // Per instance: at the reset, at the last sample, and after every worker ended (wind-down
  // included).
  std::vector<metrics::RecorderSnapshot> at_reset, at_end, after_join;
  std::vector<WindowMeasure> windows;  // parallel to ControllerOptions::windows
  double process_cpu_sec = 0;          // this process's user + system CPU from the reset to the end
  bool realtime = false;               // the controller thread ran at real-time priority
  // Units the watchdog ended because a server did not answer (Instance::InterruptStalled).
  int stalled_units = 0;
  // From the launch until every worker of every instance was connected (the connect phase;
  // Swingbench's TotalLogonTime); 0 when the run never started.
  int64_t connect_nanos = 0;
  ProcStat system_at_reset, system_at_end;  // /proc/stat (when system_cpu)
  ProcNet net_at_reset, net_at_end;         // /proc/net/dev and snmp (when system_cpu)

  double measured_sec() const { return static_cast<double>(end_at - reset_at) / 1e9; }
};

class Controller {
 public:
  Controller(Clock& clock, ControllerOptions options)
      : clock_(clock), options_(std::move(options)) {}

  // Runs every instance to the end. Launches them, waits until all are ready (or one fails, or
  // the connect timeout passes), starts them together, samples, and joins them.
  ControllerOutcome Run(const std::vector<Instance*>& instances, const ControllerCallbacks& cb);

 private:
  Clock& clock_;
  ControllerOptions options_;
};

}  // namespace sb::driver

#endif  // STOREBENCH_DRIVER_CONTROLLER_H_
