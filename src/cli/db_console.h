// The console of a database run (oltp run, run --plan, consolidate): DVD Store 3's status lines
// (DS2's stream layout with --ds2_mode), sysbench's interval lines and report (--workload oltp)
// or charbench's lines (Swingbench-style workloads); --progress json lines, the --out_filename
// status CSV and the --metrics_addr endpoint beside them; and the summary after the run.
#ifndef STOREBENCH_CLI_DB_CONSOLE_H_
#define STOREBENCH_CLI_DB_CONSOLE_H_

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cli/metrics_server.h"
#include "config/options.h"
#include "report/dvdstore_console.h"
#include "report/sysbench_report.h"
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
  bool WantsIntervalUnits() const override { return sysbench_; }
  void OnIntervalUnits(const metrics::Histogram& h) override { interval_units_ = h; }
  void OnInterval(const metrics::TimeSeries& series,
                  const metrics::StatusFigures& running) override;

  // After the run: sysbench's report or DVD Store's closing lines, then the summary, the
  // workloads' own result lines, the instance table, the SUT CPU and power lines.
  void PrintSummary(const session::RunOutcome& outcome);

 private:
  void DsLine(const std::string& line) const;
  void SysbenchInterval(const metrics::TimeSeries& series);
  void PrintClosing(const session::RunOutcome& outcome);
  void PrintResultLines(const metrics::RunResult& r, FILE* out);
  void PrintParameters(int64_t threads);

  const std::vector<session::DbSetup>& setups_;
  const config::OptionSet& common_;
  const workload::Workload& first_;
  const std::string progress_;
  report::LogTimestamp ts_ = report::LogTimestamp::kNone;
  // sysbench's console for its users (--workload oltp): interval lines every --report-interval
  // seconds on stdout instead of DVD Store's status lines, and its final report.
  const bool sysbench_;
  // Swingbench-style workloads print charbench's line instead of DVD Store's status line.
  const bool charbench_;
  // DVD Store 3's console (its status style): its preamble and closing lines on stdout, and
  // storebench's own summary on stderr, so that stdout is DS3's alone.
  const bool ds3_;
  FILE* ds_out_ = stdout;
  std::mutex threads_mu_;
  int64_t threads_total_ = 0, threads_created_ = 0;
  bool speaks_ = true;
  int percentile_ = 0;
  int64_t report_every_ = 0, all_threads_ = 0, lines_printed_ = 0;
  report::SysbenchCounts since_line_, measured_;
  metrics::Histogram interval_units_;
  int64_t users_ = 0;
  int64_t log_freq_sec_ = 0;
  const metrics::TimeSeries* last_series_ = nullptr;
  bool header_printed_ = false;
  std::unique_ptr<std::ofstream> csv_;
  MetricsServer metrics_server_;
  std::string metrics_addr_;
};

}  // namespace sb::cli

#endif  // STOREBENCH_CLI_DB_CONSOLE_H_
