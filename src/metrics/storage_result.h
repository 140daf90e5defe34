// Plain result data of storage tests (storebench io run): one StorageTest per access
// specification, as Iometer runs each specification as a separate test. Counts are kept raw
// (like Iometer's "Raw" columns) so every derived figure — IOPS, MiB/s, averages, the Iometer
// 'Results CSV — can be rebuilt from them.
#ifndef STOREBENCH_METRICS_STORAGE_RESULT_H_
#define STOREBENCH_METRICS_STORAGE_RESULT_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "metrics/histogram.h"
#include "metrics/window_result.h"

namespace sb::metrics {

// Iometer 1.1.0's 21 latency bins (IOCommon.h LATENCY_BIN_SIZE): upper bounds in µs of the
// first 20 bins; the last bin is ">= 10 s".
inline constexpr std::array<double, 20> kIometerBinUpperUs = {
    50,    100,   200,    500,    1000,   2000,    5000,    10000,   15000,   20000,
    30000, 50000, 100000, 200000, 500000, 1000000, 2000000, 4700000, 5000000, 10000000};
inline constexpr size_t kIometerBins = 21;
// Column titles of the bins, as in Iometer's results file ("0 to 50 uS", ...).
const std::array<const char*, kIometerBins>& IometerBinNames();
// Counts of a histogram's values per Iometer bin. A histogram bucket is assigned by its
// midpoint, so a value within 0.4 % of a bin edge may land in the neighbouring bin.
std::array<uint64_t, kIometerBins> IometerLatencyBins(const Histogram& h);

struct IoCounts {
  uint64_t read_ios = 0, write_ios = 0;
  uint64_t read_bytes = 0, write_bytes = 0;
  uint64_t read_errors = 0, write_errors = 0;
  int64_t read_latency_sum_ns = 0, write_latency_sum_ns = 0;
  int64_t read_latency_max_ns = 0, write_latency_max_ns = 0;
  std::array<uint64_t, kIometerBins> latency_bins{};

  uint64_t ios() const { return read_ios + write_ios; }
  uint64_t bytes() const { return read_bytes + write_bytes; }
  void Add(const IoCounts& o);
};

// System-wide CPU over the measured window, from /proc/stat (percent of all CPUs). Inside a
// virtual machine these are the guest's view: hypervisor work is missing and `steal_pct` shows
// time the host gave to others.
struct CpuUsage {
  int cpus = 0;
  double utilization_pct = 0;  // non-idle: user + system + irq + softirq + steal
  double user_pct = 0, system_pct = 0, irq_pct = 0, softirq_pct = 0, steal_pct = 0, iowait_pct = 0;
  double interrupts_per_sec = 0;
};

// System-wide network rates over the measured window, from /proc/net/dev (every interface,
// the loopback included) and /proc/net/snmp: Iometer's Packets/Second, Packet Errors (errors
// per second, receive and transmit) and Segments Retransmitted/Second. `interfaces` and `tcp`
// say whether each file was read at both ends. Not in the result JSON.
struct NetUsage {
  bool interfaces = false, tcp = false;
  double packets_per_sec = 0, packet_errors_per_sec = 0, retransmitted_segments_per_sec = 0;
};

// One second of a storage test (end of interval, seconds since the test started).
struct StorageInterval {
  double t_sec = 0;
  std::string phase;  // "ramp" or "measure"
  uint64_t read_ios = 0, write_ios = 0, read_bytes = 0, write_bytes = 0;
  double mean_ms = 0, p99_ms = 0, max_ms = 0;
};

// A target of every worker: a test file or device and its test range.
struct StorageTarget {
  std::string path;
  uint64_t range_start_bytes = 0;  // absolute offset of the test range in the target
  uint64_t range_bytes = 0;
  // Extent count (physically contiguous runs, as filefrag counts) when the test started; -1 when
  // the target has none, `extents_note` saying why (block device, no FIEMAP).
  int64_t extents = -1;
  std::string extents_note;
  std::string filesystem;  // "ext4", "xfs", ... ("" unknown)
};

struct StorageTest {
  std::string name;  // access specification name
  std::vector<std::string>
      spec_lines;  // ICF form "size,% of size,% reads,% random,delay,burst,align,reply"
  std::vector<StorageTarget>
      targets;  // every worker runs on all of them (Iometer workers × targets)
  std::string engine;
  int workers = 1;
  int outstanding = 1;   // per worker and target
  int submit_batch = 1;  // I/Os per submit call (0 = every free slot at once)
  bool direct = true;
  std::string data_pattern;
  double ramp_sec = 0;
  double measured_sec = 0;
  bool interrupted = false;
  // Open loop (io run --rate): the requested I/Os per second (0: closed loop) and their
  // arrivals ("constant" or "poisson"). Response times then run from each I/O's scheduled start.
  double rate_iops = 0;
  std::string arrival;
  // Why the test stopped before its planned end other than a signal (the open loop fell too far
  // behind its schedule), or "".
  std::string stopped;

  IoCounts totals;
  std::vector<IoCounts> per_worker;                      // summed over the worker's targets
  std::vector<std::vector<IoCounts>> per_worker_target;  // [worker][target]
  // Summed over the workers, one per target.
  std::vector<IoCounts> PerTarget() const;
  // Percentiles from the log-linear histogram (≤ 0.4 % error), in ms.
  double read_p50_ms = 0, read_p99_ms = 0, read_p999_ms = 0;
  double write_p50_ms = 0, write_p99_ms = 0, write_p999_ms = 0;
  double all_p50_ms = 0, all_p90_ms = 0, all_p99_ms = 0, all_p999_ms = 0, all_p9999_ms = 0;
  CpuUsage cpu;
  // Each CPU's usage over the measured window (Iometer's PROCESSOR rows; interrupts not per
  // CPU). Not in the result JSON.
  std::vector<CpuUsage> per_cpu;
  NetUsage net;
  double driver_cpu_sec = 0;  // storebench's own user + system CPU, measured window
  std::vector<StorageInterval> series;
  // Reporting windows and baselines over this test (from its start, like the series), with the
  // storage headline metrics iops, read_iops, write_iops, mib_per_sec; latency is of all I/Os.
  std::vector<WindowResult> windows;
  std::vector<BaselineResult> baselines;

  // Derived figures (Iometer's definitions: MB = MiB for the binary columns).
  double Iops() const { return Per(totals.ios()); }
  double ReadIops() const { return Per(totals.read_ios); }
  double WriteIops() const { return Per(totals.write_ios); }
  double MibPerSec() const { return Per(totals.bytes()) / 1048576.0; }
  double AvgResponseMs() const;
  double DriverCpuUsPerIo() const;

 private:
  double Per(uint64_t n) const {
    return measured_sec > 0 ? static_cast<double>(n) / measured_sec : 0;
  }
};

}  // namespace sb::metrics

#endif  // STOREBENCH_METRICS_STORAGE_RESULT_H_
