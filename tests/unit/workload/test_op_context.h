// TestOpContext: the OpContext the workload tests run sessions with, in place of the driver's.
// It times on a FakeClock that only pauses move (a step without a pause takes 0 ns), tries each
// call once or, when asked, up to 10 times as the driver does, and keeps everything the
// sessions record since it was made or Reset, so a test reads totals over several units.
#ifndef STOREBENCH_TESTS_UNIT_WORKLOAD_TEST_OP_CONTEXT_H_
#define STOREBENCH_TESTS_UNIT_WORKLOAD_TEST_OP_CONTEXT_H_

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "base/clock.h"
#include "storebench/workload.h"

namespace sb::workload {

// Holds the clock, so that it is made before the OpContext that refers to it.
struct TestClockHolder {
  FakeClock test_clock;
};

class TestOpContext final : private TestClockHolder, public OpContext {
 public:
  // `tries`: tries per call, as the driver's retry policy (1: no retry; the driver: 10). A
  // syntax error or a lost connection is not retried, as in the driver.
  explicit TestOpContext(int tries = 1) : OpContext(test_clock, 0), tries_(tries) {}

  // Every step recorded, in order: (step type, nanos).
  std::vector<std::pair<int, int64_t>> steps() const {
    std::vector<std::pair<int, int64_t>> out;
    unit().steps.ForEach([&](const UnitRecord::Item& s) { out.push_back(s); });
    return out;
  }
  // The step types recorded, in order.
  std::vector<int> step_types() const {
    std::vector<int> out;
    unit().steps.ForEach([&](const UnitRecord::Item& s) { out.push_back(s.first); });
    return out;
  }
  int64_t step_count(int type) const {
    int64_t n = 0;
    unit().steps.ForEach([&](const UnitRecord::Item& s) { n += s.first == type ? 1 : 0; });
    return n;
  }
  // Count's totals (with the unit) and CountNow's (whatever becomes of it), by counter.
  std::map<int, int64_t> counters() const { return Sum(unit().counts); }
  std::map<int, int64_t> counted_now() const { return Sum(unit().counts_now); }
  // The pauses asked for, in order.
  const std::vector<int64_t>& pauses() const { return pauses_; }
  // Forgets what was recorded.
  void Reset() {
    BeginUnit();
    pauses_.clear();
  }

  int64_t Pause(int64_t nanos) override {
    pauses_.push_back(nanos);
    test_clock.Advance(nanos);
    NoteClockRead(test_clock.NowNanos());
    return nanos;
  }

 private:
  template <typename List>
  static std::map<int, int64_t> Sum(const List& list) {
    std::map<int, int64_t> out;
    list.ForEach([&](const UnitRecord::Item& c) { out[c.first] += c.second; });
    return out;
  }
  Status Retry(FunctionRef<Status()> fn, Status s) override {
    for (int i = 1; i < tries_; ++i) {
      if (s.category() == ErrorCategory::kSyntax ||
          s.category() == ErrorCategory::kConnectionLost) {
        break;
      }
      s = fn();
      if (s.ok()) break;
    }
    return s;
  }

  int tries_;
  std::vector<int64_t> pauses_;
};

}  // namespace sb::workload

#endif  // STOREBENCH_TESTS_UNIT_WORKLOAD_TEST_OP_CONTEXT_H_
