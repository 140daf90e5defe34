// System-wide CPU time and interrupt counters from /proc/stat, sampled by the driver around a
// measured window (Iometer's Linux dynamo reads the same file).
#ifndef STOREBENCH_DRIVER_PROC_STAT_H_
#define STOREBENCH_DRIVER_PROC_STAT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "metrics/storage_result.h"

namespace sb::driver {

struct ProcStat {
  uint64_t user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
  uint64_t interrupts = 0;
  int cpus = 0;
  bool ok = false;
  // Each "cpuN" line's times, in N order (their `interrupts` stay 0: /proc/stat counts
  // interrupts for the whole system only).
  std::vector<ProcStat> per_cpu;
};

// Parses /proc/stat text (the aggregate "cpu" line, the "cpuN" lines and "intr").
ProcStat ParseProcStat(const std::string& text);
ProcStat ReadProcStat();
// Usage between two samples over `seconds`.
metrics::CpuUsage CpuBetween(const ProcStat& a, const ProcStat& b, double seconds);
// CpuBetween for each CPU that both samples list (Iometer's PROCESSOR rows); interrupts 0.
std::vector<metrics::CpuUsage> PerCpuBetween(const ProcStat& a, const ProcStat& b, double seconds);
// user + system CPU seconds of this process.
double ProcessCpuSeconds();

}  // namespace sb::driver

#endif  // STOREBENCH_DRIVER_PROC_STAT_H_
