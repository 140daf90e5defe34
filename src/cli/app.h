// The composition root: the only place that knows every concrete back end and workload.
#ifndef STOREBENCH_CLI_APP_H_
#define STOREBENCH_CLI_APP_H_

#include <atomic>
#include <map>
#include <string>
#include <vector>

#include "metrics/run_result.h"
#include "report/comparison.h"
#include "session/environment.h"
#include "storebench/status.h"

namespace sb::cli {

// Exit codes.
constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;   // the run or a verification failed
constexpr int kExitBadInput = 2;  // bad option, config, size, database state
constexpr int kExitInterrupted = 130;

// Prints "storebench: <message>" to stderr and returns the exit code for `s`: bad input and
// unusable databases are 2, a signal 130, anything else 1. Control characters in the message
// are escaped (EscapeForTerminal), as in Progress.
int Fail(const Status& s);
// Fail() for an error that ends work already under way (a load): a database error there is the
// work failing (1), e.g. the server lost, not a database the user named that cannot be used.
int FailDuringWork(const Status& s);
// A progress or diagnostic line on stderr.
void Progress(const std::string& message);

// Runs the storebench command line; returns the process exit code.
int Main(int argc, char** argv);

// Facts about this machine (session/environment.h).
using session::CollectEnvironment;

// Installs SIGINT/SIGTERM/SIGQUIT handlers (signals.cc): the first SIGINT/SIGTERM requests a
// graceful stop, a second is only noted (supervisors such as GNU timeout send two), a third or
// SIGQUIT stops at once (see StopAtOnceFlag), and one after that exits 130 at once. Returns the
// stop flag.
const std::atomic<bool>* InstallStopHandlers();
// For a command with something to finish after a stop (a result to write; a batch of blocks to
// put back, io fragment): from this call on, the third signal (or SIGQUIT) does not exit but sets
// the returned flag, on which the command skips what is left but slow (verification, server
// cross-checks), writes what it has and exits 130. A command that never calls it exits 130 at
// the third signal. `finishing` (a string literal: the handlers print it) says what is still
// done, e.g. kResultStillWritten.
const std::atomic<bool>* StopAtOnceFlag(const char* finishing);
constexpr const char* kResultStillWritten = "the result so far is still written";
constexpr const char* kBatchStillPutBack = "the batch of blocks under way is still put back whole";

// `storebench io prepare|run ...` (args after "io"); returns the process exit code.
int RunIoCommand(const std::vector<std::string>& args);
// `storebench run --plan FILE ...` (args after "run").
int RunPlanCommand(const std::vector<std::string>& args);
// `storebench power log|idle ...` (args after "power").
int RunPowerCommand(const std::vector<std::string>& args);
// `storebench consolidate --plan FILE --instances A..B ...` (args after "consolidate").
int RunConsolidateCommand(const std::vector<std::string>& args);
// `storebench compare RESULT.json... | A=glob B=glob [options]` (args after "compare").
int RunCompareCommand(const std::vector<std::string>& args);
// `storebench exec [--label L] [--json F] -- COMMAND...` (args after "exec").
int RunExecCommand(const std::vector<std::string>& args);
// `storebench ab --a "..." --b "..." --rounds N [--between "..."]` (args after "ab").
int RunAbCommand(const std::vector<std::string>& args);
// `storebench report FILE.json... -o report.html` (args after "report").
int RunReportCommand(const std::vector<std::string>& args);

// The comparison of result files named on the command line: files grouped by their recorded
// label, or NAME=glob groups (compare_command.cc).
Result<report::Comparison> CompareFiles(const std::vector<std::string>& positional,
                                        const report::CompareOptions& options);

// What one timed command did (exec_command.cc).
struct ExecOutcome {
  std::string started_at, ended_at;  // ISO-8601 UTC
  double wall_sec = 0, user_sec = 0, system_sec = 0;
  int exit_status = 0;  // the command's, or 128 + signal when a signal ended it
  int signal = 0;
  // A stop signal storebench received and forwarded to the command (cli/child_signals.h).
  int stop_signal = 0;
};
// Runs `command` (argv, no shell) and waits for it. InvalidArgument when it cannot be started.
Result<ExecOutcome> ExecTimed(const std::vector<std::string>& command);
// The result document of a timed command: workload "exec", headlines wall_sec and cpu_sec.
metrics::RunResult ExecResult(const std::vector<std::string>& command, const std::string& label,
                              const ExecOutcome& outcome);

}  // namespace sb::cli

#endif  // STOREBENCH_CLI_APP_H_
