#include "report/files/storage_report.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "base/strings.h"
#include "report/files/instance_series_csv.h"

namespace sb::report {
namespace {

std::string Fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

std::string F(double v) { return Fmt("%.6f", v); }

// Iometer 1.1.0 replaces commas, newlines and carriage returns in a target's name with spaces so
// the CSV stays rectangular (Worker.cpp, Worker::SaveResults); access specification names cannot
// hold commas there, so storebench treats them the same way.
std::string Cell(std::string s) {
  for (char& c : s) {
    if (c == ',' || c == '\n' || c == '\r') c = ' ';
  }
  return s;
}

// The value of a setting that every worker or target shares, or Iometer's AMBIGUOUS_VALUE (-1)
// when they differ (Manager.cpp/Worker.cpp: GetDiskStart, GetDiskSize, GetQueueDepth).
std::string Common(const std::vector<uint64_t>& values) {
  if (values.empty()) return "-1";
  for (uint64_t v : values) {
    if (v != values[0]) return "-1";
  }
  return std::to_string(values[0]);
}

// storebench's timer counts nanoseconds: the raw time columns are ns and "Processor Speed",
// Iometer's timer resolution in ticks per second, is 10^9 (raw / speed = seconds, as in
// Iometer).
constexpr const char* kTimerResolution = "1000000000";

// Iometer 1.1.0 writes no connection-rate test for disk workers: "Transactions per Connection"
// is AMBIGUOUS_VALUE, -1, on every row (GetConnectionRate is not ENABLED).
constexpr const char* kNoConnectionRate = "-1";

// Columns 7..35 (rates, averages, maxima in ms with 6 decimals as Iometer's fixed
// setprecision(6); errors, bytes and counts as integers) and 36.
void AddFigures(std::vector<std::string>* r, const metrics::IoCounts& c, double sec) {
  auto per = [&](double n) { return sec > 0 ? n / sec : 0.0; };
  auto avg_ms = [](int64_t sum, uint64_t n) {
    return n > 0 ? static_cast<double>(sum) / static_cast<double>(n) / 1e6 : 0.0;
  };
  const double mib = 1048576.0, mb = 1e6;
  const uint64_t ios = c.ios();
  const int64_t max_all = std::max(c.read_latency_max_ns, c.write_latency_max_ns);
  const double iops = per(static_cast<double>(ios));
  for (double v : {iops,
                   per(static_cast<double>(c.read_ios)),
                   per(static_cast<double>(c.write_ios)),
                   per(static_cast<double>(c.bytes())) / mib,
                   per(static_cast<double>(c.read_bytes)) / mib,
                   per(static_cast<double>(c.write_bytes)) / mib,
                   per(static_cast<double>(c.bytes())) / mb,
                   per(static_cast<double>(c.read_bytes)) / mb,
                   per(static_cast<double>(c.write_bytes)) / mb,
                   iops /* transactions per second: one I/O per transaction */,
                   0.0,
                   avg_ms(c.read_latency_sum_ns + c.write_latency_sum_ns, ios),
                   avg_ms(c.read_latency_sum_ns, c.read_ios),
                   avg_ms(c.write_latency_sum_ns, c.write_ios),
                   avg_ms(c.read_latency_sum_ns + c.write_latency_sum_ns, ios),
                   0.0,
                   static_cast<double>(max_all) / 1e6,
                   static_cast<double>(c.read_latency_max_ns) / 1e6,
                   static_cast<double>(c.write_latency_max_ns) / 1e6,
                   static_cast<double>(max_all) / 1e6,
                   0.0}) {
    r->push_back(F(v));
  }
  for (uint64_t v : {c.read_errors + c.write_errors, c.read_errors, c.write_errors, c.read_bytes,
                     c.write_bytes, c.read_ios, c.write_ios, uint64_t{0}}) {
    r->push_back(std::to_string(v));
  }
  r->push_back(kNoConnectionRate);
}

// Columns 37..45: the raw accumulators in timer ticks (ns) and the run time.
void AddRaw(std::vector<std::string>* r, const metrics::IoCounts& c, double sec) {
  const int64_t max_all = std::max(c.read_latency_max_ns, c.write_latency_max_ns);
  for (int64_t v :
       {c.read_latency_sum_ns, c.write_latency_sum_ns,
        c.read_latency_sum_ns + c.write_latency_sum_ns, int64_t{0}, c.read_latency_max_ns,
        c.write_latency_max_ns, max_all, int64_t{0}, static_cast<int64_t>(sec * 1e9)}) {
    r->push_back(std::to_string(v));
  }
}

// Columns 49..53: % CPU Utilization, % User Time, % Privileged Time, % DPC Time, % Interrupt
// Time. Linux has no DPCs (0); privileged time is system + irq + softirq + steal, interrupt time
// irq + softirq (both part of privileged time), as Iometer's Linux dynamo reads /proc/stat.
void AddCpu(std::vector<std::string>* r, const metrics::CpuUsage& cpu) {
  r->push_back(F(cpu.utilization_pct));
  r->push_back(F(cpu.user_pct));
  r->push_back(F(cpu.system_pct + cpu.irq_pct + cpu.softirq_pct + cpu.steal_pct));
  r->push_back(F(0));
  r->push_back(F(cpu.irq_pct + cpu.softirq_pct));
}

void AddBlank(std::vector<std::string>* r, int n) {
  for (int i = 0; i < n; ++i) r->push_back("");
}

// Columns 57..59 of ALL and MANAGER: Packets/Second, Packet Errors, Segments
// Retransmitted/Second, each a rate over the measured window with Iometer's six decimals
// (Manager.cpp, Manager::SaveResults: NI_COMBINE_RESULTS then TCP_RESULTS of ni_statistics and
// tcp_statistics; ManagerList.cpp, ManagerList::SaveResults the same, summed over managers).
// A file that could not be read leaves its columns empty rather than a zero.
void AddNet(std::vector<std::string>* r, const metrics::NetUsage& net) {
  r->push_back(net.interfaces ? F(net.packets_per_sec) : "");
  r->push_back(net.interfaces ? F(net.packet_errors_per_sec) : "");
  r->push_back(net.tcp ? F(net.retransmitted_segments_per_sec) : "");
}

// Columns 60..80: the 21 latency bins, written on ALL, MANAGER, WORKER and DISK rows
// (ManagerList.cpp, Manager.cpp, Worker.cpp: LATENCY_BIN_SIZE values of raw.latency_bin).
void AddBins(std::vector<std::string>* r, const metrics::IoCounts& c) {
  for (uint64_t b : c.latency_bins) r->push_back(std::to_string(b));
}

// The rows of one test, each type laid out as Iometer 1.1.0 writes it (ManagerList.cpp,
// Manager.cpp and Worker.cpp, SaveResults): 80 fields on ALL, MANAGER, WORKER and DISK rows,
// 59 on PROCESSOR rows.
std::vector<std::vector<std::string>> ResultRows(const metrics::StorageTest& t,
                                                 const std::string& host) {
  std::vector<std::vector<std::string>> rows;
  const int disks = static_cast<int>(t.targets.size());
  const double sec = t.measured_sec;
  std::vector<uint64_t> starts, sizes;
  for (const metrics::StorageTarget& target : t.targets) {
    starts.push_back(target.range_start_bytes / 512);
    sizes.push_back(target.range_bytes / 512);
  }
  // Every worker runs every target with the same outstanding I/Os, so the per-target queue
  // depth is common to all rows (Iometer: GetQueueDepth, "# of outstanding IOs" per target).
  const std::string qd = std::to_string(t.outstanding);
  const double cpu_effectiveness = t.cpu.utilization_pct > 0 ? t.Iops() / t.cpu.utilization_pct : 0;

  // ALL: counts in 4-6, no raw columns, Processor Speed empty, latency bins at the end.
  std::vector<std::string> all = {"ALL",
                                  "All",
                                  Cell(t.name),
                                  "1",
                                  std::to_string(t.workers),
                                  std::to_string(t.workers * disks)};
  AddFigures(&all, t.totals, sec);
  AddBlank(&all, 9);
  all.insert(all.end(), {Common(starts), Common(sizes), qd});
  AddCpu(&all, t.cpu);
  all.emplace_back("");
  all.push_back(F(t.cpu.interrupts_per_sec));
  all.push_back(F(cpu_effectiveness));
  AddNet(&all, t.net);
  AddBins(&all, t.totals);
  rows.push_back(std::move(all));

  // MANAGER: "# Managers" empty, raw columns, Processor Speed, latency bins.
  std::vector<std::string> mgr = {"MANAGER",
                                  Cell(host),
                                  Cell(t.name),
                                  "",
                                  std::to_string(t.workers),
                                  std::to_string(t.workers * disks)};
  AddFigures(&mgr, t.totals, sec);
  AddRaw(&mgr, t.totals, sec);
  mgr.insert(mgr.end(), {Common(starts), Common(sizes), qd});
  AddCpu(&mgr, t.cpu);
  mgr.emplace_back(kTimerResolution);
  mgr.push_back(F(t.cpu.interrupts_per_sec));
  mgr.push_back(F(cpu_effectiveness));
  AddNet(&mgr, t.net);
  AddBins(&mgr, t.totals);
  rows.push_back(std::move(mgr));

  // PROCESSOR, one per CPU: the name and 46 empty fields, so each CPU's figures stand under
  // "% CPU Utilization" (column 49) as in the other rows (Manager.cpp, Manager::SaveResults,
  // 1.1.0 GA; 1.1.0 RC1 wrote 43 and shifted them under "Starting Sector", the bug its
  // changelog fixes). No latency bins: Iometer writes none on these rows.
  for (size_t cpu = 0; cpu < t.per_cpu.size(); ++cpu) {
    std::vector<std::string> p = {"PROCESSOR", "CPU " + std::to_string(cpu)};
    AddBlank(&p, 46);
    AddCpu(&p, t.per_cpu[cpu]);
    p.emplace_back(kTimerResolution);
    p.emplace_back("");  // interrupts per second: /proc/stat counts them for the system only
    p.emplace_back("");  // CPU effectiveness: no I/Os per processor
    AddBlank(&p, 3);
    rows.push_back(std::move(p));
  }

  for (size_t w = 0; w < t.per_worker.size(); ++w) {
    // WORKER: 4-5 empty, 6 its targets; raw columns; CPU columns empty but Processor Speed.
    std::vector<std::string> wr = {
        "WORKER", "Worker " + std::to_string(w + 1), Cell(t.name), "", "", std::to_string(disks)};
    AddFigures(&wr, t.per_worker[w], sec);
    AddRaw(&wr, t.per_worker[w], sec);
    wr.insert(wr.end(), {Common(starts), Common(sizes), qd});
    AddBlank(&wr, 5);
    wr.emplace_back(kTimerResolution);
    AddBlank(&wr, 5);
    AddBins(&wr, t.per_worker[w]);
    rows.push_back(std::move(wr));
    // DISK: 3-6 empty; the target's own figures, raw columns and latency bins (Iometer repeats
    // its worker's raw columns and bins here: docs/fidelity.md#iometer); Starting Sector and
    // Maximum Size are the worker's, as Worker::SaveResults writes GetDiskStart/GetDiskSize of
    // the worker on each of its DISK rows (-1 when the worker's targets differ).
    for (size_t d = 0; d < t.targets.size() && w < t.per_worker_target.size(); ++d) {
      const metrics::IoCounts& c = t.per_worker_target[w][d];
      std::vector<std::string> dr = {"DISK", Cell(t.targets[d].path), "", "", "", ""};
      AddFigures(&dr, c, sec);
      AddRaw(&dr, c, sec);
      dr.insert(dr.end(), {Common(starts), Common(sizes), qd});
      AddBlank(&dr, 5);
      dr.emplace_back(kTimerResolution);
      AddBlank(&dr, 5);
      AddBins(&dr, c);
      rows.push_back(std::move(dr));
    }
  }
  return rows;
}

std::string Join(const std::vector<std::string>& cells) {
  std::string s;
  for (size_t i = 0; i < cells.size(); ++i) s += (i ? "," : "") + cells[i];
  return s;
}

}  // namespace

std::string FormatStorageTable(const std::vector<metrics::StorageTest>& tests) {
  std::string out;
  char line[256];
  std::snprintf(line, sizeof line, "%-30s %18s %14s %12s %12s\n", "Test name", "Av. Resp. Time ms",
                "Av. IOs/sec", "Av. MB/sec", "CPU util. %");
  out += line;
  for (const auto& t : tests) {
    std::snprintf(line, sizeof line, "%-30s %18.3f %14.1f %12.2f %12.1f\n",
                  EscapeForTerminal(t.name).c_str(), t.AvgResponseMs(), t.Iops(), t.MibPerSec(),
                  t.cpu.utilization_pct);
    out += line;
  }
  return out;
}

std::string FormatStorageDetails(const metrics::StorageTest& t) {
  char b[1024];
  const auto& c = t.totals;
  std::snprintf(
      b, sizeof b,
      "%s: %.1f s, %llu I/Os (%llu read, %llu write), %llu errors\n"
      "  read  %.1f IOPS %.2f MiB/s  avg %.3f ms  p50 %.3f  p99 %.3f  p99.9 %.3f  max %.3f ms\n"
      "  write %.1f IOPS %.2f MiB/s  avg %.3f ms  p50 %.3f  p99 %.3f  p99.9 %.3f  max %.3f ms\n"
      "  all   p90 %.3f  p99.99 %.3f ms\n"
      "  CPU (guest-visible, %d CPUs) %.1f %%: user %.1f, system %.1f, irq %.1f, softirq %.1f, "
      "steal %.1f, iowait %.1f; %.0f interrupts/s; storebench %.2f us CPU per I/O\n",
      EscapeForTerminal(t.name).c_str(), t.measured_sec, static_cast<unsigned long long>(c.ios()),
      static_cast<unsigned long long>(c.read_ios), static_cast<unsigned long long>(c.write_ios),
      static_cast<unsigned long long>(c.read_errors + c.write_errors), t.ReadIops(),
      t.measured_sec > 0 ? static_cast<double>(c.read_bytes) / t.measured_sec / 1048576.0 : 0,
      c.read_ios
          ? static_cast<double>(c.read_latency_sum_ns) / static_cast<double>(c.read_ios) / 1e6
          : 0,
      t.read_p50_ms, t.read_p99_ms, t.read_p999_ms,
      static_cast<double>(c.read_latency_max_ns) / 1e6, t.WriteIops(),
      t.measured_sec > 0 ? static_cast<double>(c.write_bytes) / t.measured_sec / 1048576.0 : 0,
      c.write_ios
          ? static_cast<double>(c.write_latency_sum_ns) / static_cast<double>(c.write_ios) / 1e6
          : 0,
      t.write_p50_ms, t.write_p99_ms, t.write_p999_ms,
      static_cast<double>(c.write_latency_max_ns) / 1e6, t.all_p90_ms, t.all_p9999_ms, t.cpu.cpus,
      t.cpu.utilization_pct, t.cpu.user_pct, t.cpu.system_pct, t.cpu.irq_pct, t.cpu.softirq_pct,
      t.cpu.steal_pct, t.cpu.iowait_pct, t.cpu.interrupts_per_sec, t.DriverCpuUsPerIo());
  std::string out = b;
  if (t.targets.size() > 1) {
    const std::vector<metrics::IoCounts> per = t.PerTarget();
    for (size_t i = 0; i < per.size(); ++i) {
      const metrics::IoCounts& p = per[i];
      const double sec = t.measured_sec;
      std::snprintf(
          b, sizeof b,
          "  target %s: %llu I/Os (%llu read, %llu write), %.1f IOPS, %.2f MiB/s, avg "
          "%.3f ms, %llu errors\n",
          EscapeForTerminal(t.targets[i].path).c_str(), static_cast<unsigned long long>(p.ios()),
          static_cast<unsigned long long>(p.read_ios), static_cast<unsigned long long>(p.write_ios),
          sec > 0 ? static_cast<double>(p.ios()) / sec : 0,
          sec > 0 ? static_cast<double>(p.bytes()) / sec / 1048576.0 : 0,
          p.ios() > 0 ? static_cast<double>(p.read_latency_sum_ns + p.write_latency_sum_ns) /
                            static_cast<double>(p.ios()) / 1e6
                      : 0,
          static_cast<unsigned long long>(p.read_errors + p.write_errors));
      out += b;
    }
  }
  return out;
}

std::vector<std::string> IometerResultColumns() {
  std::vector<std::string> c = {"Target Type",
                                "Target Name",
                                "Access Specification Name",
                                "# Managers",
                                "# Workers",
                                "# Disks",
                                "IOps",
                                "Read IOps",
                                "Write IOps",
                                "MiBps (Binary)",
                                "Read MiBps (Binary)",
                                "Write MiBps (Binary)",
                                "MBps (Decimal)",
                                "Read MBps (Decimal)",
                                "Write MBps (Decimal)",
                                "Transactions per Second",
                                "Connections per Second",
                                "Average Response Time",
                                "Average Read Response Time",
                                "Average Write Response Time",
                                "Average Transaction Time",
                                "Average Connection Time",
                                "Maximum Response Time",
                                "Maximum Read Response Time",
                                "Maximum Write Response Time",
                                "Maximum Transaction Time",
                                "Maximum Connection Time",
                                "Errors",
                                "Read Errors",
                                "Write Errors",
                                "Bytes Read",
                                "Bytes Written",
                                "Read I/Os",
                                "Write I/Os",
                                "Connections",
                                "Transactions per Connection",
                                "Total Raw Read Response Time",
                                "Total Raw Write Response Time",
                                "Total Raw Transaction Time",
                                "Total Raw Connection Time",
                                "Maximum Raw Read Response Time",
                                "Maximum Raw Write Response Time",
                                "Maximum Raw Transaction Time",
                                "Maximum Raw Connection Time",
                                "Total Raw Run Time",
                                "Starting Sector",
                                "Maximum Size",
                                "Queue Depth",
                                "% CPU Utilization",
                                "% User Time",
                                "% Privileged Time",
                                "% DPC Time",
                                "% Interrupt Time",
                                "Processor Speed",
                                "Interrupts per Second",
                                "CPU Effectiveness",
                                "Packets/Second",
                                "Packet Errors",
                                "Segments Retransmitted/Second"};
  for (const char* n : metrics::IometerBinNames()) c.push_back(n);
  // Iometer 1.1.0's header has ", >= 10 s": the last title begins with a space.
  c.back() = " " + c.back();
  return c;
}

std::string IometerResultsCsv(const std::vector<metrics::StorageTest>& tests,
                              const std::string& description, const std::string& host,
                              const std::string& start_stamp,
                              const std::vector<std::string>& end_stamps) {
  // Iometer 1.1.0: the test setup and one time stamp when the run starts (PageSetup.cpp,
  // CPageSetup::SaveResults), then per test the active access specifications
  // (AccessSpecList::SaveResults) and, after the test, its results and a time stamp
  // (ManagerList::SaveResults); 'End Test when all tests are done.
  std::ostringstream o;
  o << "'Test Type,Test Description\n0," << Cell(description) << "\n";
  o << "'Version\n1.1.0\n";
  o << "'Time Stamp\n" << start_stamp << "\n";
  for (size_t i = 0; i < tests.size(); ++i) {
    const auto& t = tests[i];
    // The default assignment is written as Iometer's number (0: none), and each line of the
    // specification ends with a comma, as 1.1.0's AccessSpecList::SaveResults writes them.
    o << "'Access specifications\n'Access specification name,default assignment\n"
      << Cell(t.name) << ",0\n'size,% of size,% reads,% random,delay,burst,align,reply\n";
    for (const auto& l : t.spec_lines) o << l << ",\n";
    o << "'End access specifications\n";
    o << "'Results\n'" << Join(IometerResultColumns()) << "\n";
    for (const auto& row : ResultRows(t, host)) o << Join(row) << "\n";
    o << "'Time Stamp\n" << (i < end_stamps.size() ? end_stamps[i] : "") << "\n";
  }
  o << "'End Test\n";
  return o.str();
}

std::string StorageSeriesCsv(const std::vector<metrics::StorageTest>& tests,
                             const metrics::PowerResult* power,
                             const std::vector<double>& offsets_sec) {
  const bool with_power = power != nullptr && power->present();
  std::ostringstream o;
  o << "test,t_sec,phase,read_ios,write_ios,read_bytes,write_bytes,iops,mib_per_sec,mean_ms,p99_ms,"
       "max_ms"
    << (with_power ? PowerCsvHeader(*power) : "") << "\n";
  for (size_t i = 0; i < tests.size(); ++i) {
    const auto& t = tests[i];
    const double shift = i < offsets_sec.size() ? offsets_sec[i] : 0;
    double prev = 0;
    for (const auto& p : t.series) {
      const double dt = p.t_sec - prev > 0 ? p.t_sec - prev : 1;
      o << Cell(t.name) << "," << F(p.t_sec) << "," << p.phase << "," << p.read_ios << ","
        << p.write_ios << "," << p.read_bytes << "," << p.write_bytes << ","
        << F(static_cast<double>(p.read_ios + p.write_ios) / dt) << ","
        << F(static_cast<double>(p.read_bytes + p.write_bytes) / dt / 1048576.0) << ","
        << F(p.mean_ms) << "," << F(p.p99_ms) << "," << F(p.max_ms)
        << (with_power ? PowerCsvFields(*power, shift + prev, shift + p.t_sec) : "") << "\n";
      prev = p.t_sec;
    }
  }
  return o.str();
}

}  // namespace sb::report
