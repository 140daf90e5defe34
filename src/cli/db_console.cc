#include "cli/db_console.h"

#include <chrono>
#include <cmath>

#include "base/strings.h"
#include "cli/power_cli.h"
#include "cli/sysbench_options.h"
#include "report/console/instances_console.h"
#include "report/console/live.h"
#include "version/version.h"

namespace sb::cli {
namespace {

report::LogTimestamp LogTimestampOf(const std::string& mode) {
  return mode == "UTC"     ? report::LogTimestamp::kUtc
         : mode == "LOCAL" ? report::LogTimestamp::kLocal
                           : report::LogTimestamp::kNone;
}

}  // namespace

report::ConsoleRegistry MakeConsoles() {
  report::ConsoleRegistry r;
  r.Register("dvdstore", report::NewDvdStoreConsole);
  r.Register("sysbench", report::NewSysbenchConsole);
  r.Register("charbench", report::NewCharbenchConsole);
  r.Register("hammerdb", report::NewHammerDbConsole);
  return r;
}

ConsoleReporter::ConsoleReporter(const std::vector<session::DbSetup>& setups,
                                 const config::OptionSet& common)
    : setups_(setups),
      common_(common),
      first_(*setups[0].workload),
      progress_(common.GetString("progress")),
      ts_(LogTimestampOf(common.GetString("log_timestamp"))) {
  // sysbench's options (--percentile, --histogram) are declared for its workloads only.
  report::ConsoleSettings settings;
  settings.human = progress_ == "human";
  settings.ds2 = common.Has("ds2_mode") && common.GetBool("ds2_mode");
  settings.percentile =
      common.Has("percentile") ? static_cast<int>(common.GetInt("percentile")) : 0;
  settings.report_every = common.GetInt("log_freq");
  settings.threads = common.GetInt("n_threads");
  settings.histogram = common.Has("histogram") && common.GetBool("histogram");
  settings.quiet = common.Has("verbosity") && common.GetInt("verbosity") < 3;
  report::SysbenchHeader& h = settings.sysbench_header;
  h.using_what = std::string("storebench ") + version::Version();
  h.threads = settings.threads;
  h.rate = common.Has("rate") ? common.GetDouble("rate") : 0;
  h.report_interval = settings.report_every;
  h.seed = common.Has("seed") ? common.GetInt("seed") : 0;
  if (common.Has("forced_shutdown")) {
    const int64_t time_sec = common.GetDurationNanos("run_time") / kNanosPerSecond;
    auto forced = ForcedShutdownSeconds(common.GetString("forced_shutdown"), time_sec);
    if (forced.ok() && *forced >= 0) h.forced_shutdown = time_sec + *forced;
  }
  auto style = MakeConsoles().Create(first_.shape().console, settings);
  if (style.ok()) {
    style_ = std::move(*style);
  } else {
    style_status_ = style.status();
  }
}

void ConsoleReporter::DsLine(const std::string& line) const {
  if (style_) style_->Line(line);
}

Status ConsoleReporter::Begin(const std::vector<driver::DbInstanceSpec>& specs,
                              const driver::RunOptions& ro, bool speaks) {
  SB_RETURN_IF_ERROR(style_status_);
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
  int64_t users = 0;
  for (const auto& spec : specs) {
    const int64_t terminals = spec.workload ? spec.workload->terminals() : 0;
    users += terminals > 0 ? terminals : spec.options.threads;
  }
  style_->Begin(users, ro.log_freq_sec);
  return Status::Ok();
}

void ConsoleReporter::OnStart() {
  if (style_) style_->OnStart();
}

void ConsoleReporter::OnStatus(const metrics::StatusFigures& f) {
  const std::string prefix = report::StatusTimestampPrefix(ts_, std::chrono::system_clock::now());
  if (style_) style_->OnStatus(f, prefix);
  if (csv_) *csv_ << report::FormatCsvLine(f, prefix) << "\n" << std::flush;
}

void ConsoleReporter::OnInstanceStatus(const std::string& name, const metrics::StatusFigures& f) {
  if (style_) style_->OnInstanceStatus(name, f);
}

void ConsoleReporter::OnInterval(const metrics::TimeSeries& series,
                                 const metrics::StatusFigures& running) {
  if (style_) style_->OnInterval(series);
  if (progress_ == "json") {
    std::fprintf(stderr, "%s\n", report::ProgressJsonLine(series, running).c_str());
  }
  if (!metrics_addr_.empty()) {
    metrics_server_.Update(report::PrometheusText(first_.name(), series, running));
  }
}

void ConsoleReporter::PrintClosing(const session::RunOutcome& outcome) {
  if (!style_) return;
  const workload::Shape& shape = first_.shape();
  report::WholeRunCounts whole_run;
  whole_run.step_types = shape.step_types;
  for (const auto& t : outcome.whole_run.types) whole_run.types.push_back(t.count);
  whole_run.counters = outcome.whole_run.counters;
  whole_run.rollback_counter = shape.rollback_counter;
  style_->Close(outcome.result, whole_run);
}

// A peer tool's own result lines (HammerDB's for TPC-C-like runs), from the console style each
// instance's workload names, per instance when several. The server's product names the database
// in them; the back end's dialect stands in when the server told none.
void ConsoleReporter::PrintResultLines(const metrics::RunResult& r) {
  const std::string& product =
      r.environment.count("db.product") ? r.environment.at("db.product") : std::string();
  const auto lines = [&](const session::DbSetup& setup, const metrics::RunResult& figures_of) {
    auto style = MakeConsoles().Create(setup.workload->shape().console, report::ConsoleSettings());
    if (!style.ok()) return std::vector<std::string>();
    const std::string db = !product.empty() ? product
                           : setup.backend  ? setup.backend->dialect()
                                            : std::string();
    return (*style)->ResultLines(figures_of.figures, db);
  };
  if (setups_.size() > 1) {
    for (size_t i = 0; i < setups_.size(); ++i) {
      for (const auto& line : lines(setups_[i], r.instances[i])) {
        std::printf("  [%s] %s\n", setups_[i].name.c_str(), line.c_str());
      }
    }
    return;
  }
  for (const auto& line : lines(setups_[0], r)) std::printf("%s\n", line.c_str());
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
