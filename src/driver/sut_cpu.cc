#include "driver/sut_cpu.h"

#include <sys/wait.h>

#include <cstdio>
#include <utility>

namespace sb::driver {

SutCpuProbe::SutCpuProbe(Clock& clock, std::string command, int64_t period_nanos)
    : clock_(clock), command_(std::move(command)), period_(period_nanos) {}

SutCpuProbe::~SutCpuProbe() { Stop(); }

std::string SutCpuProbe::Source() const {
  return command_.empty() ? "local /proc/stat" : "command: " + command_;
}

void SutCpuProbe::Start() {
  if (thread_.joinable()) return;
  thread_ = std::thread([this] { Loop(); });
}

void SutCpuProbe::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

ProcStat SutCpuProbe::ReadOnce(std::string* error) const {
  if (command_.empty()) return ReadProcStat();
  // The user's own command (like --sut_cpu_cmd in other tools), bounded by coreutils' timeout.
  const std::string cmd = "timeout 5 sh -c '" + [&] {
    std::string quoted;
    for (char c : command_) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted;
  }() + "' 2>/dev/null";
  std::FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) {
    *error = "cannot run the SUT CPU command";
    return ProcStat();
  }
  std::string text;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0 && text.size() < (1u << 20)) {
    text.append(buf, n);
  }
  const int status = pclose(p);
  const int rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  ProcStat s = ParseProcStat(text);
  if (!s.ok) {
    *error = "the SUT CPU command printed no /proc/stat 'cpu' line (exit status " +
             std::to_string(rc) + ")";
  }
  return s;
}

void SutCpuProbe::Loop() {
  int64_t next = clock_.NowNanos();
  for (;;) {
    std::string error;
    const int64_t at = clock_.NowNanos();
    ProcStat s = ReadOnce(&error);
    {
      std::unique_lock<std::mutex> lock(mu_);
      if (s.ok) {
        readings_.emplace_back(at, s);
      } else if (first_error_.empty()) {
        first_error_ = error.empty() ? "cannot read /proc/stat" : error;
      }
      next += period_;
      const int64_t wait = next - clock_.NowNanos();
      if (wait > 0) cv_.wait_for(lock, std::chrono::nanoseconds(wait), [this] { return stop_; });
      if (stop_) return;
    }
  }
}

std::vector<metrics::CpuPoint> SutCpuProbe::Points(int64_t t0, std::string* error) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (error != nullptr) *error = first_error_;
  std::vector<metrics::CpuPoint> out;
  for (size_t i = 1; i < readings_.size(); ++i) {
    const auto& [a_at, a] = readings_[i - 1];
    const auto& [b_at, b] = readings_[i];
    const metrics::CpuUsage u = CpuBetween(a, b, static_cast<double>(b_at - a_at) / 1e9);
    metrics::CpuPoint p;
    p.t_sec = static_cast<double>(b_at - t0) / 1e9;
    p.utilization_pct = u.utilization_pct;
    p.user_pct = u.user_pct;
    p.system_pct = u.system_pct;
    p.iowait_pct = u.iowait_pct;
    p.steal_pct = u.steal_pct;
    out.push_back(p);
  }
  return out;
}

}  // namespace sb::driver
