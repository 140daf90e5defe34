// A timed command (storebench exec, ab): real child processes, timed on the clock passed in.
#include "session/exec_timed.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace sb::session {
namespace {

// A clock that moves 2.5 s between two reads, so the wall time can only be its difference.
class SteppingClock final : public Clock {
 public:
  int64_t NowNanos() const override { return 2'500'000'000LL * reads_++; }
  void SleepUntil(int64_t) override {}
  mutable int64_t reads_ = 0;
};

TEST(ExecTimed, TimesTheCommandOnTheGivenClock) {
  SteppingClock clock;
  auto o = ExecTimed({"/bin/sh", "-c", "exit 3"}, clock);
  ASSERT_TRUE(o.ok()) << o.status().message();
  EXPECT_EQ(o->exit_status, 3);
  EXPECT_EQ(o->signal, 0);
  EXPECT_DOUBLE_EQ(o->wall_sec, 2.5);
  EXPECT_EQ(clock.reads_, 2);
}

TEST(ExecTimed, ASignalEndingTheCommandIsItsExitStatus) {
  FakeClock clock;
  auto o = ExecTimed({"/bin/sh", "-c", "kill -TERM $$"}, clock);
  ASSERT_TRUE(o.ok()) << o.status().message();
  EXPECT_EQ(o->signal, 15);
  EXPECT_EQ(o->exit_status, 128 + 15);
}

TEST(ExecTimed, ACommandThatCannotStartIsBadInput) {
  FakeClock clock;
  auto o = ExecTimed({"/nonexistent/storebench-no-such-command"}, clock);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(o.status().message().find("cannot run"), std::string::npos);
  EXPECT_FALSE(ExecTimed({}, clock).ok());
}

TEST(ExecResult, CarriesTheFiguresAndTheVerdict) {
  ExecOutcome o;
  o.wall_sec = 2;
  o.user_sec = 0.5;
  o.system_sec = 0.25;
  o.exit_status = 1;
  const metrics::RunResult r = ExecResult({"make"}, "on", o);
  EXPECT_EQ(r.workload, "exec");
  EXPECT_EQ(r.label, "on");
  EXPECT_EQ(r.headline_name, "wall_sec");
  EXPECT_DOUBLE_EQ(r.headline_value, 2);
  ASSERT_EQ(r.verify.size(), 1u);
  EXPECT_FALSE(r.verify[0].passed);
}

}  // namespace
}  // namespace sb::session
