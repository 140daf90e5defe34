#include "cli/db_console.h"

#include <chrono>
#include <cmath>

#include "base/strings.h"
#include "cli/power_cli.h"
#include "report/charbench_console.h"
#include "report/instances_console.h"
#include "report/live.h"

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
      charbench_(first_.shape().status_style == workload::StatusStyle::kCharbench),
      ds3_(!sysbench_ && !charbench_) {
  percentile_ = sysbench_ ? static_cast<int>(common.GetInt("percentile")) : 0;
  report_every_ = common.GetInt("log_freq");
  all_threads_ = common.GetInt("n_threads");
  // DVD Store 3's stream layout: the controller's lines, status lines, thread messages and the
  // Final line on stdout ("ds3xdriver ... > run.log" keeps them all), with --ds2_mode=Y too
  // (ds3xdriver.cs writes every line with Console.WriteLine whatever the mode). storebench's
  // own diagnostics (the settings echo, where the result went) stay on stderr.
  ds_out_ = sysbench_ ? stderr : stdout;
}

namespace {

// The option's text, or `fallback` when the command has no such option (`run --plan`).
std::string TextOf(const config::OptionSet& o, const char* name, const char* fallback = "") {
  return o.Has(name) ? o.Text(name) : std::string(fallback);
}

// A duration as DVD Store 3 echoes its minutes ("1"), or as storebench writes it ("30s") when
// it is not whole minutes.
std::string MinutesOf(const config::OptionSet& o, const char* name) {
  if (!o.Has(name)) return "";
  const int64_t nanos = o.GetDurationNanos(name);
  constexpr int64_t kMinute = 60 * kNanosPerSecond;
  return nanos % kMinute == 0 ? std::to_string(nanos / kMinute) : o.Text(name);
}

}  // namespace

// DVD Store 3's first two lines (ds3xdriver.cs, Controller): the run's thread count and the
// echo of its parameters, with n_threads counting every target's threads.
void ConsoleReporter::PrintParameters(int64_t threads) {
  const config::OptionSet& o = common_;
  report::Ds3Parameters p;
  p.target = TextOf(o, "target", "localhost");
  if (setups_.size() > 1 && p.target == "localhost") {  // --db "URL1;URL2": the URLs are it
    p.target.clear();
    for (const auto& s : setups_) p.target += (p.target.empty() ? "" : ";") + s.url;
  }
  p.n_threads = std::to_string(threads);
  p.ramp_rate = TextOf(o, "ramp_rate");
  p.run_time = MinutesOf(o, "run_time");
  p.db_size = TextOf(o, "db_size");
  p.warmup_time = MinutesOf(o, "warmup_time");
  p.think_time = TextOf(o, "think_time");
  p.pct_newcustomers = TextOf(o, "pct_newcustomers");
  p.pct_newmember = TextOf(o, "pct_newmember");
  p.n_searches = TextOf(o, "n_searches");
  p.search_batch_size = TextOf(o, "search_batch_size");
  p.n_reviews = TextOf(o, "n_reviews");
  p.pct_newreviews = TextOf(o, "pct_newreviews");
  p.pct_newhelpfulness = TextOf(o, "pct_newhelpfulness");
  p.n_line_items = TextOf(o, "n_line_items");
  p.virt_dir = TextOf(o, "virt_dir", "ds3");
  p.page_type = TextOf(o, "page_type", "php");
  p.windows_perf_host = TextOf(o, "windows_perf_host");
  p.detailed_view = TextOf(o, "detailed_view", "N");
  p.linux_perf_host = TextOf(o, "linux_perf_host");
  p.out_filename = TextOf(o, "out_filename");
  p.ds2_mode = TextOf(o, "ds2_mode", "N");
  p.log_freq = TextOf(o, "log_freq");
  p.log_timestamp = TextOf(o, "log_timestamp", "NONE");
  DsLine(report::ThreadsTotalLine(threads));
  DsLine(report::FormatParameterLine(p));
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
  for (const auto& spec : specs) threads_total_ += spec.options.threads;
  speaks_ = speaks;
  if (ds3_ && speaks && progress_ == "human") PrintParameters(threads_total_);
  return Status::Ok();
}

void ConsoleReporter::OnThread(int64_t thread, const std::string& target, bool connected) {
  // Under mpirun, rank 0 alone (its own threads: each rank numbers its share from 0).
  if (!ds3_ || !speaks_ || progress_ != "human") return;
  std::lock_guard lock(threads_mu_);
  if (connected) {
    DsLine(report::ThreadConnectedLine(thread, target));
    return;
  }
  DsLine(report::ThreadCreatedLine(thread));
  // DS3's controller says so once every thread has started (before they all connect).
  if (++threads_created_ == threads_total_) {
    DsLine("Controller (" + report::FinalLineDateTime(std::chrono::system_clock::now()) +
           "): all threads running");
  }
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

// DS3 prints each target's status line only with detailed_view=Y, under a heading, each
// followed by a newline on stderr (ds3xdriver.cs, without a perf host).
void ConsoleReporter::OnInstanceStatus(const std::string& name, const metrics::StatusFigures& f) {
  if (progress_ != "human" || !ds3_ || !common_.Has("detailed_view") ||
      !common_.GetBool("detailed_view")) {
    return;
  }
  if (name == setups_[0].name) DsLine(std::string("\n") + report::kIndividualStatsLine);
  DsLine(report::FormatStatusLine(f, ""));
  std::fputc('\n', stderr);
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
  // DS3's closing: the Final line after an empty line (with several targets, each target's
  // under a heading), then (its threads have stopped) the controller's last line, the
  // purchases and rollbacks since Start (and per target), and "Run over" (ds3xdriver.cs).
  const auto now = std::chrono::system_clock::now();
  std::fprintf(ds_out_, "\n%s\n",
               report::FormatFinalLine(r, report::FinalLineDateTime(now)).c_str());
  const bool targets = ds3_ && setups_.size() > 1 && r.instances.size() == setups_.size();
  if (ds3_) std::fputc('\n', stderr);  // DS3 without a perf host
  if (targets) {
    DsLine(std::string("\n") + report::kIndividualStatsLine);
    for (const auto& in : r.instances) {
      DsLine(report::FormatTargetFinalLine(in));
      std::fputc('\n', stderr);
    }
  }
  if (charbench_) std::printf("%s", report::FormatCharbenchSummary(r).c_str());
  DsLine("Controller (" + report::FinalLineDateTime(now) + "): all threads stopped, exiting");
  if (const std::string line = first_.FromStartLine(outcome.whole_run); !line.empty()) {
    DsLine(line);
  }
  if (targets && outcome.instance_whole_run.size() == setups_.size()) {
    DsLine(std::string("\n") + report::kIndividualStatsLine);
    for (size_t i = 0; i < setups_.size(); ++i) {
      const std::string line = setups_[i].workload->FromStartLine(outcome.instance_whole_run[i]);
      if (!line.empty()) DsLine(line);
    }
  }
  std::printf("Run over\n");
  std::fflush(stdout);
}

// A peer tool's own result line (HammerDB's for TPC-C-like runs), per instance when several.
void ConsoleReporter::PrintResultLines(const metrics::RunResult& r, FILE* out) {
  const std::string& product =
      r.environment.count("db.product") ? r.environment.at("db.product") : std::string();
  if (setups_.size() > 1) {
    for (size_t i = 0; i < setups_.size(); ++i) {
      for (const auto& line : setups_[i].workload->ResultLines(r.instances[i].figures, product)) {
        std::fprintf(out, "  [%s] %s\n", setups_[i].name.c_str(), line.c_str());
      }
    }
    return;
  }
  for (const auto& line : first_.ResultLines(r.figures, product)) {
    std::fprintf(out, "%s\n", line.c_str());
  }
}

void ConsoleReporter::PrintSummary(const session::RunOutcome& outcome) {
  const metrics::RunResult& r = outcome.result;
  PrintClosing(outcome);
  // After DS3's "Run over", stdout stays DS3's: storebench's own summary goes to stderr
  // (`ds3xdriver ... | tail -1` and `grep opm= | tail -1` read what they read from DS3).
  FILE* out = ds3_ ? stderr : stdout;
  std::fflush(stdout);
  std::fprintf(out, "%s", report::FormatSummary(r).c_str());
  // A peer tool's own result line (HammerDB's) is that tool's output: on stdout.
  std::fflush(out);
  PrintResultLines(r, stdout);
  std::fflush(stdout);
  std::fprintf(out, "%s", report::FormatInstanceTable(r).c_str());
  if (!r.sut_cpu.source.empty()) {
    std::fprintf(out,
                 "  system under test CPU (%s): mean %.1f %%, max %.1f %% over the measured "
                 "window, %zu one-second points%s%s\n",
                 EscapeForTerminal(r.sut_cpu.source).c_str(), r.sut_cpu.measured_mean_pct,
                 r.sut_cpu.measured_max_pct, r.sut_cpu.points.size(),
                 r.sut_cpu.error.empty() ? "" : "; ", EscapeForTerminal(r.sut_cpu.error).c_str());
  }
  std::fprintf(out, "%s", FormatPowerSummary(r, first_.shape().headlines).c_str());
}

}  // namespace sb::cli
