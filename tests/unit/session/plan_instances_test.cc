// session::BuildPlanInstances with a host of its own (no command line): a plan's instances on
// the null back end with the noop workload, built from the plan's [run], the group's options and
// the extra arguments in that order; what only the host knows (its options, its file checks, its
// progress lines) asked of the host; and a plan refused by line before any database is touched.
#include "session/plan_instances.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

#include "backend/db/null/null_backend.h"
#include "base/clock.h"
#include "config/plan.h"
#include "driver/run_options.h"
#include "session/scale_out.h"
#include "workload/noop/noop_workload.h"

namespace sb::session {
namespace {

// Declares what a run of the noop workload reads, and records what it was asked.
class TestHost : public PlanHost {
 public:
  mutable std::vector<std::string> calls;
  void DeclareOptions(config::OptionSet* o, const std::string& command,
                      workload::Workload& workload) const override {
    calls.push_back("declare " + command);
    o->Add({.name = "db"});
    o->Add({.name = "workload"});
    o->Add({.name = "restore", .type = config::OptionType::kBool, .default_value = "N"});
    o->Add({.name = "label"});
    workload.DeclareOptions(o);
    if (command == "run") driver::DeclareRunOptions(o, workload.shape());
  }
  Status CheckPaths(const config::OptionSet& o, const std::string& plan_path) const override {
    calls.push_back("paths " + o.GetString("db") + " " + plan_path);
    return Status::Ok();
  }
  const std::atomic<bool>* StopFlag() const override { return &stop_; }
  void Progress(const std::string& line) const override { calls.push_back("progress " + line); }

 private:
  std::atomic<bool> stop_{false};
};

struct Registries {
  db::BackendRegistry backends;
  workload::WorkloadRegistry workloads;
  Registries() {
    backends.Register("null", db::OpenNull);
    workloads.Register("noop", "noop", [] { return std::make_unique<noop::NoopWorkload>(); });
  }
};

config::Plan ParseOrDie(const std::string& text) {
  auto plan = config::ParsePlan(text, "test.toml");
  EXPECT_TRUE(plan.ok()) << plan.status().message();
  return std::move(plan).value();
}

const char* const kPlan = R"(
[run]
run_time = "3s"
[[group]]
name = "g"
db = "null://x{i}"
workload = "noop"
count = 2
[group.options]
n_threads = 3
)";

TEST(PlanInstancesTest, BuildsEveryInstanceWithTheHostsOptionsInPlanOrder) {
  Registries r;
  TestHost host;
  PlanBuild build;
  build.extra_args = {"--n_threads=5", "--seed=11"};
  auto setups = BuildPlanInstances(ParseOrDie(kPlan), build, r.backends, r.workloads, host);
  ASSERT_TRUE(setups.ok()) << setups.status().message();
  ASSERT_EQ(setups->size(), 2u);
  EXPECT_EQ((*setups)[0].name, "g_1");
  EXPECT_EQ((*setups)[1].url, "null://x2");
  for (const DbSetup& s : *setups) {
    EXPECT_EQ(s.options->GetDurationNanos("run_time"), 3 * kNanosPerSecond);  // the plan's [run]
    EXPECT_EQ(s.options->GetInt("n_threads"), 5);  // the command line after the group
    EXPECT_EQ(s.options->GetString("db"), s.url);
    EXPECT_NE(s.backend, nullptr);  // prepared for the run
  }
  EXPECT_EQ(host.calls, (std::vector<std::string>{"declare run", "paths null://x1 test.toml",
                                                  "declare run", "paths null://x2 test.toml"}));
}

TEST(PlanInstancesTest, ScaleCountReplacesTheScaleGroupsCount) {
  Registries r;
  TestHost host;
  PlanBuild build;
  build.scale_count = 3;
  auto setups = BuildPlanInstances(ParseOrDie(kPlan), build, r.backends, r.workloads, host);
  ASSERT_TRUE(setups.ok()) << setups.status().message();
  EXPECT_EQ(setups->size(), 3u);
}

TEST(PlanInstancesTest, ARunWideKeyInAGroupIsRefusedByItsLine) {
  Registries r;
  TestHost host;
  auto setups = BuildPlanInstances(ParseOrDie(std::string(kPlan) + "run_time = \"5s\"\n"),
                                   PlanBuild(), r.backends, r.workloads, host);
  ASSERT_FALSE(setups.ok());
  EXPECT_NE(setups.status().message().find("test.toml:11: key 'run_time' applies to the whole run"),
            std::string::npos)
      << setups.status().message();
}

TEST(PlanInstancesTest, OnlyTheOwnedInstancesArePreparedUntilPrepareOthers) {
  Registries r;
  TestHost host;
  PlanBuild build;
  build.owns = [](int index) { return index == 1; };
  auto setups = BuildPlanInstances(ParseOrDie(kPlan), build, r.backends, r.workloads, host);
  ASSERT_TRUE(setups.ok()) << setups.status().message();
  EXPECT_EQ((*setups)[0].backend, nullptr);
  EXPECT_NE((*setups)[1].backend, nullptr);
  ASSERT_TRUE(PrepareOthers(build, r.backends, &*setups).ok());
  EXPECT_NE((*setups)[0].backend, nullptr);
}

TEST(PlanInstancesTest, WithoutAGroupBuildPlanOnRanksBuildsEveryInstance) {
  Registries r;
  TestHost host;
  auto setups = BuildPlanOnRanks(ParseOrDie(kPlan), PlanBuild(), r.backends, r.workloads, host);
  ASSERT_TRUE(setups.ok()) << setups.status().message();
  EXPECT_EQ(setups->size(), 2u);
  EXPECT_TRUE(IsRunWideOption("run_time"));
  EXPECT_FALSE(IsRunWideOption("n_threads"));
}

}  // namespace
}  // namespace sb::session
