#include "cli/db_console.h"

#include <chrono>
#include <cmath>
#include <memory>
#include <utility>

#include "base/strings.h"
#include "cli/builtins.h"
#include "cli/power_cli.h"
#include "cli/sysbench_options.h"
#include "report/console/instances_console.h"
#include "report/console/live.h"
#include "report/console/prometheus_text.h"
#include "version/version.h"

namespace sb::cli {
namespace {

report::LogTimestamp LogTimestampOf(const std::string& mode) {
  return mode == "UTC"     ? report::LogTimestamp::kUtc
         : mode == "LOCAL" ? report::LogTimestamp::kLocal
                           : report::LogTimestamp::kNone;
}

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

// DVD Store 3's parameter echo (ds3xdriver.cs, Controller) from the options; n_threads is set
// when the run's thread count is known.
report::Ds3Parameters Ds3ParametersOf(const config::OptionSet& o,
                                      const std::vector<session::DbSetup>& setups) {
  report::Ds3Parameters p;
  p.target = TextOf(o, "target", "localhost");
  if (setups.size() > 1 && p.target == "localhost") {  // --db "URL1;URL2": the URLs are it
    p.target.clear();
    for (const auto& s : setups) p.target += (p.target.empty() ? "" : ";") + s.url;
  }
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
  return p;
}

}  // namespace

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
  settings.detailed_view = common.Has("detailed_view") && common.GetBool("detailed_view");
  settings.ds3_parameters = Ds3ParametersOf(common, setups);
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
    // Written beside its path and renamed over it after the run (base/output_stream.h): a full
    // disk ends the run instead of leaving a CSV cut short.
    auto opened = OutputStream::Open(csv_path, "--out_filename");
    if (!opened.ok()) return opened.status();
    csv_ = std::move(opened).value();
    csv_->Append(report::CsvHeaderLine() + "\n");
  }
  metrics_addr_ = speaks ? common_.GetString("metrics_addr") : std::string();
  if (!metrics_addr_.empty()) {
    SB_RETURN_IF_ERROR(metrics_server_.Start(metrics_addr_));
    std::fprintf(stderr, "serving Prometheus metrics on port %d\n", metrics_server_.port());
  }
  for (const std::string& w : first_.Warnings()) std::fprintf(stderr, "warning: %s\n", w.c_str());
  // Users: the workers, or the terminals they serve (Swingbench's pooled users).
  report::RunStart start;
  for (const auto& spec : specs) {
    const int64_t terminals = spec.workload ? spec.workload->terminals() : 0;
    start.users += terminals > 0 ? terminals : spec.options.threads;
    start.threads += spec.options.threads;
  }
  start.log_freq_sec = ro.log_freq_sec;
  start.speaks = speaks;
  start.first_instance = setups_[0].name;
  style_->Begin(start);
  return Status::Ok();
}

void ConsoleReporter::OnThread(int64_t thread, const std::string& target, bool connected) {
  if (style_) style_->OnThread(thread, target, connected);
}

void ConsoleReporter::OnStart() {
  if (style_) style_->OnStart();
}

void ConsoleReporter::OnStatus(const metrics::StatusFigures& f) {
  const std::string prefix = report::StatusTimestampPrefix(ts_, std::chrono::system_clock::now());
  if (style_) style_->OnStatus(f, prefix);
  if (csv_) csv_->Append(report::FormatCsvLine(f, prefix) + "\n");
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
}

void ConsoleReporter::OnLiveTotals(std::vector<metrics::LiveTotals> totals) {
  // Instances are labelled whenever they have names of their own: several, or a plan's.
  const bool label_instances = setups_.size() > 1 || setups_[0].name != "1";
  auto shared = std::make_shared<const std::vector<metrics::LiveTotals>>(std::move(totals));
  metrics_server_.Update(
      [shared, label_instances] { return report::PrometheusText(*shared, label_instances); });
}

void ConsoleReporter::LingerMetrics(const std::atomic<bool>& stop) {
  if (metrics_addr_.empty()) return;
  metrics_server_.Linger(common_.GetDurationNanos("metrics_linger"), stop);
}

}  // namespace sb::cli
