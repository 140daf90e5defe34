// sysbench's console: "Threads started!", an interval line at every multiple of
// --report-interval seconds since Start, and its final report (with --histogram, the latency
// histogram before it). The run's own lines (messages, the controller's) go to stderr, so stdout
// holds what sysbench's would.
#include <cmath>
#include <cstdio>

#include "report/console/console_style.h"
#include "report/console/sysbench_report.h"

namespace sb::report {
namespace {

class SysbenchConsole : public ConsoleStyle {
 public:
  explicit SysbenchConsole(const ConsoleSettings& s) : ConsoleStyle(stderr), s_(s) {}

  void Begin(const RunStart& /*start*/) override {
    if (s_.quiet) return;
    std::printf("%s", FormatSysbenchHeader(s_.sysbench_header).c_str());
    std::fflush(stdout);
  }
  void OnStart() override {
    if (s_.quiet) return;
    std::printf("Threads started!\n\n");  // sysbench's words before its interval lines
    std::fflush(stdout);
  }
  void OnStatus(const metrics::StatusFigures& /*f*/, const std::string& /*ts_prefix*/) override {}
  void OnInstanceStatus(const std::string& /*name*/, const metrics::StatusFigures& /*f*/) override {
  }
  bool WantsIntervalUnits() const override { return true; }
  void OnIntervalUnits(const metrics::Histogram& h) override { interval_units_ = h; }
  void OnInterval(const metrics::TimeSeries& series) override;
  void Close(const metrics::RunResult& r, const WholeRunCounts& /*whole_run*/,
             const std::vector<WholeRunCounts>& /*per_instance*/) override {
    if (s_.quiet) return;
    measured_.seconds = r.measured_sec;
    // "SQL statistics:" (or the histogram) follows the interval lines, or the blank line after
    // "Threads started!", directly, as in sysbench.
    if (s_.histogram) std::printf("%s \n", FormatSysbenchHistogram(measured_.latency).c_str());
    std::printf("%s\n", FormatSysbenchReport(measured_, s_.percentile, r.threads).c_str());
  }

 private:
  const ConsoleSettings s_;
  int64_t lines_printed_ = 0;
  SysbenchCounts since_line_, measured_;
  metrics::Histogram interval_units_;
};

void SysbenchConsole::OnInterval(const metrics::TimeSeries& series) {
  if (series.points.empty()) return;
  const metrics::IntervalPoint& p = series.points.back();
  const double start =
      series.points.size() > 1 ? series.points[series.points.size() - 2].t_sec : 0.0;
  since_line_.AddPoint(series, p);
  since_line_.latency.Merge(interval_units_);
  since_line_.seconds += p.t_sec - start;
  if (p.phase == "measure") {
    measured_.AddPoint(series, p);
    measured_.latency.Merge(interval_units_);
  }
  // A line at every multiple of --report-interval seconds since Start, as sysbench (the
  // samples land on whole seconds, a little late; phase boundaries fall in between).
  if (s_.report_every > 0 && s_.human && !s_.quiet) {
    const auto k = static_cast<int64_t>(std::floor((p.t_sec + 0.05) / s_.report_every));
    if (k > lines_printed_) {
      lines_printed_ = k;
      std::printf("%s\n", FormatSysbenchInterval(static_cast<double>(k * s_.report_every),
                                                 s_.threads, s_.percentile, since_line_)
                              .c_str());
      std::fflush(stdout);
      since_line_ = SysbenchCounts();
    }
  }
}

}  // namespace

std::unique_ptr<ConsoleStyle> NewSysbenchConsole(const ConsoleSettings& settings) {
  return std::make_unique<SysbenchConsole>(settings);
}

}  // namespace sb::report
