// The live output of io run (io_run_live.h).
#include "cli/io_run_live.h"

#include <cstdio>
#include <memory>
#include <string>
#include <utility>

#include "report/console/live.h"
#include "report/console/prometheus_text.h"

namespace sb::cli {

void IoRunLive::Update(const metrics::TimeSeries& series, const metrics::StatusFigures& running) {
  if (progress_mode_ == "human" && !series.points.empty()) PrintHumanLines(series);
  if (progress_mode_ == "json") {
    std::fprintf(stderr, "%s\n", report::ProgressJsonLine(series, running).c_str());
  }
}

void IoRunLive::UpdateTotals(int spec_index, metrics::LiveTotals totals) {
  if (metrics_ == nullptr || spec_index < 0) return;
  const auto at = static_cast<size_t>(spec_index);
  if (tests_.size() <= at) tests_.resize(at + 1);
  // Two tests of one name (an ICF may repeat one) keep their own series.
  for (size_t i = 0; i < at; ++i) {
    if (tests_[i].spec == totals.spec) {
      totals.spec += " (" + std::to_string(at + 1) + ")";
      break;
    }
  }
  tests_[at] = std::move(totals);
  auto ran = std::make_shared<std::vector<metrics::LiveTotals>>();
  for (const auto& t : tests_) {
    if (!t.workload.empty()) ran->push_back(t);
  }
  metrics_->Update([ran] { return report::PrometheusText(*ran, /*label_instances=*/false); });
}

// A line every 10 s of each test: I/Os per second, MiB/s and mean latency since the previous
// line.
void IoRunLive::PrintHumanLines(const metrics::TimeSeries& series) {
  if (series.points.size() < since_.seen) since_ = Since();  // the next test
  for (; since_.seen < series.points.size(); ++since_.seen) {
    const metrics::IntervalPoint& p = series.points[since_.seen];
    const uint64_t n = p.type_counts.empty() ? 0 : p.type_counts[0];
    since_.ios += n;
    if (!p.type_mean_ms.empty()) since_.latency_ms_sum += p.type_mean_ms[0] * n;
    for (size_t k = 0; k < series.counter_names.size() && k < p.counters.size(); ++k) {
      if (series.counter_names[k] == "read_bytes" || series.counter_names[k] == "write_bytes") {
        since_.bytes += p.counters[k];
      }
    }
    const double t = p.t_sec;
    if (static_cast<int64_t>((t + 0.05) / 10) >
        static_cast<int64_t>((since_.from_sec + 0.05) / 10)) {
      const double span = t - since_.from_sec;
      std::fprintf(stderr, "  %4.0f s (%s): %.0f IOPS, %.2f MiB/s, mean %.3f ms\n", t,
                   p.phase.c_str(), span > 0 ? static_cast<double>(since_.ios) / span : 0,
                   span > 0 ? static_cast<double>(since_.bytes) / span / 1048576.0 : 0,
                   since_.ios > 0 ? since_.latency_ms_sum / static_cast<double>(since_.ios) : 0);
      std::fflush(stderr);
      const size_t consumed = since_.seen;  // the loop's ++ moves past this point
      since_ = Since();
      since_.from_sec = t;
      since_.seen = consumed;
    }
  }
}

}  // namespace sb::cli
