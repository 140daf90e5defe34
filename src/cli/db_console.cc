#include "cli/db_console.h"

#include <chrono>
#include <cmath>

#include "base/strings.h"
#include "cli/power_cli.h"
#include "report/console/charbench_console.h"
#include "report/console/instances_console.h"
#include "report/console/live.h"

namespace sb::cli {
namespace {

report::LogTimestamp LogTimestampOf(const std::string& mode) {
  return mode == "UTC"     ? report::LogTimestamp::kUtc
         : mode == "LOCAL" ? report::LogTimestamp::kLocal
                           : report::LogTimestamp::kNone;
}

}  // namespace

ConsoleReporter::ConsoleReporter(const std::vector<session::DbSetup>& setups,
                                 const config::OptionSet& common)
    : setups_(setups),
      common_(common),
      first_(*setups[0].workload),
      progress_(common.GetString("progress")),
      ts_(LogTimestampOf(common.GetString("log_timestamp"))),
      sysbench_(first_.shape().sysbench_style),
      charbench_(first_.shape().status_style == workload::StatusStyle::kCharbench) {
  percentile_ = sysbench_ ? static_cast<int>(common.GetInt("percentile")) : 0;
  report_every_ = common.GetInt("log_freq");
  all_threads_ = common.GetInt("n_threads");
  // DVD Store's stream layout: DS3 writes the controller's lines, status lines, thread
  // messages and the Final line to stdout ("ds3xdriver ... > run.log" keeps them all), DS2
  // everything but "Run over" to stderr (ds3xdriver.cs, ds2xdriver.cs). storebench's own
  // diagnostics (the settings echo, where the result went) stay on stderr.
  const bool ds2 = common.Has("ds2_mode") && common.GetBool("ds2_mode");
  ds_out_ = sysbench_ || ds2 ? stderr : stdout;
}

void ConsoleReporter::DsLine(const std::string& line) const {
  std::fprintf(ds_out_, "%s\n", EscapeForTerminal(line, /*keep_newlines=*/true).c_str());
  std::fflush(ds_out_);
}

Status ConsoleReporter::Begin(const std::vector<driver::DbInstanceSpec>& specs,
                              const driver::RunOptions& ro, bool speaks) {
  std::fprintf(stderr, "%s\n", common_.EchoLine().c_str());
  const std::string& csv_path = speaks ? common_.GetString("out_filename") : std::string();
  if (!csv_path.empty()) {
    csv_ = std::make_unique<std::ofstream>(csv_path, std::ios::trunc);
    if (!*csv_) return Status::InvalidArgument("cannot write out_filename '" + csv_path + "'");
    *csv_ << report::CsvHeaderLine() << "\n";
  }
  metrics_addr_ = speaks ? common_.GetString("metrics_addr") : std::string();
  if (!metrics_addr_.empty()) {
    SB_RETURN_IF_ERROR(metrics_server_.Start(metrics_addr_));
    std::fprintf(stderr, "serving Prometheus metrics on port %d\n", metrics_server_.port());
  }
  for (const std::string& w : first_.Warnings()) std::fprintf(stderr, "warning: %s\n", w.c_str());
  // Users: the workers, or the terminals they serve (Swingbench's pooled users).
  for (const auto& spec : specs) {
    const int64_t terminals = spec.workload ? spec.workload->terminals() : 0;
    users_ += terminals > 0 ? terminals : spec.options.threads;
  }
  log_freq_sec_ = ro.log_freq_sec;
  return Status::Ok();
}

void ConsoleReporter::OnStart() {
  if (sysbench_) {
    std::printf("Threads started!\n\n");  // sysbench's words before its interval lines
    std::fflush(stdout);
    return;
  }
  DsLine("Controller (" + report::FinalLineDateTime(std::chrono::system_clock::now()) +
         "): all threads connected - issuing Start");
}

void ConsoleReporter::OnStatus(const metrics::StatusFigures& f) {
  const std::string prefix = report::StatusTimestampPrefix(ts_, std::chrono::system_clock::now());
  if (progress_ == "human" && charbench_ && last_series_ != nullptr) {
    if (!header_printed_) {
      std::fprintf(stderr, "%s\n", report::CharbenchHeader(*last_series_).c_str());
      header_printed_ = true;
    }
    std::fprintf(stderr, "%s\n",
                 report::FormatCharbenchLine(*last_series_, users_, log_freq_sec_,
                                             std::chrono::system_clock::now())
                     .c_str());
  } else if (progress_ == "human" && !sysbench_) {
    DsLine(report::FormatStatusLine(f, prefix));
  }
  if (csv_) *csv_ << report::FormatCsvLine(f, prefix) << "\n" << std::flush;
}

void ConsoleReporter::OnInstanceStatus(const std::string& name, const metrics::StatusFigures& f) {
  if (progress_ == "human" && !sysbench_) {
    DsLine("  " + report::FormatInstanceStatusLine(name, f, ""));
  }
}

void ConsoleReporter::SysbenchInterval(const metrics::TimeSeries& series) {
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
  if (report_every_ > 0 && progress_ == "human") {
    const auto k = static_cast<int64_t>(std::floor((p.t_sec + 0.05) / report_every_));
    if (k > lines_printed_) {
      lines_printed_ = k;
      std::printf("%s\n", report::FormatSysbenchInterval(static_cast<double>(k * report_every_),
                                                         all_threads_, percentile_, since_line_)
                              .c_str());
      std::fflush(stdout);
      since_line_ = report::SysbenchCounts();
    }
  }
}

void ConsoleReporter::OnInterval(const metrics::TimeSeries& series,
                                 const metrics::StatusFigures& running) {
  if (sysbench_ && !series.points.empty()) SysbenchInterval(series);
  last_series_ = &series;
  if (progress_ == "json") {
    std::fprintf(stderr, "%s\n", report::ProgressJsonLine(series, running).c_str());
  }
  if (!metrics_addr_.empty()) {
    metrics_server_.Update(report::PrometheusText(first_.name(), series, running));
  }
}

void ConsoleReporter::PrintClosing(const session::RunOutcome& outcome) {
  const metrics::RunResult& r = outcome.result;
  if (sysbench_) {
    measured_.seconds = r.measured_sec;
    std::printf("\n");
    if (common_.GetBool("histogram")) {
      std::printf("%s \n", report::FormatSysbenchHistogram(measured_.latency).c_str());
    }
    std::printf("%s\n", report::FormatSysbenchReport(measured_, percentile_, r.threads).c_str());
    return;
  }
  // DS3's closing: the Final line after an empty line, then (its threads have stopped) the
  // controller's last line, the purchases and rollbacks since Start, and "Run over".
  const auto now = std::chrono::system_clock::now();
  std::fprintf(ds_out_, "\n%s\n",
               report::FormatFinalLine(r, report::FinalLineDateTime(now)).c_str());
  if (charbench_) std::printf("%s", report::FormatCharbenchSummary(r).c_str());
  DsLine("Controller (" + report::FinalLineDateTime(now) + "): all threads stopped, exiting");
  if (const std::string line = first_.FromStartLine(outcome.whole_run); !line.empty()) {
    DsLine(line);
  }
  std::printf("Run over\n");
  std::fflush(stdout);
}

// A peer tool's own result line (HammerDB's for TPC-C-like runs), per instance when several.
void ConsoleReporter::PrintResultLines(const metrics::RunResult& r) {
  const std::string& product =
      r.environment.count("db.product") ? r.environment.at("db.product") : std::string();
  if (setups_.size() > 1) {
    for (size_t i = 0; i < setups_.size(); ++i) {
      for (const auto& line : setups_[i].workload->ResultLines(r.instances[i].figures, product)) {
        std::printf("  [%s] %s\n", setups_[i].name.c_str(), line.c_str());
      }
    }
    return;
  }
  for (const auto& line : first_.ResultLines(r.figures, product)) {
    std::printf("%s\n", line.c_str());
  }
}

void ConsoleReporter::PrintSummary(const session::RunOutcome& outcome) {
  const metrics::RunResult& r = outcome.result;
  PrintClosing(outcome);
  std::printf("%s", report::FormatSummary(r).c_str());
  PrintResultLines(r);
  std::printf("%s", report::FormatInstanceTable(r).c_str());
  if (!r.sut_cpu.source.empty()) {
    std::printf(
        "  system under test CPU (%s): mean %.1f %%, max %.1f %% over the measured "
        "window, %zu one-second points%s%s\n",
        EscapeForTerminal(r.sut_cpu.source).c_str(), r.sut_cpu.measured_mean_pct,
        r.sut_cpu.measured_max_pct, r.sut_cpu.points.size(), r.sut_cpu.error.empty() ? "" : "; ",
        EscapeForTerminal(r.sut_cpu.error).c_str());
  }
  std::printf("%s", FormatPowerSummary(r, first_.shape().headlines).c_str());
}

}  // namespace sb::cli
