// A bound on a call to a server that may not answer (the server cross-check's readings, a
// lock's release): past the deadline the connection is interrupted (db::Connection::
// Interrupter), so the call returns with an error instead of waiting on a server that stopped
// answering (docs/measurement.md#stalled-workers).
#ifndef STOREBENCH_BASE_CALL_DEADLINE_H_
#define STOREBENCH_BASE_CALL_DEADLINE_H_

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

namespace sb {

class CallDeadline {
 public:
  // Calls `interrupt` (when not empty) on a thread of its own unless this object is destroyed
  // within `nanos` of real time.
  CallDeadline(std::function<void()> interrupt, int64_t nanos);
  ~CallDeadline();
  CallDeadline(const CallDeadline&) = delete;
  CallDeadline& operator=(const CallDeadline&) = delete;
  // Whether the deadline passed and the interrupt was called.
  bool fired() const;

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  bool fired_ = false;
  std::thread thread_;
};

}  // namespace sb

#endif  // STOREBENCH_BASE_CALL_DEADLINE_H_
