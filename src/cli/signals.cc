#include <csignal>
#include <unistd.h>

#include "cli/app.h"

namespace sb::cli {
namespace {
// Signal handlers can only reach process-wide state; this flag is the one exception to
// "no mutable globals", and only the handlers write it.
std::atomic<bool> g_stop{false};

void OnSignal(int) {
  if (g_stop.exchange(true)) _exit(kExitInterrupted);  // second signal: stop now
}
}  // namespace

const std::atomic<bool>* InstallStopHandlers() {
  struct sigaction sa {};
  sa.sa_handler = OnSignal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  return &g_stop;
}

}  // namespace sb::cli
