#include "base/call_deadline.h"

#include <chrono>
#include <utility>

namespace sb {

CallDeadline::CallDeadline(std::function<void()> interrupt, int64_t nanos) {
  if (!interrupt) return;
  thread_ = std::thread([this, interrupt = std::move(interrupt), nanos] {
    std::unique_lock<std::mutex> lock(mu_);
    if (cv_.wait_for(lock, std::chrono::nanoseconds(nanos), [this] { return done_; })) return;
    fired_ = true;
    lock.unlock();
    interrupt();
  });
}

CallDeadline::~CallDeadline() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    done_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

bool CallDeadline::fired() const {
  std::lock_guard<std::mutex> lock(mu_);
  return fired_;
}

}  // namespace sb
