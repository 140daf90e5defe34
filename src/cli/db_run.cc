// The command line's side of a database run: the request from the options, the console while it
// runs (ConsoleReporter), the summary, the result files and the exit code. The run itself is
// session::RunDatabases.
#include "cli/db_run.h"

#include <cstdio>
#include <fstream>

#include "base/output_file.h"
#include "cli/app.h"
#include "cli/db_console.h"
#include "cli/power_cli.h"
#include "cli/result_document.h"
#include "dist/world.h"
#include "report/files/instance_series_csv.h"
#include "report/files/json_report.h"
#include "report/files/swingbench_results.h"
#include "storebench/session.h"
#include "workload/soe/soe_model.h"

namespace sb::cli {
namespace {

// The run's transaction types under Swingbench's names: Order Entry's its configuration's
// Transaction/Id ("Customer Registration"), any other workload's its step types' own.
std::vector<report::SwingbenchTransaction> SwingbenchTransactions(const metrics::RunResult& r) {
  std::vector<report::SwingbenchTransaction> out;
  for (size_t t = 1; t < r.type_names.size(); ++t)
    out.push_back({r.type_names[t], r.type_names[t]});
  if (r.workload == "soe") {
    for (auto& t : out) {
      for (int k = 0; k < soe::kNumTx; ++k) {
        if (t.type == soe::InfoOf(k).short_name) t.id = soe::InfoOf(k).id;
      }
    }
  }
  return out;
}

// --series_csv, --results_xml and the result document (--json or results/<timestamp>.json). Returns
// the exit code of a file that cannot be written, 0 when both are.
int WriteRunFiles(const config::OptionSet& common, const metrics::RunResult& r) {
  if (const std::string& path = common.GetString("series_csv"); !path.empty()) {
    if (Status s = WriteOutputFile(path, report::InstanceSeriesCsv(r), "the series CSV"); !s.ok()) {
      std::fprintf(stderr, "storebench: %s\n", s.message().c_str());
      return kExitFailure;
    }
  }
  if (const std::string& path = common.GetString("results_xml"); !path.empty()) {
    const std::string xml = report::SwingbenchResultsXml(r, "", SwingbenchTransactions(r));
    if (Status s = WriteOutputFile(path, xml, "Swingbench's results file"); !s.ok()) {
      std::fprintf(stderr, "storebench: %s\n", s.message().c_str());
      return kExitFailure;
    }
  }
  // Not Fail: under mpirun a failure after the run is this rank's alone.
  if (auto written = WriteResultDocument(common.GetString("json"), ".json", r); !written.ok()) {
    std::fprintf(stderr, "storebench: %s\n", written.status().message().c_str());
    return kExitFailure;
  }
  std::fflush(stdout);
  return kExitOk;
}

// The verdict of a run whose result is written: incomplete, interrupted, failed, a check or a
// baseline missed, or passed.
int RunExitCode(const session::RunOutcome& o) {
  const metrics::RunResult& r = o.result;
  if (!o.complete) {
    std::fprintf(stderr, "storebench: the run is incomplete: %s\n", o.lost.c_str());
    return kExitFailure;
  }
  if (r.interrupted || o.stopped_at_once) return kExitInterrupted;
  if (!o.run_status.ok()) {
    std::fprintf(stderr, "storebench: %s\n", o.run_status.message().c_str());
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

int RunDatabases(std::vector<DbSetup>& setups, const config::OptionSet& common,
                 metrics::RunResult* result, std::string* error) {
  session::RunRequest request;
  request.setups = &setups;
  request.common = &common;
  request.stop = InstallStopHandlers();
  request.at_once = StopAtOnceFlag(kResultStillWritten);
  request.group = dist::World();
  request.open_power = [&common](Clock& clock) { return OpenPower(common, clock); };
  ConsoleReporter console(setups, common);
  auto outcome = session::RunDatabases(request, console);
  if (!outcome.ok()) {
    if (error != nullptr) *error = outcome.status().message();
    return Fail(outcome.status());
  }
  if (!outcome->speaks) return outcome->complete ? kExitOk : kExitFailure;
  console.PrintSummary(*outcome);
  // A write of the status CSV that failed during the run ended it (run_status and the summary's
  // warning say so); one that fails now is said here, before a result that may fail too.
  const Status csv = console.CommitOutputs();
  if (!csv.ok() && outcome->run_status.ok()) {
    std::fprintf(stderr, "storebench: %s\n", csv.message().c_str());
  }
  int code = WriteRunFiles(common, outcome->result);
  if (code == kExitOk) {
    if (result != nullptr) *result = outcome->result;
    code = !csv.ok() && outcome->run_status.ok() ? kExitFailure : RunExitCode(*outcome);
  }
  // After every output is written: a scraper still gets the final counts meanwhile.
  console.LingerMetrics(*request.stop);
  return code;
}

}  // namespace sb::cli
