#include "base/child_signals.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>

namespace sb {
namespace {

// Reached from the handler only (see signals.cc for why handlers need process-wide state).
std::atomic<pid_t> g_child_group{0};
std::atomic<int> g_received{0};
static_assert(std::atomic<pid_t>::is_always_lock_free && std::atomic<int>::is_always_lock_free,
              "the handler may only use lock-free atomics");

void Forward(int sig) {
  const int saved_errno = errno;
  int none = 0;
  g_received.compare_exchange_strong(none, sig);
  const pid_t group = g_child_group.load();
  if (group > 0) ::kill(-group, sig);
  errno = saved_errno;
}

}  // namespace

ForwardedStops::ForwardedStops() {
  g_child_group.store(0);
  g_received.store(0);
  struct sigaction sa {};
  sa.sa_handler = Forward;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, &old_int_);
  ::sigaction(SIGTERM, &sa, &old_term_);
  ::sigaction(SIGQUIT, &sa, &old_quit_);
}

ForwardedStops::~ForwardedStops() {
  ::sigaction(SIGINT, &old_int_, nullptr);
  ::sigaction(SIGTERM, &old_term_, nullptr);
  ::sigaction(SIGQUIT, &old_quit_, nullptr);
  g_child_group.store(0);
}

void ForwardedStops::InChild() const {
  ::setpgid(0, 0);
  // A handler of storebench's own is not the command's: it gets the default action then.
  auto restore = [](int sig, const struct sigaction& old) {
    struct sigaction sa = old;
    if (sa.sa_handler != SIG_IGN) {
      sa = {};
      sa.sa_handler = SIG_DFL;
    }
    ::sigaction(sig, &sa, nullptr);
  };
  restore(SIGINT, old_int_);
  restore(SIGTERM, old_term_);
  restore(SIGQUIT, old_quit_);
}

void ForwardedStops::Forwarding(pid_t child) {
  // Both sides set the group, so it exists whichever runs first (setpgid(2), "job control").
  ::setpgid(child, child);
  g_child_group.store(child);
  if (const int sig = g_received.load(); sig != 0) ::kill(-child, sig);
}

int ForwardedStops::received() const { return g_received.load(); }

}  // namespace sb
