// Specification-style driving's terminal queue and pacer (driver/terminals.h): terminals come in
// due order, each is held by one worker at a time, and a terminal given back is due again after
// the wait its workload asks for.
#include "driver/terminals.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "base/clock.h"
#include "storebench/workload.h"
#include "unit/driver/stub_workload.h"

namespace sb::driver {
namespace {

// Terminal t is first due after first_[t]; after each unit it waits `again` more.
class TimerWorkload final : public StubWorkload {
 public:
  TimerWorkload(std::vector<int64_t> first, int64_t again)
      : StubWorkload("timer"), first_(std::move(first)), again_(again) {}
  int64_t terminals() const override { return static_cast<int64_t>(first_.size()); }
  int64_t TerminalWaitNanos(int64_t t, bool first) override {
    ++waits[t];
    return first ? first_[static_cast<size_t>(t)] : again_;
  }
  std::map<int64_t, int> waits;

 private:
  std::vector<int64_t> first_;
  int64_t again_;
};

// A terminal taken after its due time waited for a free worker (a connection) for that long;
// one taken before it is due did not wait.
TEST(TerminalsTest, QueuedTimeIsHowLongTheTerminalWaitedForAWorker) {
  TimerWorkload wl({0, 0}, 0);
  auto queue = std::make_shared<TerminalQueue>(wl, 2, /*start_nanos=*/100);
  auto a = NewTerminalPacer(queue);
  EXPECT_EQ(a->queued_nanos(), 0);
  EXPECT_EQ(a->NextIntendedStart(90), 100);  // taken before it is due
  EXPECT_EQ(a->queued_nanos(), 0);
  // The unit ended at 140: terminal 1, due at 100, waited 40 for this worker.
  EXPECT_EQ(a->NextIntendedStart(140), 100);
  EXPECT_EQ(a->terminal(), 1);
  EXPECT_EQ(a->queued_nanos(), 40);
}

TEST(TerminalsTest, TerminalsComeInDueOrderAndComeBackAfterTheirWait) {
  TimerWorkload wl({30, 10, 20}, 7);
  auto queue = std::make_shared<TerminalQueue>(wl, 3, /*start_nanos=*/100);
  auto a = NewTerminalPacer(queue);
  auto b = NewTerminalPacer(queue);
  EXPECT_TRUE(a->open_loop());
  EXPECT_EQ(a->terminal(), -1);
  EXPECT_EQ(a->NextIntendedStart(100), 110);  // terminal 1, due at 100 + 10
  EXPECT_EQ(a->terminal(), 1);
  EXPECT_EQ(b->NextIntendedStart(100), 120);  // terminal 2: terminal 1 is a's
  EXPECT_EQ(b->terminal(), 2);
  // a's unit ended at 115: terminal 1 is due again at 122, before terminal 0 (130).
  EXPECT_EQ(a->NextIntendedStart(115), 122);
  EXPECT_EQ(a->terminal(), 1);
  EXPECT_EQ(b->NextIntendedStart(125), 130);  // terminal 2 back at 132; terminal 0 due at 130
  EXPECT_EQ(b->terminal(), 0);
  EXPECT_EQ(a->NextIntendedStart(126), 132);  // terminal 1 back at 133; terminal 2 first
  EXPECT_EQ(a->terminal(), 2);
  // Every terminal's wait was asked once at the start and once per unit it completed.
  EXPECT_EQ(wl.waits[0], 1);
  EXPECT_EQ(wl.waits[1], 3);
  EXPECT_EQ(wl.waits[2], 2);
}

TEST(TerminalsTest, AWorkerWithoutATerminalIdles) {
  TimerWorkload wl({5}, 5);
  auto queue = std::make_shared<TerminalQueue>(wl, 1, 0);
  auto a = NewTerminalPacer(queue);
  auto b = NewTerminalPacer(queue);
  EXPECT_EQ(a->NextIntendedStart(0), 5);
  EXPECT_EQ(b->NextIntendedStart(0), kNanosPerSecond);  // nothing to take: look again later
  EXPECT_EQ(b->terminal(), -1);
}

}  // namespace
}  // namespace sb::driver
