#include "report/instance_series_csv.h"

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
    if (p.t_sec <= prev || p.t_sec > t) continue;
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

void AppendRows(const metrics::RunResult& one, const std::string& name,
                const std::vector<const metrics::HeadlineSpec*>& fallback,
                const std::vector<std::string>& columns, const metrics::PowerResult& power,
                std::string* out) {
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
  double prev = -interval;
  for (const auto& p : one.series.points) {
    std::string line = Field(name) + "," + Number(p.t_sec) + "," + Field(p.phase);
    for (const metrics::HeadlineSpec* h : specs) {
      line += ",";
      if (h != nullptr && interval > 0) line += Number(h->Rate(h->Count(p), interval));
    }
    line += ",";
    if (!p.type_p99_ms.empty()) line += Number(p.type_p99_ms[0]);
    int64_t errors = 0;
    for (size_t j : error_counters) {
      if (j < p.counters.size()) errors += p.counters[j];
    }
    *out += line + "," + std::to_string(errors) + PowerCsvFields(power, prev, p.t_sec) + "\n";
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
  out += PowerCsvHeader(r.power) + "\n";
  if (r.instances.empty()) {
    AppendRows(r, r.name.empty() ? "1" : r.name, fallback, columns, r.power, &out);
  } else {
    for (const auto& one : r.instances) {
      AppendRows(one, one.name, fallback, columns, r.power, &out);
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
