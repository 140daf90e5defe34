#include "driver/proc_stat.h"

#include <sys/resource.h>

#include <fstream>
#include <sstream>

namespace sb::driver {

ProcStat ParseProcStat(const std::string& text) {
  ProcStat s;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string key;
    ls >> key;
    if (key == "cpu") {
      ls >> s.user >> s.nice >> s.system >> s.idle >> s.iowait >> s.irq >> s.softirq >> s.steal;
      s.ok = true;
    } else if (key.rfind("cpu", 0) == 0) {
      ++s.cpus;
      ProcStat c;
      ls >> c.user >> c.nice >> c.system >> c.idle >> c.iowait >> c.irq >> c.softirq >> c.steal;
      c.ok = !ls.fail();
      c.cpus = 1;
      s.per_cpu.push_back(c);
    } else if (key == "intr") {
      ls >> s.interrupts;
    }
  }
  return s;
}

ProcStat ReadProcStat() {
  std::ifstream in("/proc/stat");
  std::stringstream ss;
  ss << in.rdbuf();
  return ParseProcStat(ss.str());
}

metrics::CpuUsage CpuBetween(const ProcStat& a, const ProcStat& b, double seconds) {
  metrics::CpuUsage u;
  u.cpus = b.cpus;
  if (!a.ok || !b.ok) return u;
  auto d = [](uint64_t x, uint64_t y) { return static_cast<double>(y >= x ? y - x : 0); };
  const double user = d(a.user, b.user) + d(a.nice, b.nice), sys = d(a.system, b.system),
               idle = d(a.idle, b.idle), iowait = d(a.iowait, b.iowait), irq = d(a.irq, b.irq),
               softirq = d(a.softirq, b.softirq), steal = d(a.steal, b.steal);
  const double total = user + sys + idle + iowait + irq + softirq + steal;
  if (total <= 0) return u;
  u.user_pct = 100 * user / total;
  u.system_pct = 100 * sys / total;
  u.irq_pct = 100 * irq / total;
  u.softirq_pct = 100 * softirq / total;
  u.steal_pct = 100 * steal / total;
  u.iowait_pct = 100 * iowait / total;
  u.utilization_pct = 100 * (user + sys + irq + softirq + steal) / total;
  u.interrupts_per_sec = seconds > 0 ? d(a.interrupts, b.interrupts) / seconds : 0;
  return u;
}

std::vector<metrics::CpuUsage> PerCpuBetween(const ProcStat& a, const ProcStat& b, double seconds) {
  std::vector<metrics::CpuUsage> out;
  for (size_t i = 0; i < a.per_cpu.size() && i < b.per_cpu.size(); ++i) {
    out.push_back(CpuBetween(a.per_cpu[i], b.per_cpu[i], seconds));
  }
  return out;
}

double ProcessCpuSeconds() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

}  // namespace sb::driver
