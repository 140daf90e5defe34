// storebench exec: any command as a timed workload (docs/compare.md). The command's wall time,
// CPU time and exit status become a result document like any run's, so compare and the report
// treat a kernel compile with a setting on and off as they treat two database runs.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/output_file.h"
#include "cli/app.h"
#include "cli/child_signals.h"
#include "cli/command_inputs.h"
#include "cli/command_options.h"
#include "cli/output_paths.h"
#include "cli/power_cli.h"
#include "cli/result_path.h"
#include "config/options.h"
#include "power/summary.h"
#include "report/instance_series_csv.h"
#include "report/json_report.h"

namespace sb::cli {

namespace {

double Seconds(const timeval& tv) {
  return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
}

}  // namespace

Result<ExecOutcome> ExecTimed(const std::vector<std::string>& command) {
  if (command.empty()) return Status::InvalidArgument("exec: no command given after --");
  // The child reports a failed execvp through a close-on-exec pipe: a command that cannot be
  // started is bad input (exit 2), not a result with exit status 127.
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    return Status::IoError(std::string("exec: pipe: ") + std::strerror(errno));
  }
  std::vector<char*> argv;
  argv.reserve(command.size() + 1);
  for (const std::string& a : command) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  ExecOutcome out;
  out.started_at = WallClockIsoUtc();
  const auto t0 = std::chrono::steady_clock::now();
  // While the command runs, a stop signal is forwarded to it (cli/child_signals.h); its
  // outcome is recorded and the caller exits 130.
  ForwardedStops stops;
  const pid_t pid = ::fork();
  if (pid == 0) {
    stops.InChild();
    ::close(fds[0]);
    ::execvp(argv[0], argv.data());
    const int err = errno;
    (void)!::write(fds[1], &err, sizeof err);
    ::_exit(127);
  }
  ::close(fds[1]);
  if (pid > 0) stops.Forwarding(pid);
  if (pid < 0) {
    const int err = errno;
    ::close(fds[0]);
    return Status::IoError(std::string("exec: fork: ") + std::strerror(err));
  }
  int exec_errno = 0;
  ssize_t got = 0;
  while ((got = ::read(fds[0], &exec_errno, sizeof exec_errno)) < 0 && errno == EINTR) {
  }
  ::close(fds[0]);
  int status = 0;
  rusage usage{};
  while (::wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  const auto t1 = std::chrono::steady_clock::now();
  out.stop_signal = stops.received();
  if (got == static_cast<ssize_t>(sizeof exec_errno)) {
    return Status::InvalidArgument("exec: cannot run '" + command[0] +
                                   "': " + std::strerror(exec_errno));
  }
  out.ended_at = WallClockIsoUtc();
  out.wall_sec = std::chrono::duration<double>(t1 - t0).count();
  out.user_sec = Seconds(usage.ru_utime);
  out.system_sec = Seconds(usage.ru_stime);
  if (WIFEXITED(status)) {
    out.exit_status = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    out.signal = WTERMSIG(status);
    out.exit_status = 128 + out.signal;
  }
  return out;
}

metrics::RunResult ExecResult(const std::vector<std::string>& command, const std::string& label,
                              const ExecOutcome& o) {
  metrics::RunResult r;
  r.workload = "exec";
  r.label = label;
  r.started_at = o.started_at;
  r.ended_at = o.ended_at;
  r.loop_model = "one command, run once (storebench exec)";
  const double cpu = o.user_sec + o.system_sec;
  r.headline_name = "wall_sec";
  r.headline_value = o.wall_sec;
  r.headlines = {{"wall_sec", o.wall_sec}, {"cpu_sec", cpu}};
  metrics::HeadlineSpec wall;
  wall.name = "wall_sec";
  wall.words = "wall-clock time of the command (s)";
  metrics::HeadlineSpec cpu_spec;
  cpu_spec.name = "cpu_sec";
  cpu_spec.words = "user + system CPU time of the command and its waited-for children (s)";
  r.headline_specs = {wall, cpu_spec};
  r.figures = {{"exit_status", o.exit_status}, {"signal", o.signal},
               {"wall_sec", o.wall_sec},       {"cpu_sec", cpu},
               {"user_sec", o.user_sec},       {"system_sec", o.system_sec}};
  nlohmann::ordered_json config;
  config["command"] = command;
  r.config_json = config.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  r.environment = CollectEnvironment(".");
  r.choices["cpu_time"] =
      "user + system CPU of the command and of every process it waited for (wait4)";
  r.choices["wall_time"] = "steady clock from just before fork to the command's end";
  r.measured_sec = o.wall_sec;
  r.workers_started = 1;
  std::string detail = "exit status " + std::to_string(o.exit_status);
  if (o.signal != 0) detail += " (killed by signal " + std::to_string(o.signal) + ")";
  r.verify.push_back({"exit_status", o.exit_status == 0, detail});
  if (o.stop_signal != 0) {
    // Stopped by storebench's own stop signal, forwarded to the command: what it did until
    // then is the result, marked as cut short.
    r.interrupted = true;
    r.warnings.push_back(std::string("stopped by ") +
                         (o.stop_signal == SIGINT    ? "SIGINT"
                          : o.stop_signal == SIGQUIT ? "SIGQUIT"
                                                     : "SIGTERM") +
                         ", forwarded to the command's process group");
  }
  return r;
}

int RunExecCommand(const std::vector<std::string>& args) {
  if (AsksForHelp(args)) {
    std::fputs(ExecHelp().c_str(), stdout);
    return kExitOk;
  }
  auto parsed = ParseExecArgs(args);
  if (!parsed.ok()) return Fail(parsed.status());
  const config::OptionSet& power_options = parsed->options;
  const std::string &label = power_options.GetString("label"),
                    &json = power_options.GetString("json"),
                    &series_csv = power_options.GetString("series_csv");
  const std::vector<std::string>& command = parsed->command;
  if (command.empty()) {
    std::fputs(ExecHelp().c_str(), stderr);
    return kExitBadInput;
  }
  // A timed command's only per-second figures are its power readings.
  if (!series_csv.empty() && power_options.GetString("power").empty()) {
    return Fail(Status::InvalidArgument(
        "exec: --series_csv needs --power: without it a timed command has no per-second "
        "figures"));
  }
  // The outputs are checked before the command runs, as every run's are (README, "Exit
  // status"): a mistyped path must not cost a long command's result. Without --json only the
  // results/ directory matters.
  const std::string result_path =
      json.empty() ? "results/" + WallClockLocal(/*compact=*/true) + ".json" : json;
  if (Status s = CheckOutputPaths(PowerInputs(power_options.GetString("power")),
                                  {{json.empty() ? "the result file" : "--json", result_path,
                                    /*creates_parents=*/true, /*replaces=*/true},
                                   {"--series_csv", series_csv}});
      !s.ok()) {
    return Fail(s);
  }
  // Power sources are opened before the command starts: one that cannot be used ends exec here
  // (exit 2) and the command never runs.
  SteadyClock clock;
  auto power = OpenPower(power_options, clock);
  if (!power.ok()) return Fail(power.status());
  std::unique_ptr<power::PowerSampler> sampler = std::move(power).value();
  if (sampler) sampler->Start();
  // t0 after Start: the sampler's first reading (taken at Start) falls before the command's
  // window (0, wall], which is the command's own time alone.
  const int64_t t0 = clock.NowNanos();
  auto o = ExecTimed(command);
  if (sampler) sampler->Stop();
  if (!o.ok()) return Fail(o.status());
  metrics::RunResult r = ExecResult(command, label, *o);
  if (sampler) {
    // One window, the command's wall time, without per-watt figures (seconds per watt means
    // nothing): its average power and energy are the figures of a timed command.
    r.power = power::SummarizePower(sampler->Recording(), t0, {{"measured", 0, o->wall_sec, {}}},
                                    r.headline_specs);
    r.choices["power"] =
        "each source read once a second on its own thread; a second's sum needs every source; "
        "the command's average is the mean of the complete seconds within its wall time, its "
        "energy that average times the wall time";
  }
  std::printf("exec: exit status %d, wall %.3f s, CPU %.3f s (user %.3f, system %.3f)\n",
              o->exit_status, o->wall_sec, o->user_sec + o->system_sec, o->user_sec, o->system_sec);
  std::printf("%s", FormatPowerSummary(r, r.headline_specs).c_str());
  const std::string path = ResultPath(json, ".json");
  if (Status s = report::WriteResultFile(path, r); !s.ok()) return Fail(s);
  std::fprintf(stderr, "result written to %s\n", path.c_str());
  if (!series_csv.empty()) {
    if (Status s = WriteOutputFile(series_csv, report::PowerSeriesCsv(r.power), "--series_csv");
        !s.ok()) {
      return Fail(s);
    }
  }
  if (o->stop_signal != 0) return kExitInterrupted;
  return o->exit_status == 0 ? kExitOk : kExitFailure;
}

}  // namespace sb::cli
