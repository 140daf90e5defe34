#include "session/exec_timed.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <nlohmann/json.hpp>

#include "base/child_signals.h"
#include "session/environment.h"

namespace sb::session {

namespace {

double Seconds(const timeval& tv) {
  return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
}

}  // namespace

Result<ExecOutcome> ExecTimed(const std::vector<std::string>& command, const Clock& clock) {
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
  const int64_t t0 = clock.NowNanos();
  // While the command runs, a stop signal is forwarded to it (base/child_signals.h); its
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
  const int64_t t1 = clock.NowNanos();
  out.stop_signal = stops.received();
  if (got == static_cast<ssize_t>(sizeof exec_errno)) {
    return Status::InvalidArgument("exec: cannot run '" + command[0] +
                                   "': " + std::strerror(exec_errno));
  }
  out.ended_at = WallClockIsoUtc();
  out.wall_sec = static_cast<double>(t1 - t0) / 1e9;
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

}  // namespace sb::session
