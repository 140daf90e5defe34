// Ending a database call that waits on a server which does not answer, from another thread.
//
// A stopped or frozen server (SIGSTOP, a hung host behind a live TCP stack) keeps a client's
// blocking read waiting forever: the kernel still acknowledges what the client sends, so TCP
// keepalives and tcp_user_timeout never fire, and a server-side statement_timeout cannot run
// on a server that gets no CPU. shutdown(2) on the connection's socket wakes a thread blocked
// in poll(2) or recv(2) on it (the read returns end-of-file), so the client library reports a
// lost connection and the call returns. The run's watchdog (driver/db_instance.h) uses this.
//
// The socket may be closed by its owner while another thread interrupts it; the descriptor
// number could then belong to another file already. So the owner clears it under the mutex
// before closing, and an interrupt after that does nothing.
#ifndef STOREBENCH_BACKEND_DB_CALL_INTERRUPT_H_
#define STOREBENCH_BACKEND_DB_CALL_INTERRUPT_H_

#include <functional>
#include <memory>
#include <mutex>

namespace sb::db {

class CallInterrupt {
 public:
  // `action` ends the owner's blocked call (e.g. shuts down a socket); called under the mutex,
  // at most until Disarm().
  explicit CallInterrupt(std::function<void()> action) : action_(std::move(action)) {}
  // Runs the action unless the owner has disarmed it. Any thread.
  void Fire() {
    std::lock_guard<std::mutex> lock(mu_);
    if (action_) action_();
  }
  // The owner, before it closes what the action refers to.
  void Disarm() {
    std::lock_guard<std::mutex> lock(mu_);
    action_ = nullptr;
  }
  // The callable Connection::Interrupter() returns: it keeps this object alive.
  static std::function<void()> Callable(const std::shared_ptr<CallInterrupt>& self) {
    return [self] { self->Fire(); };
  }

 private:
  std::mutex mu_;
  std::function<void()> action_;
};

// An interrupt that shuts down socket `fd` in both directions (nothing when fd < 0).
std::shared_ptr<CallInterrupt> SocketInterrupt(int fd);

}  // namespace sb::db

#endif  // STOREBENCH_BACKEND_DB_CALL_INTERRUPT_H_
