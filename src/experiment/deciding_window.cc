#include "experiment/deciding_window.h"

#include <cctype>
#include <cmath>

#include "metrics/power_result.h"

namespace sb::experiment {
namespace {

using report::SearchWindow;

const metrics::WindowResult* WindowNamed(const metrics::RunResult& r, const std::string& label) {
  for (const metrics::WindowResult& w : r.windows) {
    if (w.label == label) return &w;
  }
  return nullptr;
}

// The headline figure of `r` over the window `label` ("run": the measured window).
double HeadlineIn(const metrics::RunResult& r, const std::string& label) {
  if (label == "run") return r.headline_value;
  const metrics::WindowResult* w = WindowNamed(r, label);
  if (w == nullptr) return SearchWindow::kNone;
  for (const auto& [name, value] : w->headlines) {
    if (name == r.headline_name) return value;
  }
  return SearchWindow::kNone;
}

// The mean utilization of the host CPU readings in (start, end]. A reading covers the second
// before it, so it belongs where the middle of that second lies (as a power reading does).
double CpuIn(const metrics::SutCpu& cpu, double start, double end) {
  double sum = 0;
  int n = 0;
  for (const metrics::CpuPoint& p : cpu.points) {
    if (!metrics::PowerPointInWindow(p.t_sec, 1.0, start, end)) continue;
    sum += p.utilization_pct;
    ++n;
  }
  return n > 0 ? sum / n : SearchWindow::kNone;
}

}  // namespace

std::string RuleWindow(const std::string& rule) {
  const size_t at = rule.rfind('@');
  if (at == std::string::npos) return "";
  std::string label = rule.substr(at + 1);
  while (!label.empty() && std::isspace(static_cast<unsigned char>(label.back()))) label.pop_back();
  while (!label.empty() && std::isspace(static_cast<unsigned char>(label.front()))) {
    label.erase(label.begin());
  }
  return label;
}

SearchWindow DecidingWindow(const metrics::RunResult& r) {
  SearchWindow out;
  if (r.baselines.empty()) return out;
  out.label = RuleWindow(r.baselines[0].rule);
  if (out.label.empty()) return out;
  if (r.instances.empty()) {
    out.instance_names.push_back(r.name.empty() ? "1" : r.name);
    out.instances.push_back(HeadlineIn(r, out.label));
  }
  for (const metrics::RunResult& i : r.instances) {
    out.instance_names.push_back(i.name);
    out.instances.push_back(HeadlineIn(i, out.label));
  }
  out.aggregate = HeadlineIn(r, out.label);
  // The window's span: the measured window's for "run" (the power section's "measured").
  const std::string power_label = out.label == "run" ? "measured" : out.label;
  const metrics::PowerWindow* pw = nullptr;
  for (const metrics::PowerWindow& w : r.power.windows) {
    if (w.label == power_label) pw = &w;
  }
  double start = NAN, end = NAN;
  if (const metrics::WindowResult* w = WindowNamed(r, out.label); w != nullptr) {
    start = w->start_sec;
    end = w->end_sec;
  } else if (pw != nullptr) {
    start = pw->start_sec;
    end = pw->end_sec;
  }
  if (out.label == "run") {
    // The measured window's mean, as the result states it.
    if (!r.sut_cpu.points.empty()) out.host_cpu_pct = r.sut_cpu.measured_mean_pct;
  } else if (std::isfinite(start) && std::isfinite(end)) {
    out.host_cpu_pct = CpuIn(r.sut_cpu, start, end);
  }
  if (pw != nullptr && pw->seconds > 0) {
    out.power_w = pw->avg_w;
    if (std::isfinite(out.aggregate) && pw->avg_w > 0) out.per_watt = out.aggregate / pw->avg_w;
  }
  return out;
}

}  // namespace sb::experiment
