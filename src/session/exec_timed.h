// `storebench exec` and `ab`'s commands: any command run once and timed, and its result
// document, so compare and the report treat a timed command as they treat a database run
// (docs/compare.md).
#ifndef STOREBENCH_SESSION_EXEC_TIMED_H_
#define STOREBENCH_SESSION_EXEC_TIMED_H_

#include <string>
#include <vector>

#include "base/clock.h"
#include "metrics/run_result.h"
#include "storebench/status.h"

namespace sb::session {

// What one timed command did.
struct ExecOutcome {
  std::string started_at, ended_at;  // ISO-8601 UTC
  double wall_sec = 0, user_sec = 0, system_sec = 0;
  int exit_status = 0;  // the command's, or 128 + signal when a signal ended it
  int signal = 0;
  // A stop signal storebench received and forwarded to the command (base/child_signals.h).
  int stop_signal = 0;
};
// Runs `command` (argv, no shell) and waits for it; its wall time is read on `clock` just
// before the fork and after the wait. InvalidArgument when it cannot be started.
Result<ExecOutcome> ExecTimed(const std::vector<std::string>& command, const Clock& clock);
// The result document of a timed command: workload "exec", headlines wall_sec and cpu_sec.
metrics::RunResult ExecResult(const std::vector<std::string>& command, const std::string& label,
                              const ExecOutcome& outcome);

}  // namespace sb::session

#endif  // STOREBENCH_SESSION_EXEC_TIMED_H_
