// The console after a database run (ConsoleReporter::PrintSummary): the console style's closing,
// storebench's summary, the peer tools' result lines, the instance table, the SUT CPU and the
// power lines. The console while it runs is db_console.cc.
#include <cstdio>

#include "base/strings.h"
#include "cli/builtins.h"
#include "cli/db_console.h"
#include "cli/power_cli.h"
#include "report/console/instances_console.h"

namespace sb::cli {

void ConsoleReporter::PrintClosing(const session::RunOutcome& outcome) {
  if (!style_) return;
  const workload::Shape& shape = first_.shape();
  auto counts = [&shape](const workload::Totals& totals) {
    report::WholeRunCounts w;
    w.step_types = shape.step_types;
    for (const auto& t : totals.types) w.types.push_back(t.count);
    w.counters = totals.counters;
    w.rollback_counter = shape.rollback_counter;
    return w;
  };
  std::vector<report::WholeRunCounts> per_instance;
  if (setups_.size() > 1 && outcome.instance_whole_run.size() == setups_.size()) {
    for (const auto& totals : outcome.instance_whole_run) per_instance.push_back(counts(totals));
  }
  style_->Close(outcome.result, counts(outcome.whole_run), per_instance);
}

// A peer tool's own result lines (HammerDB's for TPC-C-like runs), from the console style each
// instance's workload names, per instance when several. The server's product (each instance's
// own) names the database in them; the back end's dialect stands in when the server told none.
void ConsoleReporter::PrintResultLines(const metrics::RunResult& r, FILE* out) {
  const auto lines = [&](const session::DbSetup& setup, const metrics::RunResult& figures_of) {
    const auto known = figures_of.environment.find("db.product");
    const std::string product =
        known != figures_of.environment.end() ? known->second : std::string();
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
        std::fprintf(out, "  [%s] %s\n", setups_[i].name.c_str(), line.c_str());
      }
    }
    return;
  }
  for (const auto& line : lines(setups_[0], r)) std::fprintf(out, "%s\n", line.c_str());
}

void ConsoleReporter::PrintSummary(const session::RunOutcome& outcome) {
  const metrics::RunResult& r = outcome.result;
  PrintClosing(outcome);
  // After DS3's "Run over", stdout stays DS3's: storebench's own summary goes to stderr
  // (`ds3xdriver ... | tail -1` and `grep opm= | tail -1` read what they read from DS3).
  FILE* out = style_ && style_->SummaryOnStderr() ? stderr : stdout;
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
