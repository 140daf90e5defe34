// The console of a database run (oltp run, run --plan, consolidate): DVD Store 3's status lines
// (DS2's stream layout with --ds2_mode), sysbench's interval lines and report (--workload oltp)
// or charbench's lines (Swingbench-style workloads); --progress json lines, the --out_filename
// status CSV and the --metrics_addr endpoint beside them; and the summary after the run.
#ifndef STOREBENCH_CLI_DB_CONSOLE_H_
#define STOREBENCH_CLI_DB_CONSOLE_H_

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "base/output_stream.h"
#include "cli/metrics_server.h"
#include "config/options.h"
#include "report/console/console_style.h"
#include "report/console/dvdstore_console.h"
#include "storebench/session.h"

namespace sb::cli {

class ConsoleReporter : public session::RunReporter {
 public:
  ConsoleReporter(const std::vector<session::DbSetup>& setups, const config::OptionSet& common);

  Status Begin(const std::vector<driver::DbInstanceSpec>& specs, const driver::RunOptions& ro,
               bool speaks) override;
  void OnMessage(const std::string& line) override { DsLine(line); }
  void OnThread(int64_t thread, const std::string& target, bool connected) override;
  void OnStart() override;
  void OnStatus(const metrics::StatusFigures& f) override;
  void OnInstanceStatus(const std::string& name, const metrics::StatusFigures& f) override;
  bool WantsIntervalUnits() const override { return style_ && style_->WantsIntervalUnits(); }
  void OnIntervalUnits(const metrics::Histogram& h) override {
    if (style_) style_->OnIntervalUnits(h);
  }
  void OnInterval(const metrics::TimeSeries& series,
                  const metrics::StatusFigures& running) override;
  bool WantsLiveTotals() const override { return !metrics_addr_.empty(); }
  void OnLiveTotals(std::vector<metrics::LiveTotals> totals) override;

  // After the run's outputs: keeps the metrics endpoint (when on) serving its last text for
  // --metrics_linger, so that a scraper gets the final counts; ends at once on a stop signal
  // (`stop`), and is skipped when the run was stopped by one.
  void LingerMetrics(const std::atomic<bool>& stop);
  // A failed write of the --out_filename CSV: the run ends on it.
  Status OutputError() const override { return csv_ ? csv_->error() : Status::Ok(); }
  // After the run: the --out_filename CSV put in place whole, or removed with the error.
  Status CommitOutputs() { return csv_ ? csv_->Commit() : Status::Ok(); }

  // After the run: the console style's closing (sysbench's report, DVD Store's closing lines),
  // then the summary, the workloads' own result lines, the instance table, the SUT CPU and power
  // lines.
  void PrintSummary(const session::RunOutcome& outcome);

 private:
  void DsLine(const std::string& line) const;
  void PrintClosing(const session::RunOutcome& outcome);
  void PrintResultLines(const metrics::RunResult& r, FILE* out);

  const std::vector<session::DbSetup>& setups_;
  const config::OptionSet& common_;
  const workload::Workload& first_;
  const std::string progress_;
  report::LogTimestamp ts_ = report::LogTimestamp::kNone;
  // The console of the tool the first workload imitates (Shape::console); null when its name is
  // unknown, which Begin reports.
  std::unique_ptr<report::ConsoleStyle> style_;
  Status style_status_;
  std::unique_ptr<OutputStream> csv_;
  MetricsServer metrics_server_;
  std::string metrics_addr_;
};

}  // namespace sb::cli

#endif  // STOREBENCH_CLI_DB_CONSOLE_H_
