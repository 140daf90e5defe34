// The outputs of `storebench io run`: the console header before the tests, the console report
// after them (table, details, power, windows, baselines), the result document (JSON) and the
// optional Iometer results CSV and time-series CSV, and the exit code they settle
// (docs/storage.md, docs/output-schema.md).
#ifndef STOREBENCH_CLI_IO_RUN_OUTPUT_H_
#define STOREBENCH_CLI_IO_RUN_OUTPUT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "config/options.h"
#include "driver/io_run_config.h"
#include "metrics/run_result.h"
#include "power/sampler.h"
#include "session/io_run_plan.h"

namespace sb::cli {

// A storage test's Start, ramp end and last sample on the run's clock (nanos).
struct TestTimes {
  int64_t t0 = 0, reset_at = 0, end_at = 0;
};

// What the tests of a run left for the outputs.
struct IoRunRecord {
  // The tests' figures, the run's times, its measured seconds, warnings, power and (under
  // mpirun) every rank's figures; the outputs add the rest.
  metrics::RunResult result;
  // Iometer's results file: a time stamp at the run's start and one after each test.
  std::string start_stamp;
  std::vector<std::string> stamps;
  std::vector<TestTimes> times;  // one per test that ran
};

// The settings line of the console header, also the result's choice "storage.settings":
// engine, workers x targets x outstanding I/Os, submit batch, O_DIRECT, alignment, open loop,
// each target's test range, ramp, run, data pattern and seed.
std::string IoRunSettingsText(const config::OptionSet& o, const driver::IoRunConfig& c);

// The header on stdout before the first test: tests and targets, `settings`, the preset's
// description and the ICF note.
void PrintIoRunHeader(const session::IoRunPlan& plan, const std::string& settings);

// The power section of a storage run: time from the first test's Start; per test a window over
// its measured time, labelled with its name, with its IOPS and MiB/s, and its reporting windows
// labelled "<test> <window>".
metrics::PowerResult StoragePower(const power::PowerRecording& rec,
                                  const std::vector<metrics::StorageTest>& tests,
                                  const std::vector<TestTimes>& times);

// The report on stdout after the tests: the Iometer-style table, each test's details, the
// power lines, and each test's windows and baselines.
void PrintIoRunReport(const metrics::RunResult& r);

// Completes the result: each baseline combined over the specifications (a rule passes when it
// passes for every one), the headline (the first specification's IOPS), the loop model, the
// configuration, label and environment, the choices (with `settings`) and the driver's CPU.
void DescribeIoRun(const config::OptionSet& o, const session::IoRunPlan& plan,
                   const driver::IoRunConfig& c, const std::string& settings,
                   metrics::RunResult* r);

// Writes the result document (--json, else results/<timestamp>-io.json), then --csv and
// --series_csv when given. Returns `rc` (the tests' exit code), or Fail's code when a file
// cannot be written: a result document that cannot be written ends the outputs there.
int WriteIoRunFiles(const config::OptionSet& o, const session::IoRunPlan& plan,
                    const IoRunRecord& rec, int rc);

// The run's exit code: `rc` when it is not kExitOk; else kExitFailure when a test had I/O
// errors, or when a baseline failed (the first failed one named on stderr: the report named
// them all); else kExitOk.
int IoRunExitCode(const metrics::RunResult& r, int rc);

}  // namespace sb::cli

#endif  // STOREBENCH_CLI_IO_RUN_OUTPUT_H_
