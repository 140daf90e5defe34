#include "report/files/instance_series_csv.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <vector>

#include "metrics/headline.h"

namespace sb::report {

namespace {

// Shortest text that reads back to the same double ("11400", "4.25"); "" for NaN/infinity.
std::string Number(double v) {
  if (!std::isfinite(v)) return "";
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v);
  return ec == std::errc() ? std::string(buf, end) : "";
}

// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled.
std::string Field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

bool StartsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

std::string PowerCsvHeader(const metrics::PowerResult& power) {
  if (!power.present()) return "";
  std::string out = ",power_w";
  for (const auto& s : power.sources) out += "," + Field("power_w " + s.spec);
  return out;
}

std::string PowerCsvFields(const metrics::PowerResult& power, double prev, double t) {
  if (!power.present()) return "";
  const size_t n = power.sources.size();
  std::vector<double> sum(n + 1, 0);
  std::vector<int> count(n + 1, 0);
  for (const metrics::PowerPoint& p : power.points) {
    if (!metrics::PowerPointInWindow(p.t_sec, power.interval_sec, prev, t)) continue;
    if (!std::isnan(p.sum_w)) {
      sum[0] += p.sum_w;
      ++count[0];
    }
    for (size_t i = 0; i < n && i < p.watts.size(); ++i) {
      if (std::isnan(p.watts[i])) continue;
      sum[i + 1] += p.watts[i];
      ++count[i + 1];
    }
  }
  std::string out;
  for (size_t i = 0; i <= n; ++i) {
    out += ",";
    if (count[i] > 0) out += Number(sum[i] / count[i]);
  }
  return out;
}

namespace {

// The system under test's CPU at second `t`: the reading within half a second of it, else NaN
// (its readings are taken on a thread of their own, not on the series' ticks).
double SutCpuAt(const metrics::SutCpu& cpu, double t) {
  auto it = std::lower_bound(cpu.points.begin(), cpu.points.end(), t - 0.5,
                             [](const metrics::CpuPoint& p, double v) { return p.t_sec < v; });
  double best = NAN, distance = 0.5;
  for (; it != cpu.points.end() && it->t_sec <= t + 0.5; ++it) {
    if (std::fabs(it->t_sec - t) <= distance) {
      distance = std::fabs(it->t_sec - t);
      best = it->utilization_pct;
    }
  }
  return best;
}

// The columns after the power columns, the same for every instance: the further types' p99,
// every counter by name, the system under test's CPU.
struct ExtraColumns {
  std::vector<std::string> types;     // the series' type names (the first has its own column)
  std::vector<std::string> counters;  // the series' counter names
  const metrics::SutCpu* sut_cpu = nullptr;
};

void AppendRows(const metrics::RunResult& one, const std::string& name,
                const std::vector<const metrics::HeadlineSpec*>& fallback,
                const std::vector<std::string>& columns, const metrics::PowerResult& power,
                const ExtraColumns& extra, std::string* out) {
  // Each column's definition for this instance: its own spec of that name, else the run's.
  std::vector<const metrics::HeadlineSpec*> specs;
  for (size_t c = 0; c < columns.size(); ++c) {
    const metrics::HeadlineSpec* own = metrics::FindHeadline(one.headline_specs, columns[c]);
    specs.push_back(own != nullptr ? own : fallback[c]);
  }
  std::vector<size_t> error_counters;
  for (size_t j = 0; j < one.series.counter_names.size(); ++j) {
    if (StartsWith(one.series.counter_names[j], "errors.")) error_counters.push_back(j);
  }
  const double interval = one.series.interval_sec;
  double prev = -interval;  // power readings before Start go with the first row
  double from = 0;          // the start of the row's interval (a short one at a phase boundary)
  for (const auto& p : one.series.points) {
    std::string line = Field(name) + "," + Number(p.t_sec) + "," + Field(p.phase);
    const double seconds = p.t_sec > from ? p.t_sec - from : interval;
    from = p.t_sec;
    for (const metrics::HeadlineSpec* h : specs) {
      line += ",";
      if (h != nullptr && interval > 0) line += Number(h->Rate(h->Count(p), seconds));
    }
    line += ",";
    if (!p.type_p99_ms.empty()) line += Number(p.type_p99_ms[0]);
    int64_t errors = 0;
    for (size_t j : error_counters) {
      if (j < p.counters.size()) errors += p.counters[j];
    }
    line += "," + std::to_string(errors) + PowerCsvFields(power, prev, p.t_sec);
    // The other types' p99 and every counter, by name (an instance may lack one: empty cell).
    for (size_t k = 1; k < extra.types.size(); ++k) {
      line += ",";
      for (size_t i = 0; i < one.series.type_names.size() && i < p.type_p99_ms.size(); ++i) {
        if (one.series.type_names[i] == extra.types[k]) line += Number(p.type_p99_ms[i]);
      }
    }
    for (const std::string& c : extra.counters) {
      line += ",";
      for (size_t j = 0; j < one.series.counter_names.size() && j < p.counters.size(); ++j) {
        if (one.series.counter_names[j] == c) line += std::to_string(p.counters[j]);
      }
    }
    if (extra.sut_cpu != nullptr) line += "," + Number(SutCpuAt(*extra.sut_cpu, p.t_sec));
    *out += line + "\n";
    prev = p.t_sec;
  }
}

}  // namespace

std::string InstanceSeriesCsv(const metrics::RunResult& r) {
  std::vector<std::string> columns;
  std::vector<const metrics::HeadlineSpec*> fallback;
  for (const auto& h : r.headline_specs) {
    columns.push_back(h.name);
    fallback.push_back(&h);
  }
  if (columns.empty() && !r.headline_name.empty()) {
    columns.push_back(r.headline_name);
    fallback.push_back(nullptr);
  }
  const std::vector<std::string>& types = !r.series.type_names.empty() || r.instances.empty()
                                              ? r.series.type_names
                                              : r.instances[0].series.type_names;
  const std::string unit = types.empty() ? "unit" : types[0];

  std::string out = "instance,second,phase";
  for (const auto& c : columns) out += "," + Field(c);
  out += "," + Field(unit + "_p99_ms") + ",errors";
  // Power is the machines' (the same on every instance's row): the sum, then each source.
  out += PowerCsvHeader(r.power);
  ExtraColumns extra;
  extra.types = types;
  extra.counters = !r.series.counter_names.empty() || r.instances.empty()
                       ? r.series.counter_names
                       : r.instances[0].series.counter_names;
  extra.sut_cpu = r.sut_cpu.points.empty() ? nullptr : &r.sut_cpu;
  for (size_t k = 1; k < extra.types.size(); ++k) out += "," + Field(extra.types[k] + "_p99_ms");
  for (const auto& c : extra.counters) out += "," + Field(c);
  if (extra.sut_cpu != nullptr) out += ",sut_cpu_pct";
  out += "\n";
  if (r.instances.empty()) {
    AppendRows(r, r.name.empty() ? "1" : r.name, fallback, columns, r.power, extra, &out);
  } else {
    for (const auto& one : r.instances) {
      AppendRows(one, one.name, fallback, columns, r.power, extra, &out);
    }
  }
  return out;
}

std::string PowerSeriesCsv(const metrics::PowerResult& power) {
  std::string out = "second,power_w";
  for (const auto& s : power.sources) out += "," + Field("power_w " + s.spec);
  out += "\n";
  for (const metrics::PowerPoint& p : power.points) {
    out += Number(p.t_sec) + "," + Number(p.sum_w);
    for (double w : p.watts) out += "," + Number(w);
    out += "\n";
  }
  return out;
}

}  // namespace sb::report
