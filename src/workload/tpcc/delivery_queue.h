// --delivery=deferred (TPC-C clause 2.7.2): a terminal's Delivery only queues its warehouse and
// carrier and gets its answer at once; the delivery thread (a background worker of the driver)
// takes the requests oldest first and runs each as one database transaction for the 10
// districts. The terminal's response time is the queuing; the deferred execution's is from the
// queuing to its commit (clause 5.2.5.4 holds 90 % of those to 80 s). Thread-safe.
#ifndef STOREBENCH_WORKLOAD_TPCC_DELIVERY_QUEUE_H_
#define STOREBENCH_WORKLOAD_TPCC_DELIVERY_QUEUE_H_

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>

namespace sb::tpcc {

struct DeliveryRequest {
  int64_t w = 0;
  int64_t carrier = 0;
  int64_t queued_nanos = 0;       // DeliveryQueue::Now() when queued
  int64_t queued_unix_nanos = 0;  // the wall clock then, for the result file (--delivery_log)
};

class DeliveryQueue {
 public:
  // Monotonic nanoseconds (steady_clock): the queuing and the completion are read on different
  // threads, so both use this clock.
  static int64_t Now();
  void Push(const DeliveryRequest& r);
  // Puts back a request whose execution failed, to be taken first.
  void PushFront(const DeliveryRequest& r);
  // The oldest request, waiting at most `wait_nanos` for one: false when none came.
  bool Pop(DeliveryRequest* r, int64_t wait_nanos);
  int64_t size() const;

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<DeliveryRequest> q_;
};

}  // namespace sb::tpcc

#endif  // STOREBENCH_WORKLOAD_TPCC_DELIVERY_QUEUE_H_
