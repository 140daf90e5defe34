#include "base/call_deadline.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace sb {
namespace {

TEST(CallDeadlineTest, FiresWhenTheCallOutlastsIt) {
  std::atomic<int> calls{0};
  CallDeadline deadline([&] { calls.fetch_add(1); }, 1000);  // 1 us
  // The interrupt comes on the deadline's thread: wait for it (bounded by the test's timeout).
  while (calls.load() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_TRUE(deadline.fired());
  EXPECT_EQ(calls.load(), 1);
}

TEST(CallDeadlineTest, DoesNotFireWhenTheCallEndsFirst) {
  std::atomic<int> calls{0};
  {
    // An hour: destroyed long before; the destructor must not wait for it.
    CallDeadline deadline([&] { calls.fetch_add(1); }, int64_t{3600} * 1000000000);
    EXPECT_FALSE(deadline.fired());
  }
  EXPECT_EQ(calls.load(), 0);
}

TEST(CallDeadlineTest, AnEmptyInterruptIsNoDeadline) {
  CallDeadline deadline(nullptr, 1);
  EXPECT_FALSE(deadline.fired());
}

}  // namespace
}  // namespace sb
