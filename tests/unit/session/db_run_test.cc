// session::RunDatabases on the null back end with the noop workload: a request runs every
// instance and returns their result without printing; a request that can only fail is refused
// before the power sources are opened or anything is reported or run.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "backend/db/null/null_backend.h"
#include "driver/run_options.h"
#include "storebench/session.h"
#include "workload/noop/noop_workload.h"

namespace sb::session {
namespace {

// Records what the run told, in order.
class RecordingReporter : public RunReporter {
 public:
  std::vector<std::string> calls;
  Status Begin(const std::vector<driver::DbInstanceSpec>& specs, const driver::RunOptions&,
               bool speaks) override {
    calls.push_back("begin " + std::to_string(specs.size()) + (speaks ? " speaks" : ""));
    return Status::Ok();
  }
  void OnMessage(const std::string& line) override { calls.push_back("message " + line); }
  void OnStart() override { calls.push_back("start"); }
  void OnStatus(const metrics::StatusFigures&) override {}
  void OnInstanceStatus(const std::string&, const metrics::StatusFigures&) override {}
  void OnInterval(const metrics::TimeSeries&, const metrics::StatusFigures&) override {}
};

// `count` noop instances on null://, each with these options (name=value) set.
std::vector<DbSetup> NullSetups(int count, const std::vector<std::string>& options) {
  std::vector<DbSetup> setups;
  for (int i = 0; i < count; ++i) {
    DbSetup s;
    s.name = std::to_string(i + 1);
    s.url = "null://";
    s.workload = std::make_unique<noop::NoopWorkload>();
    s.options = std::make_unique<config::OptionSet>();
    s.workload->DeclareOptions(s.options.get());
    driver::DeclareRunOptions(s.options.get(), s.workload->shape());
    s.options->Add({.name = "label"});
    for (const std::string& o : options) {
      const size_t eq = o.find('=');
      EXPECT_TRUE(s.options->Set(o.substr(0, eq), o.substr(eq + 1), "test").ok()) << o;
    }
    s.backend = db::OpenNull(db::DbUrl(), db::BackendOptions()).value();
    setups.push_back(std::move(s));
  }
  return setups;
}

RunRequest Request(std::vector<DbSetup>* setups, int* power_opened) {
  RunRequest req;
  req.setups = setups;
  req.common = (*setups)[0].options.get();
  req.open_power = [power_opened](Clock&) -> Result<std::unique_ptr<power::PowerSampler>> {
    ++*power_opened;
    return std::unique_ptr<power::PowerSampler>();
  };
  return req;
}

const std::vector<std::string> kShortRun = {"run_time=1s", "warmup_time=0", "units_per_thread=50",
                                            "label=t"};

TEST(DbRunTest, RunsEveryInstanceAndReturnsTheirResult) {
  std::vector<DbSetup> setups = NullSetups(2, kShortRun);
  int power_opened = 0;
  RecordingReporter rep;
  auto out = RunDatabases(Request(&setups, &power_opened), rep);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_TRUE(out->speaks);
  EXPECT_TRUE(out->complete);
  EXPECT_TRUE(out->run_status.ok()) << out->run_status.message();
  EXPECT_FALSE(out->stopped_at_once);
  const metrics::RunResult& r = out->result;
  ASSERT_EQ(r.instances.size(), 2u);
  EXPECT_EQ(r.workload, "noop");
  EXPECT_EQ(r.label, "t");
  EXPECT_EQ(r.loop_model.rfind("2 instances started together (instance 1: closed loop", 0), 0u)
      << r.loop_model;
  // Instance 2 draws its own random streams (seed + 1), recorded with its own options.
  EXPECT_NE(r.instances[1].config_json.find("\"label\""), std::string::npos);
  EXPECT_EQ(r.choices.count("instances"), 1u);
  ASSERT_GE(rep.calls.size(), 2u);
  EXPECT_EQ(rep.calls[0], "begin 2 speaks");
  EXPECT_EQ(rep.calls[1], "start");
  EXPECT_EQ(power_opened, 1);
}

TEST(DbRunTest, OneInstanceVerifiesIntoTheResultItself) {
  std::vector<DbSetup> setups = NullSetups(1, kShortRun);
  int power_opened = 0;
  RecordingReporter rep;
  auto out = RunDatabases(Request(&setups, &power_opened), rep);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_TRUE(out->result.instances.empty());
  EXPECT_EQ(out->result.loop_model.rfind("closed loop: 1 threads", 0), 0u);
  EXPECT_EQ(out->result.choices.at("seed"), "0");  // as given: no command line drew one
}

TEST(DbRunTest, AWindowPastTheRunIsRefusedBeforeAnythingRuns) {
  std::vector<std::string> options = kShortRun;
  options.push_back("window=5s-9s");
  std::vector<DbSetup> setups = NullSetups(1, options);
  int power_opened = 0;
  RecordingReporter rep;
  auto out = RunDatabases(Request(&setups, &power_opened), rep);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(out.status().message().find("after the run"), std::string::npos)
      << out.status().message();
  EXPECT_TRUE(rep.calls.empty());
  EXPECT_EQ(power_opened, 0);
}

TEST(DbRunTest, PowerThatCannotBeOpenedEndsTheRequestBeforeItIsReported) {
  std::vector<DbSetup> setups = NullSetups(1, kShortRun);
  int power_opened = 0;
  RunRequest req = Request(&setups, &power_opened);
  req.open_power = [](Clock&) -> Result<std::unique_ptr<power::PowerSampler>> {
    return Status::InvalidArgument("no such power source");
  };
  RecordingReporter rep;
  auto out = RunDatabases(req, rep);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(), "no such power source");
  EXPECT_TRUE(rep.calls.empty());
}

TEST(DbRunTest, AReporterThatCannotBeginEndsTheRequestBeforeTheRun) {
  class Refusing : public RecordingReporter {
   public:
    Status Begin(const std::vector<driver::DbInstanceSpec>&, const driver::RunOptions&,
                 bool) override {
      return Status::InvalidArgument("cannot write out_filename");
    }
  };
  std::vector<DbSetup> setups = NullSetups(1, kShortRun);
  int power_opened = 0;
  Refusing rep;
  auto out = RunDatabases(Request(&setups, &power_opened), rep);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(), "cannot write out_filename");
  EXPECT_TRUE(rep.calls.empty());  // never started
}

TEST(DbRunTest, AReporterOutputThatFailsEndsTheRunAtOnce) {
  // An output the reporter writes during the run (a status CSV on a full disk) fails once the
  // first second was reported: the run of an hour ends at the next sample with that error.
  class Failing : public RecordingReporter {
   public:
    Status OutputError() const override {
      return asked_ > 0 ? Status::IoError("cannot write --out_filename 'x.csv'") : Status::Ok();
    }
    void OnInterval(const metrics::TimeSeries&, const metrics::StatusFigures&) override {
      ++asked_;
    }

   private:
    int asked_ = 0;
  };
  std::vector<DbSetup> setups = NullSetups(1, {"run_time=1h", "warmup_time=0", "label=t"});
  int power_opened = 0;
  Failing rep;
  auto out = RunDatabases(Request(&setups, &power_opened), rep);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(out->run_status.message(), "cannot write --out_filename 'x.csv'");
  EXPECT_FALSE(out->result.interrupted);  // not a signal's stop
  EXPECT_LT(out->result.measured_sec, 3600);
  ASSERT_FALSE(out->result.warnings.empty());
  EXPECT_NE(out->result.warnings.back().find("the run ended early"), std::string::npos);
}

}  // namespace
}  // namespace sb::session
