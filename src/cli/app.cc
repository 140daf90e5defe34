#include "cli/app.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <thread>

#include "backend/db/mysql/mysql_backend.h"
#include "backend/db/null/null_backend.h"
#include "backend/db/postgres/postgres_backend.h"
#include "backend/db/registry.h"
#include "backend/db/sqlite/sqlite_backend.h"
#include "base/clock.h"
#include "cli/command_paths.h"
#include "cli/metrics_server.h"
#include "cli/result_path.h"
#include "cli/status_line.h"
#include "config/options.h"
#include "driver/load.h"
#include "driver/run_options.h"
#include "driver/runner.h"
#include "report/dvdstore_console.h"
#include "report/json_report.h"
#include "report/live.h"
#include "report/load_progress.h"
#include "workload/dvdstore/dvdstore_workload.h"
#include "workload/noop/noop_workload.h"
#include "workload/oltp/oltp_workload.h"

namespace sb::cli {
namespace {

constexpr const char* kUsage =
    "usage: storebench oltp load|run|verify --db URL [options]\n"
    "       storebench oltp run --help     (all options)\n"
    "       storebench version\n"
    "\n"
    "  load    generate a DVD Store database and load it (--db_size=S|M|L|<n>MB|<n>GB)\n"
    "  run     run the DVD Store order loop and print DS3 status and Final lines\n"
    "  verify  check the database's consistency after runs\n"
    "\n"
    "Databases: sqlite:///path/to/file.db\n";

db::BackendRegistry MakeRegistry() {
  db::BackendRegistry r;
  r.Register("sqlite", db::OpenSqlite);
  r.Register("postgresql", db::OpenPostgres);
  r.Register("mysql", db::OpenMysql);
  r.Register("null", db::OpenNull);
  return r;
}

// Options of the command line itself (not of the driver or a workload).
void DeclareCliOptions(config::OptionSet* o, const std::string& command) {
  using config::OptionSpec;
  using config::OptionType;
  auto add = [&](OptionSpec s) {
    s.group = "general";
    o->Add(std::move(s));
  };
  auto str = [&](const char* name, const char* def, const char* help,
                 std::vector<std::string> aliases = {}) {
    OptionSpec s;
    s.name = name;
    s.aliases = std::move(aliases);
    s.default_value = def;
    s.help = help;
    add(s);
  };
  str("db", "", "database URL, e.g. sqlite:///tmp/ds.db (required)");
  {
    OptionSpec s;
    s.name = "workload";
    s.type = OptionType::kEnum;
    s.choices = {"dvdstore", "oltp", "noop"};
    s.default_value = "dvdstore";
    s.help =
        "the OLTP workload: dvdstore, oltp (sysbench-style), noop (one trivial query per "
        "operation, to measure the harness)";
    add(s);
  }
  if (command == "load") {
    OptionSpec t;
    t.name = "load_threads";
    t.type = OptionType::kInt;
    t.min = 1;
    t.max = 256;
    t.default_value = std::to_string(std::max(1u, std::thread::hardware_concurrency()));
    t.help = "parallel data generator threads (default: cores)";
    add(t);
    OptionSpec f;
    f.name = "force";
    f.type = OptionType::kBool;
    f.default_value = "N";
    f.help = "replace an existing storebench database of this workload";
    add(f);
    str("csv_dir", "", "also write the generated rows as CSV files into this directory",
        {"csv-dir"});
    OptionSpec seed;
    seed.name = "seed";
    seed.type = OptionType::kInt;
    seed.default_value = "1";
    seed.help = "data seed: the same seed and size give the same data";
    add(seed);
  }
  if (command == "run") {
    str("json", "", "result document path (default results/<timestamp>.json)");
    str("out_filename", "", "also write the status lines as CSV (DVD Store)");
    {
      OptionSpec pr;
      pr.name = "progress";
      pr.type = OptionType::kEnum;
      pr.choices = {"human", "json", "none"};
      pr.default_value = "human";
      pr.help =
          "live output on stderr: DVD Store status lines, one JSON object per second, or none";
      add(pr);
    }
    str("metrics_addr", "",
        "serve live figures in the Prometheus text format, e.g. 127.0.0.1:9464 (off by default)");
    OptionSpec ts;
    ts.name = "log_timestamp";
    ts.type = OptionType::kEnum;
    ts.choices = {"NONE", "UTC", "LOCAL"};
    ts.default_value = "NONE";
    ts.help = "prefix status lines with a UTC or local timestamp";
    add(ts);
    // Accepted so DVD Store DriverConfig.txt files work unchanged; they do not apply here.
    auto compat = [&](const char* name, const char* def) {
      OptionSpec s;
      s.name = name;
      s.default_value = def;
      s.group = "DVD Store compatibility (accepted, not used: storebench connects with --db)";
      s.help = "ignored";
      o->Add(s);
    };
    compat("target", "localhost");
    compat("virt_dir", "ds3");
    compat("page_type", "php");
    compat("windows_perf_host", "");
    compat("linux_perf_host", "");
    compat("detailed_view", "N");
    OptionSpec stores;
    stores.name = "n_stores";
    stores.type = OptionType::kInt;
    stores.default_value = "1";
    stores.min = 1;
    stores.max = 1;
    stores.group = "DVD Store compatibility (accepted, not used: storebench connects with --db)";
    stores.help = "DS3.5 stores per database (only 1 is supported)";
    o->Add(stores);
  }
}

struct Context {
  config::OptionSet options;
  std::unique_ptr<workload::Workload> owned_workload;
  workload::Workload& workload() { return *owned_workload; }
  db::BackendRegistry registry = MakeRegistry();
  std::string command;
};

Result<std::unique_ptr<db::DbBackend>> OpenDb(Context& c, bool create, int busy_timeout_ms) {
  const std::string& url = c.options.GetString("db");
  if (url.empty()) {
    return Status::InvalidArgument(
        "no database given; add --db URL (e.g. --db sqlite:///tmp/ds.db)");
  }
  db::BackendOptions bo;
  bo.create_if_missing = create;
  bo.busy_timeout_ms = busy_timeout_ms;
  auto backend = c.registry.Open(url, bo);
  if (!backend.ok()) return backend.status();
  c.workload().UseDialect((*backend)->dialect());
  SB_RETURN_IF_ERROR(c.workload().CheckCapabilities((*backend)->capabilities()));
  return backend;
}

std::string DbPathForEnvironment(const std::string& url) {
  auto parsed = db::ParseDbUrl(url);
  return parsed.ok() && parsed->scheme == "sqlite" ? parsed->database : "";
}

int Load(Context& c) {
  auto backend = OpenDb(c, /*create=*/true, 30000);
  if (!backend.ok()) return Fail(backend.status());
  workload::LoadContext ctx;
  ctx.threads = static_cast<int>(c.options.GetInt("load_threads"));
  ctx.force = c.options.GetBool("force");
  ctx.csv_dir = c.options.GetString("csv_dir");
  ctx.seed = static_cast<uint64_t>(c.options.GetInt("seed"));
  ctx.stop = InstallStopHandlers();
  // Rewritten each second on a terminal; a plain line every 10 s in a log.
  StatusLine line(stderr, isatty(STDERR_FILENO) == 1, 10);
  ctx.progress = [&line](const std::string& m) { line.Message(m); };
  driver::LoadProgress progress;
  progress.on_sample = [&line](const metrics::LoadSample& s) {
    line.Update(report::FormatLoadProgress(s), /*force=*/s.data_done);
  };
  SteadyClock clock;
  driver::LoadOutcome out = driver::RunLoad(c.workload(), **backend, ctx, clock, progress);
  line.End();
  if (!out.status.ok()) return FailDuringWork(out.status);
  const double secs = out.seconds > 0 ? out.seconds : 1;
  std::printf(
      "loaded %s into %s: %lld rows in %.1f s (%.0f rows/s; %.1f MB of row text, %.1f MB/s)\n",
      c.workload().Describe().c_str(), c.options.GetString("db").c_str(),
      static_cast<long long>(out.rows), out.seconds, static_cast<double>(out.rows) / secs,
      static_cast<double>(out.bytes) / 1e6, static_cast<double>(out.bytes) / 1e6 / secs);
  return kExitOk;
}

Status CheckDatabase(Context& c, db::DbBackend& backend, std::unique_ptr<db::Connection>* conn) {
  auto opened = backend.Connect();
  if (!opened.ok()) return opened.status();
  *conn = std::move(opened).value();
  return c.workload().CheckReady(**conn);
}

int Verify(Context& c) {
  auto backend = OpenDb(c, false, 3000);
  if (!backend.ok()) return Fail(backend.status());
  std::unique_ptr<db::Connection> conn;
  if (Status s = CheckDatabase(c, **backend, &conn); !s.ok()) return Fail(s);
  auto checks = c.workload().Verify(*conn, {}, nullptr);
  if (!checks.ok()) return Fail(checks.status());
  bool all = true;
  for (const auto& ch : *checks) {
    std::printf("verify %-24s %s  %s\n", ch.name.c_str(), ch.passed ? "PASS" : "FAIL",
                ch.detail.c_str());
    all = all && ch.passed;
  }
  std::printf("verify: %s\n", all ? "all checks passed" : "FAILED");
  return all ? kExitOk : kExitFailure;
}

std::string LoopModel(const driver::RunOptions& r, const std::string& unit) {
  char buf[360];
  if (r.rate_per_sec > 0) {
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

int Run(Context& c) {
  if (c.options.GetDouble("think_time") < 0) {
    return Fail(Status::InvalidArgument("option think_time must not be negative"));
  }
  if (c.options.GetDouble("rate") < 0) {
    return Fail(Status::InvalidArgument("option rate must not be negative"));
  }
  // A short busy timeout for the readiness checks: a database locked by another process is
  // reported at once instead of after the run's 30 s lock wait.
  auto probe_backend = OpenDb(c, false, 2000);
  if (!probe_backend.ok()) return Fail(probe_backend.status());
  std::unique_ptr<db::Connection> conn;
  if (Status s = CheckDatabase(c, **probe_backend, &conn); !s.ok()) return Fail(s);
  if (Status s = conn->Begin(/*write=*/true); !s.ok()) {
    return Fail(Status::FailedPrecondition("the database is locked by another process (" +
                                           s.message() + ")"));
  }
  conn->Rollback().IgnoreError();
  auto before = c.workload().Snapshot(*conn);
  if (!before.ok()) return Fail(before.status());
  auto backend = OpenDb(c, false, 30000);
  if (!backend.ok()) return Fail(backend.status());
  auto info = (*backend)->Describe();

  auto parsed = driver::RunOptionsFrom(c.options, c.workload().max_failures());
  if (!parsed.ok()) return Fail(parsed.status());
  driver::RunOptions ro = std::move(parsed).value();
  ro.stop = InstallStopHandlers();
  std::fprintf(stderr, "%s\n", c.options.EchoLine().c_str());

  const std::string ts_mode = c.options.GetString("log_timestamp");
  const report::LogTimestamp ts = ts_mode == "UTC"     ? report::LogTimestamp::kUtc
                                  : ts_mode == "LOCAL" ? report::LogTimestamp::kLocal
                                                       : report::LogTimestamp::kNone;
  std::unique_ptr<std::ofstream> csv;
  const std::string csv_path = c.options.GetString("out_filename");
  if (!csv_path.empty()) {
    csv = std::make_unique<std::ofstream>(csv_path, std::ios::trunc);
    if (!*csv) return Fail(Status::InvalidArgument("cannot write out_filename '" + csv_path + "'"));
    *csv << report::CsvHeaderLine() << "\n";
  }
  const std::string progress = c.options.GetString("progress");
  MetricsServer metrics_server;
  const std::string metrics_addr = c.options.GetString("metrics_addr");
  if (!metrics_addr.empty()) {
    if (Status s = metrics_server.Start(metrics_addr); !s.ok()) return Fail(s);
    std::fprintf(stderr, "serving Prometheus metrics on port %d\n", metrics_server.port());
  }
  driver::RunCallbacks cb;
  // Thread messages (errors, retries, reconnects) are diagnostics, printed in every progress mode.
  cb.on_message = Progress;
  cb.on_status = [&](const metrics::StatusFigures& f) {
    const std::string prefix = report::StatusTimestampPrefix(ts, std::chrono::system_clock::now());
    if (progress == "human")
      std::fprintf(stderr, "%s\n", report::FormatStatusLine(f, prefix).c_str());
    if (csv) *csv << report::FormatCsvLine(f, prefix) << "\n" << std::flush;
  };
  cb.on_interval = [&](const metrics::TimeSeries& series, const metrics::StatusFigures& running) {
    if (progress == "json") {
      std::fprintf(stderr, "%s\n", report::ProgressJsonLine(series, running).c_str());
    }
    if (!metrics_addr.empty()) {
      metrics_server.Update(report::PrometheusText(c.workload().name(), series, running));
    }
  };

  SteadyClock clock;
  driver::Runner runner(c.workload(), **backend, clock);
  driver::RunOutcome out = runner.Run(ro, cb);
  metrics::RunResult& r = out.result;
  if (!out.status.ok() && r.series.points.empty()) return Fail(out.status);

  r.workload = c.workload().name();
  r.loop_model = LoopModel(ro, c.workload().shape().unit_name);
  r.config_json = c.options.ToJson();
  r.environment = CollectEnvironment(DbPathForEnvironment(c.options.GetString("db")));
  if (info.ok()) {
    r.environment["db.product"] = info->product;
    r.environment["db.version"] = info->version;
    for (const auto& [k, v] : info->settings) r.environment["db.setting." + k] = v;
  }
  r.choices = c.workload().Choices();
  r.choices["driver_cpu"] =
      "CPU of the storebench process; with an embedded database (SQLite) this includes the "
      "database engine's own work";
  r.choices["seed"] = std::to_string(ro.seed);

  // Verify after every worker has finished, on a new connection (the server may have been
  // restarted during the run).
  auto verify_conn = (*backend)->Connect();
  auto checks = verify_conn.ok() ? c.workload().Verify(**verify_conn, *before, &out.whole_run)
                                 : Result<std::vector<workload::Check>>(verify_conn.status());
  if (checks.ok()) {
    for (const auto& ch : *checks) r.verify.push_back({ch.name, ch.passed, ch.detail});
  } else {
    r.verify.push_back({"verify", false, checks.status().message()});
  }

  std::printf("\n%s\n", report::FormatFinalLine(
                            r, report::FinalLineDateTime(std::chrono::system_clock::now()))
                            .c_str());
  std::printf("%s", report::FormatSummary(r).c_str());
  const std::string json_path = ResultPath(c.options.GetString("json"), ".json");
  if (Status s = report::WriteResultFile(json_path, r); !s.ok()) {
    std::fprintf(stderr, "storebench: %s\n", s.message().c_str());
    return kExitFailure;
  }
  std::fprintf(stderr, "result written to %s\n", json_path.c_str());
  std::fflush(stdout);
  if (r.interrupted) return kExitInterrupted;
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

}  // namespace

int Main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::fputs(kUsage, args.empty() ? stderr : stdout);
    return args.empty() ? kExitBadInput : kExitOk;
  }
  if (args[0] == "version" || args[0] == "--version") {
    std::printf("storebench %s\n", report::ToolVersion());
    return kExitOk;
  }
  if (args[0] == "io") return RunIoCommand({args.begin() + 1, args.end()});
  if (args[0] != "oltp") {
    std::fprintf(stderr, "storebench: unknown command '%s'\n%s", args[0].c_str(), kUsage);
    return kExitBadInput;
  }
  if (args.size() < 2 || (args[1] != "load" && args[1] != "run" && args[1] != "verify")) {
    std::fprintf(stderr, "storebench: 'oltp' needs one of load, run, verify\n%s", kUsage);
    return kExitBadInput;
  }
  Context c;
  c.command = args[1];
  // The workload decides which options exist, so find --workload before parsing the rest.
  std::string workload_name = "dvdstore";
  for (size_t i = 2; i < args.size(); ++i) {
    if (args[i].rfind("--workload=", 0) == 0) workload_name = args[i].substr(11);
    if (args[i] == "--workload" && i + 1 < args.size()) workload_name = args[i + 1];
  }
  if (workload_name == "noop") {
    c.owned_workload = std::make_unique<noop::NoopWorkload>();
  } else if (workload_name == "oltp") {
    c.owned_workload = std::make_unique<oltp::OltpWorkload>();
  } else {
    c.owned_workload = std::make_unique<dvdstore::DvdStoreWorkload>();
  }
  DeclareCliOptions(&c.options, c.command);
  c.workload().DeclareOptions(&c.options);
  if (c.command == "run") driver::DeclareRunOptions(&c.options);
  std::vector<std::string> rest(args.begin() + 2, args.end());
  for (const auto& a : rest) {
    if (a == "--help" || a == "-h") {
      std::printf("usage: storebench oltp %s --db URL [options]\n\n%s", c.command.c_str(),
                  c.options.HelpText().c_str());
      return kExitOk;
    }
  }
  if (Status s = config::ParseCommandLine(rest, &c.options); !s.ok()) return Fail(s);
  if (Status s = c.workload().Configure(c.options); !s.ok()) return Fail(s);
  if (Status s = CheckOltpPaths(c.command, c.options, rest); !s.ok()) return Fail(s);
  if (c.command == "load") return Load(c);
  if (c.command == "verify") return Verify(c);
  return Run(c);
}

}  // namespace sb::cli
