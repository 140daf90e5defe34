// storebench exec: any command as a timed workload (docs/compare.md). The command's wall time,
// CPU time and exit status become a result document like any run's, so compare and the report
// treat a kernel compile with a setting on and off as they treat two database runs.
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/output_file.h"
#include "cli/app.h"
#include "cli/command_inputs.h"
#include "cli/command_options.h"
#include "cli/power_cli.h"
#include "cli/result_document.h"
#include "config/options.h"
#include "power/summary.h"
#include "report/files/instance_series_csv.h"
#include "report/files/json_report.h"
#include "session/exec_timed.h"
#include "session/output_paths.h"

namespace sb::cli {

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
  auto o = ExecTimed(command, clock);
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
  if (auto written = WriteResultDocument(json, ".json", r); !written.ok()) {
    return Fail(written.status());
  }
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
