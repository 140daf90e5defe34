#include "power/summary.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace sb::power {

double WindowAverage(const std::vector<metrics::PowerPoint>& points, double interval_sec,
                     double start_sec, double end_sec, int64_t* seconds, int64_t* missing) {
  double sum = 0;
  int64_t n = 0, gone = 0;
  for (const metrics::PowerPoint& p : points) {
    if (!metrics::PowerPointInWindow(p.t_sec, interval_sec, start_sec, end_sec)) continue;
    if (std::isnan(p.sum_w)) {
      ++gone;
      continue;
    }
    sum += p.sum_w;
    ++n;
  }
  if (seconds != nullptr) *seconds = n;
  if (missing != nullptr) *missing = gone;
  return n > 0 ? sum / static_cast<double>(n) : 0;
}

std::vector<PowerWindowSpec> RunWindows(const metrics::RunResult& r, double reset_sec,
                                        double end_sec) {
  std::vector<PowerWindowSpec> out;
  out.push_back({"measured", reset_sec, end_sec, r.headlines});
  for (const metrics::WindowResult& w : r.windows) {
    out.push_back({w.label, w.start_sec, std::min(w.end_sec, end_sec), w.headlines});
  }
  return out;
}

metrics::PowerResult SummarizePower(const PowerRecording& rec, int64_t t0_nanos,
                                    const std::vector<PowerWindowSpec>& windows,
                                    const std::vector<metrics::HeadlineSpec>& specs) {
  metrics::PowerResult out;
  out.interval_sec = static_cast<double>(rec.period_nanos) / 1e9;
  const auto t_of = [&](int64_t at) { return static_cast<double>(at - t0_nanos) / 1e9; };
  for (const SourceRecording& s : rec.sources) {
    metrics::PowerSourceResult r;
    r.spec = s.spec;
    r.description = s.description;
    r.measures = MeasuresName(s.caps.measures);
    r.resolution_w = s.caps.resolution_w;
    r.uncertainty = s.caps.uncertainty;
    r.note = s.caps.note;
    r.live = s.caps.live;
    for (size_t k = 0; k < s.watts.size(); ++k) {
      if (std::isnan(s.watts[k])) {
        ++r.missing;
        if (r.missing_at_sec.size() < 1000 && k < rec.tick_at.size()) {
          r.missing_at_sec.push_back(t_of(rec.tick_at[k]));
        }
      } else {
        ++r.readings;
      }
    }
    for (const auto& [m, n] : s.errors) {
      r.errors.push_back(n > 1 ? m + " (" + std::to_string(n) + "×)" : m);
    }
    if (!s.clock_offsets_sec.empty()) {
      std::vector<double> o = s.clock_offsets_sec;
      std::nth_element(o.begin(), o.begin() + static_cast<std::ptrdiff_t>(o.size() / 2), o.end());
      r.has_clock_offset = true;
      r.clock_offset_sec = o[o.size() / 2];
    }
    out.sources.push_back(std::move(r));
  }
  for (size_t k = 0; k < rec.tick_at.size(); ++k) {
    metrics::PowerPoint p;
    p.t_sec = t_of(rec.tick_at[k]);
    double sum = 0;
    for (const SourceRecording& s : rec.sources) {
      const double w = k < s.watts.size() ? s.watts[k] : std::numeric_limits<double>::quiet_NaN();
      p.watts.push_back(w);
      sum += w;  // NaN stays NaN: no sum for a second with a source missing
    }
    p.sum_w = rec.sources.empty() ? std::numeric_limits<double>::quiet_NaN() : sum;
    out.points.push_back(std::move(p));
  }
  for (const PowerWindowSpec& w : windows) {
    metrics::PowerWindow pw;
    pw.label = w.label;
    pw.start_sec = w.start_sec;
    pw.end_sec = w.end_sec;
    pw.avg_w = WindowAverage(out.points, out.interval_sec, w.start_sec, w.end_sec, &pw.seconds,
                             &pw.missing);
    pw.energy_j = pw.seconds > 0 ? pw.avg_w * std::max(0.0, w.end_sec - w.start_sec) : 0;
    if (pw.seconds > 0 && pw.avg_w > 0) {
      for (const auto& [name, value] : w.headlines) {
        double per_second = 1;
        for (const metrics::HeadlineSpec& hs : specs) {
          if (hs.name == name) per_second = hs.per_second;
        }
        pw.per_watt.emplace_back(name, value / pw.avg_w);
        // units per second = value / per_second; joules per unit = watts / units per second.
        const double units_per_sec = value / per_second;
        pw.joules_per_unit.emplace_back(name, units_per_sec > 0 ? pw.avg_w / units_per_sec : 0);
      }
    }
    out.windows.push_back(std::move(pw));
  }
  for (const auto& [at, mark] : rec.marks) out.marks.emplace_back(t_of(at), mark);
  return out;
}

}  // namespace sb::power
