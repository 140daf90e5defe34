// The live output of `storebench io run` while a test runs, fed after every sample: with
// --progress=human a line on stderr every 10 s of each test, with --progress=json one JSON
// object per sample, and the Prometheus text for --metrics_addr (docs/storage.md).
#ifndef STOREBENCH_CLI_IO_RUN_LIVE_H_
#define STOREBENCH_CLI_IO_RUN_LIVE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cli/metrics_server.h"
#include "metrics/live_totals.h"
#include "metrics/run_result.h"

namespace sb::cli {

class IoRunLive {
 public:
  // `progress_mode`: human, json or none (--progress); `metrics`: the endpoint to update, or
  // null when --metrics_addr is off. `metrics` must outlive this.
  IoRunLive(std::string progress_mode, MetricsServer* metrics)
      : progress_mode_(std::move(progress_mode)), metrics_(metrics) {}

  // The test's series so far and its running figures (IoRunConfig::on_interval). A series
  // shorter than the last one seen is the next test's.
  void Update(const metrics::TimeSeries& series, const metrics::StatusFigures& running);
  // The `spec_index`-th test's totals since its Start (IoRunConfig::on_live_totals): the
  // endpoint then serves every test so far, each its own series (label spec), the finished
  // ones as they ended, so counters never go back and a sum over specs is the run's.
  void UpdateTotals(int spec_index, metrics::LiveTotals totals);

 private:
  // The human line's figures since the previous line: a long test otherwise prints nothing
  // between its start and its result.
  struct Since {
    double from_sec = 0;
    uint64_t ios = 0;
    int64_t bytes = 0;
    double latency_ms_sum = 0;
    size_t seen = 0;  // series points consumed (a new test starts a new series)
  };

  void PrintHumanLines(const metrics::TimeSeries& series);

  const std::string progress_mode_;
  MetricsServer* const metrics_;
  Since since_;
  std::vector<metrics::LiveTotals> tests_;  // by spec index
};

}  // namespace sb::cli

#endif  // STOREBENCH_CLI_IO_RUN_LIVE_H_
