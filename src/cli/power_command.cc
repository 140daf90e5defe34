// storebench power log|idle: power without a workload (docs/power.md).
//
//   power log  --power SPEC... [--duration D] [--csv FILE] [--json FILE]
//       samples every source once a second and prints a line per second until stopped (Ctrl-C)
//       or for D; the result file holds the readings.
//   power idle --power SPEC... [--duration 5m] [--settle 10m] [--repeat 3] [--json FILE]
//       active idle as SPEC and Principled Technologies measure it: everything up, no load;
//       each repetition waits `settle`, then records `duration`; the result is the median of the
//       repetitions' average watts (headline idle_w), beside which loaded runs are compared.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "base/limits.h"
#include "base/output_file.h"
#include "base/strings.h"
#include "base/units.h"
#include "cli/app.h"
#include "cli/command_inputs.h"
#include "cli/power_cli.h"
#include "cli/result_document.h"
#include "config/options.h"
#include "power/summary.h"
#include "report/files/instance_series_csv.h"
#include "report/files/json_report.h"
#include "session/output_paths.h"

namespace sb::cli {

namespace {

// Sleeps until `deadline` on `clock` or a stop request; false when stopped.
bool WaitUntil(Clock& clock, int64_t deadline, const std::atomic<bool>* stop,
               const std::function<void()>& each_second) {
  int64_t next_print = clock.NowNanos() + kNanosPerSecond;
  while (clock.NowNanos() < deadline) {
    if (stop != nullptr && stop->load()) return false;
    const int64_t step = std::min<int64_t>(100 * kNanosPerMilli, deadline - clock.NowNanos());
    if (step > 0) clock.SleepFor(step);
    if (each_second && clock.NowNanos() >= next_print) {
      each_second();
      next_print += kNanosPerSecond;
    }
  }
  return true;
}

// Waits (at most a second and a half) until every live source has finished tick `tick`: the
// reading of a window's last second is taken just after that second ends (power/summary.h), so
// stopping at the window's end would leave it missing.
void WaitForTick(Clock& clock, const power::PowerSampler& sampler, int64_t tick,
                 const std::atomic<bool>* stop) {
  std::vector<double> watts;
  const int64_t deadline = clock.NowNanos() + 3 * kNanosPerSecond / 2;
  while (sampler.Latest(&watts) < tick && clock.NowNanos() < deadline && !stop->load()) {
    clock.SleepFor(10 * kNanosPerMilli);
  }
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Outputs checked before the measurement (which may last long), against each other and
// against every file read: the config file, csv: logs, password files.
Status CheckPowerOutputs(const config::OptionSet& o, const std::vector<std::string>& rest) {
  std::vector<PathUse> inputs = ConfigFileInputs(rest);
  for (PathUse& f : PowerInputs(o.GetString("power"))) inputs.push_back(std::move(f));
  const std::string& json = o.GetString("json");
  const std::vector<PathUse> outputs = {
      {json.empty() ? "the result file" : "--json",
       json.empty() ? "results/" + WallClockLocal(/*compact=*/true) + "-power.json" : json,
       /*creates_parents=*/true, /*replaces=*/true},
      {"--csv", o.GetString("csv")}};
  return CheckOutputPaths(inputs, outputs);
}

// `power idle`'s figure: the median of the repetitions' averages, printed.
void SetIdleHeadline(metrics::RunResult* r) {
  std::vector<double> averages;
  for (const metrics::PowerWindow& w : r->power.windows) {
    if (w.seconds > 0) averages.push_back(w.avg_w);
    r->figures.emplace_back("idle_w_" + w.label.substr(5), w.avg_w);
  }
  const double median = Median(averages);
  r->headline_name = "idle_w";
  r->headline_value = median;
  r->headlines = {{"idle_w", median}};
  r->choices["power.idle"] =
      "active idle: nothing run by storebench; each repetition settles, then records; idle_w "
      "is the median of the repetitions' average watts";
  std::printf("idle: %.1f W (median of %zu repetition(s))\n", median, averages.size());
}

}  // namespace

constexpr const char* kPowerUsage =
    "usage: storebench power log --power SPEC [--duration D] [--csv FILE] [--json FILE]\n"
    "       storebench power idle --power SPEC [--duration 5m] [--settle 10m] [--repeat N]\n"
    "       storebench power log|idle --help   (all options)\n"
    "\n"
    "  log    a line per second from every source until stopped (Ctrl-C) or for --duration\n"
    "  idle   active idle: everything up, no load; the median watts of --repeat recordings\n"
    "(docs/power.md)\n";

int RunPowerCommand(const std::vector<std::string>& args) {
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h" || args[0] == "help")) {
    std::fputs(kPowerUsage, stdout);  // asked for: stdout, exit 0
    return kExitOk;
  }
  if (args.empty() || (args[0] != "log" && args[0] != "idle")) {
    std::fprintf(stderr, "storebench: 'power' needs log or idle\n%s", kPowerUsage);
    return kExitBadInput;
  }
  const std::string& command = args[0];
  config::OptionSet o;
  o.set_help_command("storebench power " + command + " --help");
  DeclarePowerCommandOptions(&o, command);
  std::vector<std::string> rest(args.begin() + 1, args.end());
  for (const auto& a : rest) {
    if (a == "--help" || a == "-h") {
      std::printf("usage: storebench power %s --power SPEC [options]\n\n%s", command.c_str(),
                  o.HelpText().c_str());
      return kExitOk;
    }
  }
  if (Status s = config::ParseCommandLine(rest, &o); !s.ok()) return Fail(s);
  if (o.GetString("power").empty()) {
    return Fail(Status::InvalidArgument("power " + command + " needs at least one --power SPEC"));
  }
  if (Status s = CheckPowerOutputs(o, rest); !s.ok()) return Fail(s);
  SteadyClock clock;
  auto opened = OpenPower(o, clock);
  if (!opened.ok()) return Fail(opened.status());
  std::unique_ptr<power::PowerSampler> sampler = std::move(opened).value();
  const std::atomic<bool>* stop = InstallStopHandlers();
  StopAtOnceFlag(kResultStillWritten);
  std::fprintf(stderr, "%s\n", o.EchoLine().c_str());

  metrics::RunResult r;
  r.workload = command == "idle" ? "power_idle" : "power_log";
  r.started_at = WallClockIsoUtc();
  const int64_t t0 = clock.NowNanos();
  sampler->Start();
  std::vector<double> latest;
  int64_t printed = -1;
  const auto print_latest = [&] {
    const int64_t k = sampler->Latest(&latest);
    if (k <= printed) return;
    printed = k;
    double sum = 0;
    std::string line = "power " + std::to_string(k) + " s:";
    for (double w : latest) {
      sum += w;
      char buf[32];
      std::snprintf(buf, sizeof buf, " %.1f", w);
      line += std::isnan(w) ? std::string(" -") : std::string(buf);
    }
    char buf[48];
    std::snprintf(buf, sizeof buf, "  sum %.1f W", sum);
    Progress(line + (std::isnan(sum) ? "  sum -" : buf));
  };

  std::vector<power::PowerWindowSpec> windows;
  bool stopped = false;
  if (command == "log") {
    const int64_t d = o.GetDurationNanos("duration");
    const int64_t end = d > 0 ? t0 + d : INT64_MAX;
    stopped = !WaitUntil(clock, end, stop, print_latest);
  } else {
    const int64_t settle = o.GetDurationNanos("settle");
    const int64_t duration = o.GetDurationNanos("duration");
    if (duration <= 0) return Fail(Status::InvalidArgument("power idle needs --duration > 0"));
    int64_t at = t0;
    for (int64_t i = 1; i <= o.GetInt("repeat") && !stopped; ++i) {
      sampler->Mark("settle " + std::to_string(i));
      Progress("idle " + std::to_string(i) + ": settling for " + FormatDuration(settle));
      stopped = !WaitUntil(clock, at + settle, stop, nullptr);
      if (stopped) break;
      sampler->Mark("idle " + std::to_string(i));
      Progress("idle " + std::to_string(i) + ": recording for " + FormatDuration(duration));
      const double start = static_cast<double>(at + settle - t0) / 1e9;
      stopped = !WaitUntil(clock, at + settle + duration, stop, print_latest);
      if (stopped) break;
      windows.push_back(
          {"idle " + std::to_string(i), start, start + static_cast<double>(duration) / 1e9, {}});
      at += settle + duration;
    }
  }
  // The tick that ends the last window: `power log --duration 2s` averages ticks 1 and 2.
  int64_t last_tick = -1;
  if (command == "log" && o.GetDurationNanos("duration") > 0) {
    last_tick = (o.GetDurationNanos("duration") + kNanosPerSecond - 1) / kNanosPerSecond;
  } else if (!windows.empty()) {
    last_tick = static_cast<int64_t>(std::ceil(windows.back().end_sec - 1e-9));
  }
  if (!stopped && last_tick >= 0) WaitForTick(clock, *sampler, last_tick, stop);
  sampler->Mark("stop");
  sampler->Stop();
  r.ended_at = WallClockIsoUtc();
  r.interrupted = stopped;
  const double end_sec = static_cast<double>(clock.NowNanos() - t0) / 1e9;
  if (command == "log") {
    // With --duration, the log is that long (the wait for its last reading is no part of it).
    const double d = static_cast<double>(o.GetDurationNanos("duration")) / 1e9;
    windows.push_back({"log", 0, d > 0 && !stopped ? d : end_sec, {}});
  }
  r.power = power::SummarizePower(sampler->Recording(), t0, windows, {});
  r.measured_sec = end_sec;
  r.config_json = o.ToJson();
  r.environment = CollectEnvironment(".");
  if (command == "idle") {
    SetIdleHeadline(&r);
  } else {
    r.headline_name = "avg_w";
    r.headline_value = r.power.windows.empty() ? 0 : r.power.windows[0].avg_w;
    r.headlines = {{"avg_w", r.headline_value}};
  }
  std::printf("%s", FormatPowerSummary(r, {}).c_str());
  std::fflush(stdout);
  if (const std::string& path = o.GetString("csv"); !path.empty()) {
    if (Status s = WriteOutputFile(path, report::PowerSeriesCsv(r.power), "the CSV"); !s.ok()) {
      return Fail(s);
    }
  }
  if (auto written = WriteResultDocument(o.GetString("json"), "-power.json", r); !written.ok()) {
    return Fail(written.status());
  }
  // A stop signal ends every command with 130 (README, "Exit status"), `power log` without a
  // duration too: its recording is written all the same.
  if (stopped) return kExitInterrupted;
  return kExitOk;
}

}  // namespace sb::cli
