// The figures of a database run as one instance or as the merge of several (the aggregate of a
// consolidation run): its 1-second time series, DVD Store's running status figures, its windows,
// baselines and final RunResult. A view is fed by the controller's samples; the aggregate merges
// its members' snapshots exactly (histograms added, never percentiles averaged).
#ifndef STOREBENCH_DRIVER_DB_VIEW_H_
#define STOREBENCH_DRIVER_DB_VIEW_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "driver/controller.h"
#include "driver/db_instance.h"
#include "driver/runner.h"
#include "metrics/live_totals.h"
#include "metrics/recorder.h"
#include "metrics/run_result.h"

namespace sb::driver {

class DbView {
 public:
  // `members`: indexes into the controller's instances (one for an instance's own view).
  // `instances`: every instance of the run, by the same indexes. All members run workloads of
  // the same shape as `shape`.
  DbView(std::vector<const DbInstance*> instances, std::vector<int> members,
         const workload::Shape& shape, const RunOptions& options);

  // Feeds one sample; returns the running figures at it.
  metrics::StatusFigures OnSample(const Sample& s);
  void OnReset(const std::vector<metrics::RecorderSnapshot>& at_reset, int64_t reset_at);
  // The status line was printed at the last sample: rt_tot_sampled restarts there.
  void MarkStatus();
  const metrics::TimeSeries& series() const { return series_; }
  // The totals since Start at the last sample (the live endpoint's): unit, steps, schedule lag
  // and the series' counters; names and elapsed time are the caller's to fill.
  metrics::LiveTotals Live() const;

  // The result over the run. `windows` and `at_*` are the controller's (per instance).
  metrics::RunResult Finish(const ControllerOutcome& run);
  // Totals over the whole run, wind-down included (for Verify).
  workload::Totals WholeRun(const ControllerOutcome& run) const;
  // Totals from the reset to the end of the run, wind-down included (the server check's span).
  workload::Totals SinceReset(const ControllerOutcome& run) const;

 private:
  metrics::RecorderSnapshot Merge(const std::vector<metrics::RecorderSnapshot>& per) const;
  metrics::StatusFigures Figures(const metrics::RecorderSnapshot& snap, int64_t now) const;
  // Every --window as measured (its latency, rates and per-second spread), in the controller's
  // order; `opm_at_end` stands for the running figure of a window that did not end.
  std::vector<metrics::WindowResult> MeasureWindows(const ControllerOutcome& run, double opm_at_end,
                                                    const metrics::TimeSeries& series) const;
  int64_t LastNMaxNanos(int64_t since) const;

  std::vector<const DbInstance*> instances_;
  std::vector<int> members_;
  const workload::Shape& shape_;
  const Layout& layout_;
  const RunOptions& options_;
  bool open_;
  int reported_types_;
  metrics::TimeSeries series_;
  metrics::RecorderSnapshot base_, at_status_, last_;
  int64_t reset_at_ = 0;
  bool started_ = false;
  int64_t last_sampled_ = 0;    // rt_tot_sampled at the last sample
  int64_t status_sampled_ = 0;  // ... at the last status line (the Final line repeats it)
  std::vector<double> running_start_, running_end_;
};

// The workload's counters, then the driver's (errors by category, retries, late, reconnects): the
// order of TimeSeries::counter_names.
std::vector<int64_t> SeriesCounters(const metrics::RecorderSnapshot& s, const Layout& layout);
// A snapshot's unit and step counts and workload counters, as workloads take them.
workload::Totals ToTotals(const metrics::RecorderSnapshot& s, const Layout& layout);

}  // namespace sb::driver

#endif  // STOREBENCH_DRIVER_DB_VIEW_H_
