#include "workload/tpcc/delivery_queue.h"

#include <chrono>

namespace sb::tpcc {

int64_t DeliveryQueue::Now() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void DeliveryQueue::Push(const DeliveryRequest& r) {
  {
    std::lock_guard lock(mu_);
    q_.push_back(r);
  }
  cv_.notify_one();
}

void DeliveryQueue::PushFront(const DeliveryRequest& r) {
  {
    std::lock_guard lock(mu_);
    q_.push_front(r);
  }
  cv_.notify_one();
}

bool DeliveryQueue::Pop(DeliveryRequest* r, int64_t wait_nanos) {
  std::unique_lock lock(mu_);
  if (!cv_.wait_for(lock, std::chrono::nanoseconds(wait_nanos), [&] { return !q_.empty(); })) {
    return false;
  }
  *r = q_.front();
  q_.pop_front();
  return true;
}

int64_t DeliveryQueue::size() const {
  std::lock_guard lock(mu_);
  return static_cast<int64_t>(q_.size());
}

}  // namespace sb::tpcc
