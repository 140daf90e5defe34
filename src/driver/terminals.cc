#include "driver/terminals.h"

#include "base/clock.h"

namespace sb::driver {

TerminalQueue::TerminalQueue(workload::Workload& workload, int64_t count, int64_t start_nanos)
    : workload_(workload) {
  std::vector<Entry> all;
  all.reserve(static_cast<size_t>(count));
  for (int64_t t = 0; t < count; ++t) {
    all.emplace_back(start_nanos + workload.TerminalWaitNanos(t, /*first=*/true), t);
  }
  due_ = std::priority_queue<Entry, std::vector<Entry>, std::greater<>>(std::greater<>(),
                                                                        std::move(all));
}

std::pair<int64_t, int64_t> TerminalQueue::Take() {
  std::lock_guard lock(mu_);
  if (due_.empty()) return {-1, 0};
  const Entry e = due_.top();
  due_.pop();
  return {e.second, e.first};
}

void TerminalQueue::Give(int64_t t, int64_t due_nanos) {
  std::lock_guard lock(mu_);
  due_.emplace(due_nanos, t);
}

namespace {

class TerminalPacer final : public Pacer {
 public:
  explicit TerminalPacer(std::shared_ptr<TerminalQueue> queue) : queue_(std::move(queue)) {}
  ~TerminalPacer() override {
    if (terminal_ >= 0) queue_->Give(terminal_, last_end_);
  }
  int64_t NextIntendedStart(int64_t now) override {
    if (terminal_ >= 0) {
      // The wait is drawn outside the queue's lock: the terminal is this worker's until given.
      queue_->Give(terminal_, now + queue_->workload().TerminalWaitNanos(terminal_, false));
    }
    last_end_ = now;
    auto [t, due] = queue_->Take();
    terminal_ = t;
    queued_ = t >= 0 && due < now ? now - due : 0;
    // More workers than terminals: this worker idles (a second later it looks again).
    return t >= 0 ? due : now + kNanosPerSecond;
  }
  bool open_loop() const override { return true; }
  int64_t terminal() const override { return terminal_; }
  int64_t queued_nanos() const override { return queued_; }

 private:
  std::shared_ptr<TerminalQueue> queue_;
  int64_t terminal_ = -1;
  int64_t last_end_ = 0;
  int64_t queued_ = 0;
};

}  // namespace

std::unique_ptr<Pacer> NewTerminalPacer(std::shared_ptr<TerminalQueue> queue) {
  return std::make_unique<TerminalPacer>(std::move(queue));
}

}  // namespace sb::driver
