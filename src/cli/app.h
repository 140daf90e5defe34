// The composition root: the only place that knows every concrete back end and workload.
#ifndef STOREBENCH_CLI_APP_H_
#define STOREBENCH_CLI_APP_H_

#include <atomic>
#include <map>
#include <string>
#include <vector>

#include "base/status.h"

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

// Facts about this machine and the file system holding `path` (host, cpu_model, cpu_count,
// kernel, filesystem).
std::map<std::string, std::string> CollectEnvironment(const std::string& path);

// Installs SIGINT/SIGTERM handlers that request a graceful stop; a second signal exits at once
// with 130. Returns the flag the handlers set.
const std::atomic<bool>* InstallStopHandlers();

// `storebench io prepare|run ...` (args after "io"); returns the process exit code.
int RunIoCommand(const std::vector<std::string>& args);
// `storebench run --plan FILE ...` (args after "run").
int RunPlanCommand(const std::vector<std::string>& args);
// `storebench power log|idle ...` (args after "power").
int RunPowerCommand(const std::vector<std::string>& args);
// `storebench consolidate --plan FILE --instances A..B ...` (args after "consolidate").
int RunConsolidateCommand(const std::vector<std::string>& args);

}  // namespace sb::cli

#endif  // STOREBENCH_CLI_APP_H_
