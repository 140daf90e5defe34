#include "cli/db_run.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <thread>

#include "backend/db/connect_error.h"
#include "backend/db/mysql/mysql_backend.h"
#include "backend/db/null/null_backend.h"
#include "backend/db/postgres/postgres_backend.h"
#include "backend/db/sqlite/sqlite_backend.h"
#include "base/clock.h"
#include "base/file_lock.h"
#include "base/strings.h"
#include "cli/app.h"
#include "cli/metrics_server.h"
#include "cli/power_cli.h"
#include "cli/result_path.h"
#include "cli/scale_out.h"
#include "dist/world.h"
#include "driver/run_options.h"
#include "power/summary.h"
#include "report/charbench_console.h"
#include "report/dvdstore_console.h"
#include "report/instance_series_csv.h"
#include "report/instances_console.h"
#include "report/json_report.h"
#include "report/live.h"
#include "report/sysbench_report.h"
#include "workload/dvdstore/dvdstore_workload.h"
#include "workload/noop/noop_workload.h"
#include "workload/oltp/oltp_workload.h"
#include "workload/soe/soe_workload.h"
#include "workload/tpcc/tpcc_workload.h"

namespace sb::cli {

using session::Named;

workload::WorkloadRegistry MakeWorkloads() {
  workload::WorkloadRegistry r;
  r.Register("dvdstore", "DVD Store 3 order loop",
             [] { return std::make_unique<dvdstore::DvdStoreWorkload>(); });
  r.Register("oltp", "sysbench-style OLTP", [] { return std::make_unique<oltp::OltpWorkload>(); });
  r.Register("soe", "Order Entry (Swingbench SOE): nine weighted transactions",
             [] { return std::make_unique<soe::SoeWorkload>(); });
  r.Register("tpcc", "TPC-C-like (NOPM/TPM as HammerDB reports them; not TPC results)",
             [] { return std::make_unique<tpcc::TpccWorkload>(); });
  r.Register("noop", "one trivial query per operation, to measure the harness",
             [] { return std::make_unique<noop::NoopWorkload>(); });
  return r;
}

db::BackendRegistry MakeBackends() {
  db::BackendRegistry r;
  r.Register("sqlite", db::OpenSqlite);
  r.Register("postgresql", db::OpenPostgres);
  r.Register("mysql", db::OpenMysql);
  r.Register("null", db::OpenNull);
  return r;
}

void DeclareCliOptions(config::OptionSet* o, const std::string& command,
                       const workload::WorkloadRegistry& workloads) {
  using config::OptionSpec;
  using config::OptionType;
  auto add = [&](OptionSpec s) {
    s.group = "general";
    o->Add(std::move(s));
  };
  auto str = [&](const char* name, const char* def, const char* help,
                 std::vector<std::string> aliases = {}) {
    add({.name = name, .aliases = std::move(aliases), .default_value = def, .help = help});
  };
  str("db", "", "database URL, e.g. sqlite:///tmp/ds.db (required)");
  add({.name = "workload",
       .type = OptionType::kEnum,
       .default_value = "dvdstore",
       .help = "the OLTP workload: " + workloads.Describe(),
       .choices = workloads.Names()});
  if (command == "load") {
    add({.name = "load_threads",
         .type = OptionType::kInt,
         .default_value = std::to_string(std::max(1u, std::thread::hardware_concurrency())),
         .help = "parallel data generator threads (default: cores)",
         .min = 1,
         .max = 256});
    add({.name = "index_threads",
         .type = OptionType::kInt,
         .default_value = std::to_string(std::max(1u, std::thread::hardware_concurrency())),
         .help =
             "connections building indexes and constraints after the data, one table (PostgreSQL: "
             "one index) on each at a time (default: cores; SQLite: always 1, it has one writer)",
         .min = 1,
         .max = 64});
    add({.name = "force",
         .type = OptionType::kBool,
         .default_value = "N",
         .help = "replace an existing storebench database of this workload"});
    str("csv_dir", "", "also write the generated rows as CSV files into this directory",
        {"csv-dir"});
    add({.name = "pristine",
         .type = OptionType::kBool,
         .default_value = "N",
         .help =
             "after the load, keep a pristine copy of the database that run --restore brings back "
             "(docs/consolidation.md)"});
    add({.name = "seed",
         .aliases = {"rand_seed"},
         .type = OptionType::kInt,
         .default_value = "1",
         .help = "data seed: the same seed and size give the same data"});
  }
  if (command == "run") {
    DeclareScaleOutOptions(o);
    add({.name = "restore",
         .type = OptionType::kBool,
         .default_value = "N",
         .help =
             "before the run, bring each database back to its pristine copy (kept by load "
             "--pristine=Y or oltp pristine); the time it takes is reported, not part of the run"});
    DeclarePowerOption(o);
    str("json", "", "result document path (default results/<timestamp>.json)");
    str("label", "",
        "a label recorded in the result (e.g. ft-on), by which storebench compare groups runs");
    str("out_filename", "", "also write the status lines as CSV (DVD Store)");
    str("series_csv", "",
        "also write the per-second series as CSV: instance, second, phase, headline metrics, "
        "unit p99, errors, each further type's p99, every counter, SUT CPU (one row per "
        "instance and second; a spreadsheet opens it as is)");
    add({.name = "progress",
         .type = OptionType::kEnum,
         .default_value = "human",
         .help = "live output: DVD Store status lines on stdout (sysbench's interval lines with "
                 "--workload oltp), one JSON object per second on stderr, or none",
         .choices = {"human", "json", "none"}});
    str("metrics_addr", "",
        "serve live figures in the Prometheus text format, e.g. 127.0.0.1:9464 (off by default)");
    add({.name = "log_timestamp",
         .type = OptionType::kEnum,
         .default_value = "NONE",
         .help = "prefix status lines with a UTC or local timestamp",
         .choices = {"NONE", "UTC", "LOCAL"}});
    // Accepted so DVD Store DriverConfig.txt files work unchanged; they do not apply here.
    auto compat = [&](const char* name, const char* def) {
      o->Add(
          {.name = name,
           .default_value = def,
           .help = "ignored",
           .group = "DVD Store compatibility (accepted, not used: storebench connects with --db)"});
    };
    o->Add(
        {.name = "target",
         .default_value = "localhost",
         .help =
             "DVD Store 3's target list: database hosts separated by ';' (host or host:port), each "
             "put in place of the host of --db, one instance per host, threads spread round robin; "
             "localhost (DS3's default) leaves --db as it is"});
    compat("virt_dir", "ds3");
    compat("page_type", "php");
    compat("windows_perf_host", "");
    compat("linux_perf_host", "");
    compat("detailed_view", "N");
    o->Add({.name = "n_stores",
            .type = OptionType::kInt,
            .default_value = "1",
            .help = "DS3.5 stores per database (only 1 is supported)",
            .group = "DVD Store compatibility (accepted, not used: storebench connects with --db)",
            .min = 1,
            .max = 1});
  }
}

Result<std::vector<std::string>> ExpandTargets(const std::string& db_url, const std::string& target,
                                               bool* ignored) {
  std::vector<std::string> hosts;
  for (const std::string& h : SplitTrimmed(target, ';')) {
    if (!h.empty()) hosts.push_back(h);
  }
  if (hosts.empty() || (hosts.size() == 1 && hosts[0] == "localhost")) {
    return std::vector<std::string>{db_url};
  }
  if (db_url.find(';') != std::string::npos) {
    if (hosts.size() == 1) return std::vector<std::string>{db_url};  // the list names them
    return Status::InvalidArgument(
        "--target and a list in --db both name several databases; give one of them");
  }
  const size_t scheme_end = db_url.find("://");
  const size_t authority = scheme_end == std::string::npos ? 0 : scheme_end + 3;
  const size_t path = db_url.find('/', authority);
  if (scheme_end == std::string::npos || path == authority) {
    // A file database has no host to put a target in: a DriverConfig.txt written for a
    // database server carries its host list, which means nothing here (the caller says so).
    if (ignored != nullptr) *ignored = true;
    return std::vector<std::string>{db_url};
  }
  const std::string auth =
      db_url.substr(authority, path == std::string::npos ? std::string::npos : path - authority);
  const size_t at = auth.rfind('@');
  const std::string user = at == std::string::npos ? "" : auth.substr(0, at + 1);
  const std::string host_port = at == std::string::npos ? auth : auth.substr(at + 1);
  const size_t colon = host_port.rfind(':');
  // "[::1]" has colons but no port; "[::1]:5432" and "db1:5432" have one.
  const bool bracketed_colon =
      !host_port.empty() && host_port.front() == '[' && host_port.find(']') > colon;
  const std::string port =
      colon == std::string::npos || bracketed_colon ? "" : host_port.substr(colon);
  const std::string rest = path == std::string::npos ? "" : db_url.substr(path);
  std::vector<std::string> urls;
  for (const std::string& h : hosts) {
    if (h.find_first_of("/@?#") != std::string::npos ||
        std::any_of(h.begin(), h.end(), [](unsigned char ch) { return ch < 0x20 || ch == 0x7f; })) {
      return Status::InvalidArgument("--target: '" + h +
                                     "' is not a host name (write host or host:port)");
    }
    const bool has_port =
        h.front() == '[' ? h.find("]:") != std::string::npos : h.find(':') != std::string::npos;
    urls.push_back(db_url.substr(0, authority) + user + h + (has_port ? "" : port) + rest);
  }
  return urls;
}

Result<std::unique_ptr<db::DbBackend>> OpenDatabase(const db::BackendRegistry& backends,
                                                    workload::Workload& workload,
                                                    const std::string& url, bool create,
                                                    int busy_timeout_ms) {
  if (url.empty()) {
    return Status::InvalidArgument(
        "no database given; add --db URL (e.g. --db sqlite:///tmp/ds.db)");
  }
  db::BackendOptions bo;
  bo.create_if_missing = create;
  bo.busy_timeout_ms = busy_timeout_ms;
  auto backend = backends.Open(url, bo);
  if (!backend.ok()) return backend.status();
  workload.UseDialect((*backend)->dialect());
  SB_RETURN_IF_ERROR(workload.CheckCapabilities((*backend)->capabilities()));
  return backend;
}

Result<std::unique_ptr<db::DbLock>> LockDatabase(const db::BackendRegistry& backends,
                                                 const std::string& url,
                                                 const std::string& command) {
  if (url.empty()) {
    return Status::InvalidArgument(
        "no database given; add --db URL (e.g. --db sqlite:///tmp/ds.db)");
  }
  // Opening a back end does not create anything (SQLite creates its file on connecting), so a
  // database a load is about to create can be locked first.
  db::BackendOptions bo;
  bo.create_if_missing = true;
  auto backend = backends.Open(url, bo);
  if (!backend.ok()) return backend.status();
  if (!(*backend)->capabilities().storebench_lock) return std::unique_ptr<db::DbLock>();
  auto parsed = db::ParseDbUrl(url);
  const std::string shown = parsed.ok() ? parsed->redacted : url;
  auto lock = (*backend)->TryLock(LockHolderText(command));
  if (lock.ok()) return lock;
  // A server that cannot be reached (down, wrong password, no such database) is that, not a
  // lock problem: its message names the server and what to check.
  if (db::IsConnectError(lock.status())) return lock.status();
  if (lock.status().code() != StatusCode::kFailedPrecondition) {
    return Status::FailedPrecondition(
        "cannot lock the database " + shown +
        " against other storebench processes: " + lock.status().message());
  }
  const std::string& holder = lock.status().message();
  if (holder.find("(pid " + std::to_string(::getpid()) + " on host ") != std::string::npos) {
    return Status::InvalidArgument("the database " + shown +
                                   " is named twice: each instance needs a database of its own");
  }
  return Status::FailedPrecondition("the database " + shown + " is in use by " + holder +
                                    "; wait for it or stop it");
}

namespace {

std::string DbPathForEnvironment(const std::string& url) {
  auto parsed = db::ParseDbUrl(url);
  return parsed.ok() && parsed->scheme == "sqlite" ? parsed->database : "";
}

std::string LoopModel(const driver::RunOptions& r, const workload::Workload& wl) {
  const std::string unit = wl.shape().unit_name;
  char buf[360];
  if (wl.terminals() > 0) {
    std::snprintf(buf, sizeof buf,
                  "terminals: %lld terminals on timers (the workload's keying and think times) "
                  "served by %d connections; %s latency measured from the terminal's due time "
                  "(waiting for a connection included), lag recorded separately",
                  static_cast<long long>(wl.terminals()), r.threads, unit.c_str());
  } else if (r.rate_per_sec > 0) {
    std::snprintf(buf, sizeof buf,
                  "open loop: %g %ss/s requested (%s arrivals) over %d threads; %s latency "
                  "measured from the intended start (queueing included), schedule lag recorded "
                  "separately",
                  r.rate_per_sec, unit.c_str(), r.poisson ? "Poisson" : "evenly spaced", r.threads,
                  unit.c_str());
  } else {
    std::snprintf(buf, sizeof buf,
                  "closed loop: %d threads, think time %.3g s mean (uniform [0, 2T)) after each "
                  "%s; response time = sum of the %s's timed database calls",
                  r.threads, r.think_time_sec, unit.c_str(), unit.c_str());
  }
  return buf;
}

}  // namespace

namespace {

Result<std::unique_ptr<db::DbBackend>> OpenForPristine(const db::BackendRegistry& backends,
                                                       const std::string& url) {
  auto backend = backends.Open(url, db::BackendOptions{});
  if (!backend.ok()) return backend.status();
  if (!(*backend)->capabilities().pristine_copy) {
    return Status::InvalidArgument("the back end of " + url +
                                   " keeps no pristine copies, so it cannot be restored");
  }
  return backend;
}

}  // namespace

Status RestoreDatabase(const db::BackendRegistry& backends, DbSetup* setup,
                       const std::string& command, bool several) {
  auto backend = OpenForPristine(backends, setup->url);
  if (!backend.ok()) return Named(backend.status(), *setup, several);
  SteadyClock clock;
  const int64_t start = clock.NowNanos();
  auto method = (*backend)->RestorePristine(&setup->lock, LockHolderText(command));
  if (!method.ok()) {
    Status s = method.status();
    if (s.code() == StatusCode::kFailedPrecondition &&
        s.message().find("has no pristine copy") != std::string::npos) {
      s = Status::FailedPrecondition(s.message() +
                                     "; take one of the database as it is with 'storebench oltp "
                                     "pristine --db URL', or load it with --pristine=Y");
    }
    return Named(s, *setup, several);
  }
  setup->restore_method = *method;
  setup->restore_seconds = static_cast<double>(clock.NowNanos() - start) / kNanosPerSecond;
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.2f", setup->restore_seconds);
  Progress((several ? "instance " + setup->name + ": " : std::string()) + "restored " + setup->url +
           " to its pristine copy in " + secs + " s (" + *method + "; not part of the run)");
  return Status::Ok();
}

Status SavePristineCopy(const db::BackendRegistry& backends, const std::string& url,
                        std::unique_ptr<db::DbLock>* lock, const std::string& command) {
  auto backend = OpenForPristine(backends, url);
  if (!backend.ok()) return backend.status();
  SteadyClock clock;
  const int64_t start = clock.NowNanos();
  auto method = (*backend)->SavePristine(lock, LockHolderText(command));
  if (!method.ok()) return method.status();
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.2f",
                static_cast<double>(clock.NowNanos() - start) / kNanosPerSecond);
  Progress("kept a pristine copy of " + url + " in " + secs + " s (" + *method +
           "); --restore brings the database back to it");
  return Status::Ok();
}

Status PrepareDatabase(const db::BackendRegistry& backends, DbSetup* setup, bool several) {
  workload::Workload& wl = *setup->workload;
  // A short busy timeout for the readiness checks: a database locked by another process is
  // reported at once instead of after the run's 30 s lock wait.
  auto probe = OpenDatabase(backends, wl, setup->url, false, 2000);
  if (!probe.ok()) return Named(probe.status(), *setup, several);
  auto conn = (*probe)->Connect();
  if (!conn.ok()) return Named(conn.status(), *setup, several);
  if (Status s = wl.CheckReady(**conn); !s.ok()) return Named(s, *setup, several);
  if (Status s = (*conn)->Begin(/*write=*/true); !s.ok()) {
    return Named(Status::FailedPrecondition("the database is locked by another process (" +
                                            s.message() + ")"),
                 *setup, several);
  }
  (*conn)->Rollback().IgnoreError();
  auto before = wl.Snapshot(**conn);
  if (!before.ok()) return Named(before.status(), *setup, several);
  setup->before = std::move(before).value();
  auto backend = OpenDatabase(backends, wl, setup->url, false, 30000);
  if (!backend.ok()) return Named(backend.status(), *setup, several);
  setup->backend = std::move(backend).value();
  auto info = setup->backend->Describe();
  if (info.ok()) setup->info = std::move(info).value();
  return Status::Ok();
}

Status CheckRunOptions(const std::vector<DbSetup>& setups) {
  for (const DbSetup& s : setups) {
    auto parsed = driver::RunOptionsFrom(*s.options, s.workload->max_failures(),
                                         s.workload->shape().headlines);
    if (!parsed.ok()) return Named(parsed.status(), s, setups.size() > 1);
  }
  return Status::Ok();
}

int RunDatabases(std::vector<DbSetup>& setups, const config::OptionSet& common,
                 metrics::RunResult* result) {
  const bool several = setups.size() > 1;
  auto built = session::InstanceSpecs(setups);
  if (!built.ok()) return Fail(built.status());
  std::vector<driver::DbInstanceSpec> specs = std::move(built).value();
  auto parsed = driver::RunOptionsFrom(common, setups[0].workload->max_failures(),
                                       setups[0].workload->shape().headlines);
  if (!parsed.ok()) return Fail(parsed.status());
  driver::RunOptions ro = std::move(parsed).value();
  ro.stop = InstallStopHandlers();
  ro.at_once = StopAtOnceFlag(kResultStillWritten);
  for (auto& spec : specs) spec.options.stop = ro.stop;
  // Under mpirun: the same effective configuration everywhere, then this rank's share.
  dist::Group* const group = dist::World();
  if (group != nullptr) {
    group->BeginRun();
    group->set_stop(ro.stop);
    group->set_timeout_nanos(common.GetDurationNanos("rank_timeout"));
    group->set_ready_timeout_nanos(ro.connect_timeout_nanos +
                                   common.GetDurationNanos("rank_timeout"));
    std::string effective = common.ToJson();
    for (const DbSetup& s : setups) effective += s.options->ToJson();
    if (Status s = group->CheckSame(effective, "effective configuration"); !s.ok()) {
      return Fail(s);
    }
    for (size_t i = 0; i < specs.size(); ++i) {
      driver::DbInstanceSpec& spec = specs[i];
      auto share = RankShare(common, spec.options.threads, "threads", static_cast<int>(i),
                             static_cast<int>(specs.size()));
      if (!share.ok()) return Fail(share.status());
      session::ScaleToRankShare(&spec, *share, group->rank());
    }
    ro.peers = group;
  }
  // Under mpirun rank 0 alone reads the power sources, writes the run's files and serves its
  // metrics: it has the whole run's figures, and ranks on one host would share a path or a port.
  const bool speaks = group == nullptr || group->coordinator();
  // Power sources are opened before anything is echoed or run: one that cannot be used ends the
  // command here (exit 2).
  SteadyClock clock;
  auto power =
      speaks ? OpenPower(common, clock) : Result<std::unique_ptr<power::PowerSampler>>(nullptr);
  if (!power.ok()) return Fail(power.status());
  std::unique_ptr<power::PowerSampler> sampler = std::move(power).value();
  std::fprintf(stderr, "%s\n", common.EchoLine().c_str());

  const std::string& ts_mode = common.GetString("log_timestamp");
  const report::LogTimestamp ts = ts_mode == "UTC"     ? report::LogTimestamp::kUtc
                                  : ts_mode == "LOCAL" ? report::LogTimestamp::kLocal
                                                       : report::LogTimestamp::kNone;
  std::unique_ptr<std::ofstream> csv;
  const std::string& csv_path = speaks ? common.GetString("out_filename") : std::string();
  if (!csv_path.empty()) {
    csv = std::make_unique<std::ofstream>(csv_path, std::ios::trunc);
    if (!*csv) return Fail(Status::InvalidArgument("cannot write out_filename '" + csv_path + "'"));
    *csv << report::CsvHeaderLine() << "\n";
  }
  const std::string& progress = common.GetString("progress");
  MetricsServer metrics_server;
  const std::string& metrics_addr = speaks ? common.GetString("metrics_addr") : std::string();
  if (!metrics_addr.empty()) {
    if (Status s = metrics_server.Start(metrics_addr); !s.ok()) return Fail(s);
    std::fprintf(stderr, "serving Prometheus metrics on port %d\n", metrics_server.port());
  }
  workload::Workload& first = *setups[0].workload;
  // sysbench's console for its users (--workload oltp): interval lines every --report-interval
  // seconds on stdout instead of DVD Store's status lines, and its final report.
  const bool sysbench = first.shape().sysbench_style;
  const int percentile = sysbench ? static_cast<int>(common.GetInt("percentile")) : 0;
  const int64_t report_every = common.GetInt("log_freq");
  const int64_t all_threads = common.GetInt("n_threads");
  report::SysbenchCounts since_line, measured;
  int64_t lines_printed = 0;
  metrics::Histogram interval_units;
  // DVD Store's stream layout: DS3 writes the controller's lines, status lines, thread
  // messages and the Final line to stdout ("ds3xdriver ... > run.log" keeps them all), DS2
  // everything but "Run over" to stderr (ds3xdriver.cs, ds2xdriver.cs). storebench's own
  // diagnostics (the settings echo, where the result went) stay on stderr.
  const bool ds2 = common.Has("ds2_mode") && common.GetBool("ds2_mode");
  FILE* const ds_out = sysbench || ds2 ? stderr : stdout;
  auto ds_line = [ds_out](const std::string& line) {
    std::fprintf(ds_out, "%s\n", EscapeForTerminal(line, /*keep_newlines=*/true).c_str());
    std::fflush(ds_out);
  };
  for (const std::string& w : first.Warnings()) std::fprintf(stderr, "warning: %s\n", w.c_str());
  // Swingbench-style workloads print charbench's line instead of DVD Store's status line.
  const bool charbench = first.shape().status_style == workload::StatusStyle::kCharbench;
  // Users: the workers, or the terminals they serve (Swingbench's pooled users).
  int64_t users = 0;
  for (const auto& spec : specs) {
    const int64_t terminals = spec.workload ? spec.workload->terminals() : 0;
    users += terminals > 0 ? terminals : spec.options.threads;
  }
  const metrics::TimeSeries* last_series = nullptr;
  bool header_printed = false;
  driver::RunCallbacks cb;
  // Thread messages (errors, retries, reconnects) are diagnostics, printed in every progress mode.
  cb.on_message = ds_line;
  cb.on_start = [&] {
    if (sysbench) {
      std::printf("Threads started!\n\n");  // sysbench's words before its interval lines
      std::fflush(stdout);
      return;
    }
    ds_line("Controller (" + report::FinalLineDateTime(std::chrono::system_clock::now()) +
            "): all threads connected - issuing Start");
  };
  cb.on_status = [&](const metrics::StatusFigures& f) {
    const std::string prefix = report::StatusTimestampPrefix(ts, std::chrono::system_clock::now());
    if (progress == "human" && charbench && last_series != nullptr) {
      if (!header_printed) {
        std::fprintf(stderr, "%s\n", report::CharbenchHeader(*last_series).c_str());
        header_printed = true;
      }
      std::fprintf(stderr, "%s\n",
                   report::FormatCharbenchLine(*last_series, users, ro.log_freq_sec,
                                               std::chrono::system_clock::now())
                       .c_str());
    } else if (progress == "human" && !sysbench) {
      ds_line(report::FormatStatusLine(f, prefix));
    }
    if (csv) *csv << report::FormatCsvLine(f, prefix) << "\n" << std::flush;
  };
  cb.on_instance_status = [&](const std::string& name, const metrics::StatusFigures& f) {
    if (progress == "human" && !sysbench) {
      ds_line("  " + report::FormatInstanceStatusLine(name, f, ""));
    }
  };
  if (sysbench) {
    cb.on_interval_units = [&](const metrics::Histogram& h) { interval_units = h; };
  }
  cb.on_interval = [&](const metrics::TimeSeries& series, const metrics::StatusFigures& running) {
    if (sysbench && !series.points.empty()) {
      const metrics::IntervalPoint& p = series.points.back();
      const double start =
          series.points.size() > 1 ? series.points[series.points.size() - 2].t_sec : 0.0;
      since_line.AddPoint(series, p);
      since_line.latency.Merge(interval_units);
      since_line.seconds += p.t_sec - start;
      if (p.phase == "measure") {
        measured.AddPoint(series, p);
        measured.latency.Merge(interval_units);
      }
      // A line at every multiple of --report-interval seconds since Start, as sysbench (the
      // samples land on whole seconds, a little late; phase boundaries fall in between).
      if (report_every > 0 && progress == "human") {
        const auto k = static_cast<int64_t>(std::floor((p.t_sec + 0.05) / report_every));
        if (k > lines_printed) {
          lines_printed = k;
          std::printf("%s\n", report::FormatSysbenchInterval(static_cast<double>(k * report_every),
                                                             all_threads, percentile, since_line)
                                  .c_str());
          std::fflush(stdout);
          since_line = report::SysbenchCounts();
        }
      }
    }
    last_series = &series;
    if (progress == "json") {
      std::fprintf(stderr, "%s\n", report::ProgressJsonLine(series, running).c_str());
    }
    if (!metrics_addr.empty()) {
      metrics_server.Update(report::PrometheusText(first.name(), series, running));
    }
  };

  if (sampler) {
    cb.on_phase = [&sampler](const std::string& mark) { sampler->Mark(mark); };
    sampler->Start();
  }
  driver::Runner runner(clock);
  driver::RunOutcome out = runner.RunMany(specs, ro, cb);
  if (sampler) {
    sampler->Mark("stop");
    sampler->Stop();
  }
  metrics::RunResult& r = out.result;
  if (!out.status.ok() && r.series.points.empty()) return Fail(out.status);
  bool complete = true;
  if (group != nullptr) {
    int64_t threads_here = 0;
    for (const auto& spec : specs) threads_here += spec.options.threads;
    std::vector<std::string> names;
    names.reserve(setups.size());
    for (const DbSetup& s : setups) names.push_back(s.name);
    complete = FinishScaleOut(*group, common, threads_here, r.measured_sec, names, &r);
    // Rank 0 verifies and reports the whole run; the others are done.
    if (!group->coordinator()) return complete ? kExitOk : kExitFailure;
  }
  if (sampler) {
    const auto sec = [&](int64_t at) { return static_cast<double>(at - out.t0) / 1e9; };
    r.power = power::SummarizePower(sampler->Recording(), out.t0,
                                    power::RunWindows(r, sec(out.reset_at), sec(out.end_at)),
                                    first.shape().headlines);
    r.choices["power"] =
        "each source read once a second on its own thread; a second's sum needs every source; "
        "a window's average is the mean of its complete seconds, its energy that average times "
        "its length";
  }

  r.workload = first.name();
  r.loop_model = LoopModel(specs[0].options, first);
  if (several) {
    r.loop_model = std::to_string(setups.size()) + " instances started together (instance " +
                   setups[0].name + ": " + r.loop_model + ")";
  }
  r.config_json = common.ToJson();
  r.label = common.GetString("label");
  r.environment = CollectEnvironment(DbPathForEnvironment(setups[0].url));
  if (setups[0].info) {
    r.environment["db.product"] = setups[0].info->product;
    r.environment["db.version"] = setups[0].info->version;
    for (const auto& [k, v] : setups[0].info->settings) r.environment["db.setting." + k] = v;
  }
  for (const auto& [k, v] : first.Choices()) r.choices[k] = v;  // keeps scale_out's
  for (const std::string& w : first.Warnings()) r.warnings.push_back(w);
  if (charbench)
    r.figures.emplace_back("maximum_tpm", report::MaximumTpm(r.series, r.measured_sec));
  r.choices["driver_cpu"] =
      "CPU of the storebench process; with an embedded database (SQLite) this includes the "
      "database engine's own work";
  r.choices["seed"] = std::to_string(ro.seed);
  for (size_t i = 0; i < setups.size(); ++i) {
    const DbSetup& s = setups[i];
    if (s.restore_seconds < 0) continue;
    if (several) {
      r.instances[i].restore_method = s.restore_method;
      r.instances[i].restore_seconds = s.restore_seconds;
    }
    r.restore_method = s.restore_method;
    r.restore_seconds = std::max(0.0, r.restore_seconds) + s.restore_seconds;
    r.choices["restore"] =
        "every database was brought back to its pristine copy before the run (--restore); the "
        "time that took is recorded under \"restore\" and is not part of the run";
  }
  if (several) {
    r.choices["instances"] =
        "every instance ran its own workers against its own database, all started together; the "
        "aggregate merges their histograms and counters exactly; a baseline passes when it "
        "passes for every instance";
    for (const DbSetup& s : setups) {
      if (s.workload->name() != first.name()) {
        r.choices["instances.aggregate"] =
            "the instances run different workloads: the aggregate figures merge the " +
            first.name() + " instances only; every instance has its own result";
      }
    }
    for (size_t i = 0; i < setups.size(); ++i) {
      r.instances[i].loop_model = LoopModel(specs[i].options, *setups[i].workload);
      r.instances[i].config_json = setups[i].options->ToJson();
    }
  }

  // Verify after every worker has finished, on a new connection (the server may have been
  // restarted during the run). A user who asked to stop at once gets the result without it.
  const bool at_once = ro.at_once->load();
  if (at_once) {
    r.warnings.push_back(
        "verification was skipped: a signal asked to stop at once (the result is what was "
        "gathered until then)");
  }
  for (size_t i = 0; i < setups.size() && !at_once; ++i) {
    DbSetup& s = setups[i];
    const workload::Totals& whole = out.instance_whole_run[i];
    auto verify_conn = s.backend->Connect();
    auto checks = verify_conn.ok() ? s.workload->Verify(**verify_conn, s.before, &whole)
                                   : Result<std::vector<workload::Check>>(verify_conn.status());
    metrics::RunResult& target = several ? r.instances[i] : r;
    if (checks.ok()) {
      for (const auto& ch : *checks) target.verify.push_back({ch.name, ch.passed, ch.detail});
    } else {
      target.verify.push_back({"verify", false, checks.status().message()});
    }
    if (several) {
      for (const auto& ch : target.verify) {
        r.verify.push_back({s.name + "." + ch.name, ch.passed, ch.detail});
      }
    }
  }

  if (sysbench) {
    measured.seconds = r.measured_sec;
    std::printf("\n");
    if (common.GetBool("histogram")) {
      std::printf("%s \n", report::FormatSysbenchHistogram(measured.latency).c_str());
    }
    std::printf("%s\n", report::FormatSysbenchReport(measured, percentile, r.threads).c_str());
  } else {
    // DS3's closing: the Final line after an empty line, then (its threads have stopped) the
    // controller's last line, the purchases and rollbacks since Start, and "Run over".
    const auto now = std::chrono::system_clock::now();
    std::fprintf(ds_out, "\n%s\n",
                 report::FormatFinalLine(r, report::FinalLineDateTime(now)).c_str());
    if (charbench) std::printf("%s", report::FormatCharbenchSummary(r).c_str());
    ds_line("Controller (" + report::FinalLineDateTime(now) + "): all threads stopped, exiting");
    if (const std::string line = first.FromStartLine(out.whole_run); !line.empty()) ds_line(line);
    std::printf("Run over\n");
    std::fflush(stdout);
  }
  std::printf("%s", report::FormatSummary(r).c_str());
  // A peer tool's own result line (HammerDB's for TPC-C-like runs), per instance when several.
  const std::string& product =
      r.environment.count("db.product") ? r.environment.at("db.product") : std::string();
  if (several) {
    for (size_t i = 0; i < setups.size(); ++i) {
      for (const auto& line : setups[i].workload->ResultLines(r.instances[i].figures, product)) {
        std::printf("  [%s] %s\n", setups[i].name.c_str(), line.c_str());
      }
    }
  } else {
    for (const auto& line : first.ResultLines(r.figures, product)) {
      std::printf("%s\n", line.c_str());
    }
  }
  std::printf("%s", report::FormatInstanceTable(r).c_str());
  if (!r.sut_cpu.source.empty()) {
    std::printf(
        "  system under test CPU (%s): mean %.1f %%, max %.1f %% over the measured "
        "window, %zu one-second points%s%s\n",
        EscapeForTerminal(r.sut_cpu.source).c_str(), r.sut_cpu.measured_mean_pct,
        r.sut_cpu.measured_max_pct, r.sut_cpu.points.size(), r.sut_cpu.error.empty() ? "" : "; ",
        EscapeForTerminal(r.sut_cpu.error).c_str());
  }
  std::printf("%s", FormatPowerSummary(r, first.shape().headlines).c_str());
  if (const std::string& path = common.GetString("series_csv"); !path.empty()) {
    std::ofstream out(path, std::ios::trunc);
    out << report::InstanceSeriesCsv(r);
    if (!out) {
      std::fprintf(stderr, "storebench: cannot write the series CSV '%s'\n", path.c_str());
      return kExitFailure;
    }
  }
  const std::string json_path = ResultPath(common.GetString("json"), ".json");
  if (Status s = report::WriteResultFile(json_path, r); !s.ok()) {
    std::fprintf(stderr, "storebench: %s\n", s.message().c_str());
    return kExitFailure;
  }
  std::fprintf(stderr, "result written to %s\n", json_path.c_str());
  std::fflush(stdout);
  if (result != nullptr) *result = r;
  if (!complete) {
    std::fprintf(stderr, "storebench: the run is incomplete: %s\n", group->LostSummary().c_str());
    return kExitFailure;
  }
  if (r.interrupted || at_once) return kExitInterrupted;
  if (!out.status.ok()) {
    std::fprintf(stderr, "storebench: %s\n", out.status.message().c_str());
    return kExitFailure;
  }
  for (const auto& ch : r.verify) {
    if (!ch.passed) return kExitFailure;
  }
  for (const auto& b : r.baselines) {
    if (!b.passed) {
      std::fprintf(stderr, "storebench: baseline failed: %s\n", b.words.c_str());
      return kExitFailure;
    }
  }
  return kExitOk;
}
}  // namespace sb::cli
