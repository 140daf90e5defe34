// Stop signals while storebench waits for a command it started (exec, ab, --between).
//
// The command runs in a process group of its own, so a stop reaches everything it started
// (a shell's children, `ab`'s `storebench oltp run` and its helpers) and nothing is left
// running after storebench has gone. storebench forwards SIGINT, SIGTERM and SIGQUIT to that
// group, notes which came, waits for the command to end, then writes what it gathered and
// exits 130 (README, "Exit status"). Ctrl-C reaches the command this way too: its group is no
// longer the terminal's foreground group.
//
// The handler calls only kill(2), which POSIX lists as async-signal-safe (signal-safety(7)),
// and touches only lock-free atomics.
#ifndef STOREBENCH_BASE_CHILD_SIGNALS_H_
#define STOREBENCH_BASE_CHILD_SIGNALS_H_

#include <signal.h>
#include <sys/types.h>

namespace sb {

class ForwardedStops {
 public:
  // Installs the forwarding handlers (before fork, so that no signal is lost in between).
  ForwardedStops();
  // Restores the handlers that were installed before.
  ~ForwardedStops();
  ForwardedStops(const ForwardedStops&) = delete;
  ForwardedStops& operator=(const ForwardedStops&) = delete;

  // In the child, before exec: its own process group, and the signal dispositions storebench
  // had before (an ignored SIGINT stays ignored, as the shell set it).
  void InChild() const;
  // In the parent after fork: the child's group; a signal that came before is sent now.
  void Forwarding(pid_t child);
  // The first stop signal that came (0: none).
  int received() const;

 private:
  struct sigaction old_int_ {
  }, old_term_{}, old_quit_{};
};

}  // namespace sb

#endif  // STOREBENCH_BASE_CHILD_SIGNALS_H_
