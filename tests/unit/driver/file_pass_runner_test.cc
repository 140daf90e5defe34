// RunFilePass (driver/file_pass_runner.h) times a pass on the driver's clock, from before its
// first step to after its Finish, and stops between steps.
#include "driver/file_pass_runner.h"

#include <gtest/gtest.h>

#include <atomic>

#include "base/clock.h"

namespace sb::driver {
namespace {

// A pass of `steps` steps of 1 MiB, each taking 250 ms of the fake clock, and a Finish (a copy's
// fsync) taking 1 s.
class ClockedPass final : public fsload::FilePass {
 public:
  ClockedPass(FakeClock& clock, int steps, std::atomic<bool>* stop_after_two = nullptr)
      : clock_(clock), steps_(steps), stop_(stop_after_two) {}
  Result<bool> Step() override {
    if (done_ == steps_) return false;
    clock_.Advance(250 * kNanosPerMilli);
    if (++done_ == 2 && stop_ != nullptr) stop_->store(true);
    return true;
  }
  Status Finish() override {
    clock_.Advance(kNanosPerSecond);
    finished_ = true;
    return Status::Ok();
  }
  uint64_t bytes() const override { return static_cast<uint64_t>(done_) << 20; }
  int done() const { return done_; }
  bool finished() const { return finished_; }

 private:
  FakeClock& clock_;
  int steps_, done_ = 0;
  bool finished_ = false;
  std::atomic<bool>* stop_;
};

TEST(FilePassRunnerTest, TimesEveryStepAndTheFinish) {
  FakeClock clock(5 * kNanosPerSecond);
  ClockedPass pass(clock, 8);
  auto t = RunFilePass(clock, pass, nullptr);
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_TRUE(pass.finished());
  EXPECT_DOUBLE_EQ(t->seconds, 3.0);  // 8 × 0.25 s + 1 s
  EXPECT_EQ(t->bytes, 8u << 20);
  EXPECT_DOUBLE_EQ(t->MibPerSec(), 8.0 / 3.0);
}

TEST(FilePassRunnerTest, AStopEndsThePassBetweenStepsWithoutFinishing) {
  FakeClock clock;
  std::atomic<bool> stop{false};
  ClockedPass pass(clock, 8, &stop);
  auto t = RunFilePass(clock, pass, &stop);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), StatusCode::kCancelled);
  EXPECT_EQ(pass.done(), 2);
  EXPECT_FALSE(pass.finished());
}

TEST(FilePassRunnerTest, AnEmptyPassTakesNoTime) {
  FakeClock clock;
  ClockedPass pass(clock, 0);
  auto t = RunFilePass(clock, pass, nullptr);
  ASSERT_TRUE(t.ok());
  EXPECT_DOUBLE_EQ(t->seconds, 1.0);  // the Finish alone
  EXPECT_EQ(t->bytes, 0u);
  EXPECT_DOUBLE_EQ(TimedPass{}.MibPerSec(), 0.0);
}

}  // namespace
}  // namespace sb::driver
