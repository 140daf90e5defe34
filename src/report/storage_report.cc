#include "report/storage_report.h"

#include <cstdio>
#include <sstream>

#include "base/strings.h"
#include "report/instance_series_csv.h"

namespace sb::report {
namespace {

std::string Fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

std::string F(double v) { return Fmt("%.6f", v); }

// Iometer's names contain no commas; replace any so the CSV stays rectangular.
std::string Cell(std::string s) {
  for (char& c : s) {
    if (c == ',') c = ';';
  }
  return s;
}

struct RowFigures {
  const metrics::IoCounts* c;
  double sec;
};

// Columns 7..45 and 60..80 from counts; CPU columns 49..56 only when `cpu` is given.
std::vector<std::string> Row(const std::string& type, const std::string& name,
                             const std::string& spec, int managers, int workers, int disks,
                             const metrics::IoCounts& c, double sec,
                             const metrics::CpuUsage* cpu, const std::string& start_sector,
                             const std::string& max_size, const std::string& qd) {
  auto per = [&](double n) { return sec > 0 ? n / sec : 0.0; };
  auto avg_ms = [](int64_t sum, uint64_t n) {
    return n > 0 ? static_cast<double>(sum) / static_cast<double>(n) / 1e6 : 0.0;
  };
  const double mib = 1048576.0, mb = 1e6;
  const uint64_t ios = c.ios();
  const int64_t max_all = std::max(c.read_latency_max_ns, c.write_latency_max_ns);
  std::vector<std::string> r = {type, Cell(name), Cell(spec), std::to_string(managers),
                                std::to_string(workers), std::to_string(disks)};
  const double iops = per(static_cast<double>(ios));
  for (double v : {iops, per(static_cast<double>(c.read_ios)), per(static_cast<double>(c.write_ios)),
                   per(static_cast<double>(c.bytes())) / mib, per(static_cast<double>(c.read_bytes)) / mib,
                   per(static_cast<double>(c.write_bytes)) / mib, per(static_cast<double>(c.bytes())) / mb,
                   per(static_cast<double>(c.read_bytes)) / mb, per(static_cast<double>(c.write_bytes)) / mb,
                   iops /* transactions per second: one I/O per transaction */, 0.0,
                   avg_ms(c.read_latency_sum_ns + c.write_latency_sum_ns, ios),
                   avg_ms(c.read_latency_sum_ns, c.read_ios), avg_ms(c.write_latency_sum_ns, c.write_ios),
                   avg_ms(c.read_latency_sum_ns + c.write_latency_sum_ns, ios), 0.0,
                   static_cast<double>(max_all) / 1e6, static_cast<double>(c.read_latency_max_ns) / 1e6,
                   static_cast<double>(c.write_latency_max_ns) / 1e6, static_cast<double>(max_all) / 1e6,
                   0.0}) {
    r.push_back(F(v));
  }
  for (uint64_t v : {c.read_errors + c.write_errors, c.read_errors, c.write_errors, c.read_bytes,
                     c.write_bytes, c.read_ios, c.write_ios, uint64_t{0}, uint64_t{0}}) {
    r.push_back(std::to_string(v));
  }
  for (int64_t v : {c.read_latency_sum_ns, c.write_latency_sum_ns,
                    c.read_latency_sum_ns + c.write_latency_sum_ns, int64_t{0},
                    c.read_latency_max_ns, c.write_latency_max_ns, max_all, int64_t{0},
                    static_cast<int64_t>(sec * 1e9)}) {
    r.push_back(std::to_string(v));
  }
  r.push_back(start_sector);
  r.push_back(max_size);
  r.push_back(qd);
  if (cpu != nullptr) {
    // Linux: DPC time is 0; interrupt time is irq + softirq (both part of privileged time).
    r.push_back(F(cpu->utilization_pct));
    r.push_back(F(cpu->user_pct));
    r.push_back(F(cpu->system_pct + cpu->irq_pct + cpu->softirq_pct + cpu->steal_pct));
    r.push_back(F(0));
    r.push_back(F(cpu->irq_pct + cpu->softirq_pct));
    r.push_back("1000000000");
    r.push_back(F(cpu->interrupts_per_sec));
    r.push_back(F(cpu->utilization_pct > 0 ? iops / cpu->utilization_pct : 0));
  } else {
    for (int i = 0; i < 8; ++i) r.push_back("");
  }
  for (int i = 0; i < 3; ++i) r.push_back("");  // network columns: not a network test
  for (uint64_t b : c.latency_bins) r.push_back(std::to_string(b));
  return r;
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
  std::vector<std::string> c = {
      "Target Type", "Target Name", "Access Specification Name", "# Managers", "# Workers",
      "# Disks", "IOps", "Read IOps", "Write IOps", "MiBps (Binary)", "Read MiBps (Binary)",
      "Write MiBps (Binary)", "MBps (Decimal)", "Read MBps (Decimal)", "Write MBps (Decimal)",
      "Transactions per Second", "Connections per Second", "Average Response Time",
      "Average Read Response Time", "Average Write Response Time", "Average Transaction Time",
      "Average Connection Time", "Maximum Response Time", "Maximum Read Response Time",
      "Maximum Write Response Time", "Maximum Transaction Time", "Maximum Connection Time",
      "Errors", "Read Errors", "Write Errors", "Bytes Read", "Bytes Written", "Read I/Os",
      "Write I/Os", "Connections", "Transactions per Connection", "Total Raw Read Response Time",
      "Total Raw Write Response Time", "Total Raw Transaction Time", "Total Raw Connection Time",
      "Maximum Raw Read Response Time", "Maximum Raw Write Response Time",
      "Maximum Raw Transaction Time", "Maximum Raw Connection Time", "Total Raw Run Time",
      "Starting Sector", "Maximum Size", "Queue Depth", "% CPU Utilization", "% User Time",
      "% Privileged Time", "% DPC Time", "% Interrupt Time", "Processor Speed",
      "Interrupts per Second", "CPU Effectiveness", "Packets/Second", "Packet Errors",
      "Segments Retransmitted/Second"};
  for (const char* n : metrics::IometerBinNames()) c.push_back(n);
  return c;
}

std::string IometerResultsCsv(const std::vector<metrics::StorageTest>& tests,
                              const std::string& description, const std::string& host,
                              const std::vector<std::string>& time_stamps) {
  std::ostringstream o;
  o << "'Test Type,Test Description\n0," << Cell(description) << "\n";
  o << "'Version\n1.1.0\n";
  for (size_t i = 0; i < tests.size(); ++i) {
    const auto& t = tests[i];
    const std::string ts = i < time_stamps.size() ? time_stamps[i] : "";
    o << "'Time Stamp\n" << ts << "\n";
    o << "'Access specifications\n'Access specification name,default assignment\n"
      << Cell(t.name) << ",NONE\n'size,% of size,% reads,% random,delay,burst,align,reply\n";
    for (const auto& l : t.spec_lines) o << l << "\n";
    o << "'End access specifications\n";
    o << "'Results\n'" << Join(IometerResultColumns()) << "\n";
    const int disks = static_cast<int>(t.targets.size());
    const std::string qd_all = std::to_string(t.outstanding * disks * t.workers);
    o << Join(Row("ALL", "All", t.name, 1, t.workers, t.workers * disks, t.totals, t.measured_sec,
                  &t.cpu, "", "", qd_all))
      << "\n";
    o << Join(Row("MANAGER", host, t.name, 1, t.workers, t.workers * disks, t.totals,
                  t.measured_sec, &t.cpu, "", "", qd_all))
      << "\n";
    for (size_t w = 0; w < t.per_worker.size(); ++w) {
      const std::string wname = "Worker " + std::to_string(w + 1);
      o << Join(Row("WORKER", wname, t.name, 0, 1, disks, t.per_worker[w], t.measured_sec, nullptr,
                    "", "", std::to_string(t.outstanding * disks)))
        << "\n";
      for (size_t d = 0; d < t.targets.size() && w < t.per_worker_target.size(); ++d) {
        const metrics::StorageTarget& target = t.targets[d];
        o << Join(Row("DISK", target.path, "", 0, 0, 1, t.per_worker_target[w][d], t.measured_sec,
                      nullptr, std::to_string(target.range_start_bytes / 512),
                      std::to_string(target.range_bytes / 512), std::to_string(t.outstanding)))
          << "\n";
      }
    }
    o << "'Time Stamp\n" << ts << "\n";
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
