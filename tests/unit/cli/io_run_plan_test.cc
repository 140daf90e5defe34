// What `io run` runs before anything runs (session/io_run_plan.h), from its option table as
// the io command declares it (DeclareIoOptions) and constructed command lines: the tests of
// --preset, --spec or --icf (tests/data/some.icf), the settings the options override, and the
// inconsistent requests refused. No target is opened (OpenRunTargets is left to the io
// integration tests).
#include "session/io_run_plan.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/builtins.h"
#include "cli/io_internal.h"
#include "config/options.h"

namespace sb::cli {
namespace {

using Args = std::vector<std::string>;
constexpr int64_t kSecond = 1000000000;
const std::string kIcf = std::string(STOREBENCH_SOURCE_DIR) + "/tests/data/some.icf";

config::OptionSet RunOptions(const Args& args) {
  config::OptionSet o;
  o.set_help_command("storebench io run --help");
  DeclareIoOptions(&o, "run", MakeEngines());
  const Status s = config::ParseCommandLine(args, &o);
  EXPECT_TRUE(s.ok()) << s.message();
  return o;
}

std::string PlanError(const Args& args) {
  auto plan = session::PlanIoRun(RunOptions(args));
  EXPECT_FALSE(plan.ok()) << "planned";
  return plan.ok() ? std::string("(planned)") : plan.status().message();
}

std::string SettingsError(const Args& args) {
  const config::OptionSet o = RunOptions(args);
  auto plan = session::PlanIoRun(o);
  EXPECT_TRUE(plan.ok()) << plan.status().message();
  if (!plan.ok()) return "(no plan)";
  auto c = session::IoRunSettings(o, *plan);
  EXPECT_FALSE(c.ok()) << "accepted";
  return c.ok() ? std::string("(accepted)") : c.status().message();
}

TEST(IoRunPlanTest, APresetBringsItsTestsAndSettingsUnlessAnOptionIsGiven) {
  const config::OptionSet o = RunOptions({"--target=/t/a.tst", "--target", "/t/b.tst",
                                          "--preset=vmtn", "--workers=3", "--engine=null"});
  auto plan = session::PlanIoRun(o);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  EXPECT_EQ(plan->targets, (Args{"/t/a.tst", "/t/b.tst"}));
  EXPECT_EQ(plan->preset.name, "vmtn");
  ASSERT_EQ(plan->preset.specs.size(), 4u);
  EXPECT_EQ(plan->preset.specs[1].name, "RealLife-60%Rand-65%Read");
  EXPECT_FALSE(plan->icf.has_value());
  EXPECT_EQ(plan->icf_note, "");
  auto c = session::IoRunSettings(o, *plan);
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->engine, "null");
  EXPECT_EQ(c->workers, 3);       // the option, over the preset's 1
  EXPECT_EQ(c->outstanding, 64);  // the preset's
  EXPECT_EQ(c->run_nanos, 120 * kSecond);
  EXPECT_EQ(c->ramp_nanos, 0);
  EXPECT_EQ(c->pattern, storage::DataPattern::kFullRandom);
  EXPECT_FALSE(c->poisson);
}

TEST(IoRunPlanTest, AlignSizeChoosesThePresetsOtherAlignment) {
  auto sector = session::PlanIoRun(RunOptions({"--target=/t/a", "--preset=database"}));
  auto size =
      session::PlanIoRun(RunOptions({"--target=/t/a", "--preset=database", "--align=size"}));
  ASSERT_TRUE(sector.ok() && size.ok());
  EXPECT_EQ(sector->preset.specs[0].lines[0].align, 0u);   // sector boundaries
  EXPECT_EQ(size->preset.specs[0].lines[0].align, 8192u);  // the transfer size
}

TEST(IoRunPlanTest, ASpecRunsThirtySecondsAndTheRunTimeOptionWins) {
  const Args spec = {"--target=/t/a", "--spec", "4KiB,100%read,100%random"};
  auto plan = session::PlanIoRun(RunOptions(spec));
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  EXPECT_EQ(plan->preset.name, "spec");
  ASSERT_EQ(plan->preset.specs.size(), 1u);
  EXPECT_EQ(plan->preset.specs[0].lines[0].size, 4096u);
  EXPECT_EQ(plan->preset.specs[0].lines[0].pct_read, 100);
  auto c = session::IoRunSettings(RunOptions(spec), *plan);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->run_nanos, 30 * kSecond);
  Args longer = spec;
  longer.insert(longer.end(), {"--run_time=2m", "--ramp_time=5s", "--seed=9", "--rate=100",
                               "--arrival=poisson", "--pattern=repeating", "--submit_batch=4"});
  auto d = session::IoRunSettings(RunOptions(longer), *plan);
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_EQ(d->run_nanos, 120 * kSecond);
  EXPECT_EQ(d->ramp_nanos, 5 * kSecond);
  EXPECT_EQ(d->seed, 9u);
  EXPECT_DOUBLE_EQ(d->rate_iops, 100);
  EXPECT_TRUE(d->poisson);
  EXPECT_EQ(d->pattern, storage::DataPattern::kRepeating);
  EXPECT_EQ(d->submit_batch, 4);
}

TEST(IoRunPlanTest, AnIcfBringsItsSpecificationsSettingsAndANote) {
  const config::OptionSet o = RunOptions({"--target=/t/a", "--icf", kIcf, "--outstanding=4"});
  auto plan = session::PlanIoRun(o);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  ASSERT_TRUE(plan->icf.has_value());
  EXPECT_EQ(plan->preset.name, "icf");
  ASSERT_EQ(plan->preset.specs.size(), 2u);
  EXPECT_EQ(plan->preset.specs[1].name, "File server mix");
  EXPECT_EQ(plan->preset.workers, 2);
  EXPECT_EQ(plan->preset.outstanding, 8);
  EXPECT_EQ(plan->preset.max_size_sectors, 2000000u);
  EXPECT_EQ(plan->preset.run_nanos, 5 * kSecond);
  EXPECT_EQ(plan->preset.ramp_nanos, 1 * kSecond);
  // The note names the file, the specifications and each setting's line; --outstanding was
  // given, so the ICF's is said to be overridden, and the others are not.
  const std::string& note = plan->icf_note;
  EXPECT_EQ(note.rfind(kIcf + " (Iometer 1.1.0): specifications 'OLTP 8K 70% read random', "
                              "'File server mix' (assigned to the disk workers); run time 5s "
                              "(line 7); ramp 1s (line ",
                       0),
            0u)
      << note;
  EXPECT_NE(note.find(" outstanding I/Os per target (line "), std::string::npos) << note;
  EXPECT_NE(note.find(", overridden by --outstanding)"), std::string::npos) << note;
  EXPECT_EQ(note.find("overridden by --workers"), std::string::npos) << note;
  auto c = session::IoRunSettings(o, *plan);
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->outstanding, 4);  // the option
  EXPECT_EQ(c->workers, 2);      // the ICF's
  EXPECT_EQ(c->run_nanos, 5 * kSecond);
  EXPECT_EQ(c->ramp_nanos, 1 * kSecond);
}

TEST(IoRunPlanTest, InconsistentRequestsAreRefusedBeforeAnyIo) {
  EXPECT_EQ(PlanError({"--preset=vmtn"}), "no target given; add --target PATH");
  EXPECT_EQ(PlanError({"--target=/t/a,/t/b,/t/a", "--preset=vmtn"}),
            "target '/t/a' is given twice");
  EXPECT_EQ(PlanError({"--target=/t/a"}), "give exactly one of --preset, --spec and --icf");
  EXPECT_EQ(PlanError({"--target=/t/a", "--preset=vmtn", "--spec=4KiB,100%read,0%random"}),
            "give exactly one of --preset, --spec and --icf");
  EXPECT_EQ(PlanError({"--target=/t/a", "--spec=4KiB,100%read,0%random", "--align=size"})
                .rfind("--align applies to --preset only", 0),
            0u);
  EXPECT_NE(PlanError({"--target=/t/a", "--preset=oltp"}).find("vmtn"), std::string::npos);
  // O_DIRECT needs whole sectors; without --direct the same specification is planned.
  EXPECT_NE(PlanError({"--target=/t/a", "--spec=1000B,100%read,0%random", "--direct=Y"})
                .find("is not a multiple of 512 B, which O_DIRECT needs"),
            std::string::npos);
  EXPECT_TRUE(session::PlanIoRun(
                  RunOptions({"--target=/t/a", "--spec=1000B,100%read,0%random", "--direct=N"}))
                  .ok());
  EXPECT_NE(PlanError({"--target=/t/a", "--icf=/nonexistent/x.icf"}).find("/nonexistent/x.icf"),
            std::string::npos);
}

TEST(IoRunPlanTest, ARateAndASpecificationsOwnBurstsAreRefusedTogether) {
  EXPECT_EQ(SettingsError({"--target=/t/a", "--spec=4KiB,100%read,0%random,burst=4", "--rate=10"}),
            "--rate sets the pace of every I/O, and '4KiB,100%read,0%random,burst=4' has a burst "
            "delay or burst length that sets one of its own; use one of them");
  EXPECT_EQ(SettingsError({"--target=/t/a", "--spec=4KiB,100%read,0%random,delay=5ms", "--rate=10"})
                .rfind("--rate sets the pace of every I/O", 0),
            0u);
}

}  // namespace
}  // namespace sb::cli
