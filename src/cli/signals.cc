// Stop signals (SIGINT, SIGTERM, SIGQUIT) and what repeating them does.
//
// Supervisors often send one stop request as two signals: GNU timeout signals its command and
// then its own process group, which holds the command (coreutils' timeout.c, `cleanup`), as
// does a `kill PID` followed by `kill -TERM -- -PGID`; other supervisors (systemd, Slurm, CI
// runners) may send more than one as well. A second signal must therefore not throw the result
// away:
//   1st SIGINT/SIGTERM  stop gracefully: the run ends, what was measured is reported and written.
//   2nd                 noted on stderr, nothing more.
//   3rd, or SIGQUIT     stop at once. A command with something to finish after a stop (it called
//                       StopAtOnceFlag(): a result to write, a batch of blocks to put back)
//                       skips what is left but slow (verification, the server cross-check) and
//                       writes what it has; any other command (a load, io prepare: nothing to
//                       write, and their targets are marked unfinished until they end) exits 130
//                       here.
//   any after that      exit 130 at once, writing nothing (the finishing itself is stuck).
// The flag is read where the slow steps begin (db_run.cc, driver/runner.cc). A unit whose
// statement waits (a lock, a server that does not answer) is cut off by the run's watchdog a
// short grace after the first signal (driver/db_instance.h, InterruptStalled).
//
// Why flags and not writing the result from the handler: the result is built on the heap with
// allocations and stdio, none of which may be called from a handler, and it is not complete
// until the workers have stopped. So the handler only counts and sets flags, and the main thread
// does the writing. The handler calls only functions that POSIX lists as async-signal-safe
// (write, _exit; signal-safety(7)) and touches only lock-free atomics, which C++ allows in a
// handler ([support.signal]); errno is kept as it was.
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstddef>

#include "cli/app.h"

namespace sb::cli {
namespace {

// Signal handlers can only reach process-wide state; these are the one exception to "no mutable
// globals". Only the handlers write g_stop, g_at_once and g_count.
std::atomic<bool> g_stop{false};
std::atomic<bool> g_at_once{false};
// What the command still does after a stop at once (StopAtOnceFlag); null: nothing.
std::atomic<const char*> g_finishing{nullptr};
std::atomic<int> g_count{0};  // stop signals so far; SIGQUIT counts as the third
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free &&
                  std::atomic<const char*>::is_always_lock_free,
              "the handlers may only use lock-free atomics");

constexpr int kAtOnce = 3;

// A line for stderr put together without the library (nothing here may allocate or lock).
class Line {
 public:
  Line& operator<<(const char* text) {
    while (*text != '\0' && n_ < sizeof buf_) buf_[n_++] = *text++;
    return *this;
  }
  void Write() const {
    const ssize_t written = write(STDERR_FILENO, buf_, n_);
    (void)written;  // nothing to do about a stderr that cannot be written
  }

 private:
  char buf_[512];
  size_t n_ = 0;
};

const char* SignalName(int sig) {
  switch (sig) {
    case SIGINT:
      return "SIGINT";
    case SIGQUIT:
      return "SIGQUIT";
    default:
      return "SIGTERM";
  }
}

void OnSignal(int sig) {
  const int saved_errno = errno;
  int count = g_count.load();
  int next = 0;
  do {
    next = sig == SIGQUIT && count < kAtOnce ? kAtOnce : count + 1;
  } while (!g_count.compare_exchange_weak(count, next));
  g_stop.store(true);
  const char* const finishing = g_finishing.load();
  Line line;
  line << "storebench: " << SignalName(sig);
  if (next > kAtOnce || (next == kAtOnce && finishing == nullptr)) {
    line << (next > kAtOnce ? ": exiting at once; nothing more is written\n"
                            : ": stopping at once\n");
    line.Write();
    _exit(kExitInterrupted);
  }
  if (next == kAtOnce) {
    g_at_once.store(true);
    line << ": stopping at once: checks still to come are skipped; " << finishing
         << " (one more signal exits without that)\n";
  } else if (next == 2) {
    line << " again: still stopping (a stop often comes as two signals); a third, or SIGQUIT, "
            "stops at once\n";
  } else {
    line << ": stopping";
    if (finishing != nullptr) line << "; " << finishing;
    line << " (another signal is only noted; a third, or SIGQUIT, stops at once)\n";
  }
  line.Write();
  errno = saved_errno;
}

}  // namespace

const std::atomic<bool>* InstallStopHandlers() {
  struct sigaction sa {};
  sa.sa_handler = OnSignal;
  sigemptyset(&sa.sa_mask);
  // One handler at a time: a signal arriving inside it waits, so the lines never interleave.
  sigaddset(&sa.sa_mask, SIGINT);
  sigaddset(&sa.sa_mask, SIGTERM);
  sigaddset(&sa.sa_mask, SIGQUIT);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGQUIT, &sa, nullptr);
  return &g_stop;
}

const std::atomic<bool>* StopAtOnceFlag(const char* finishing) {
  g_finishing.store(finishing);
  return &g_at_once;
}

}  // namespace sb::cli
