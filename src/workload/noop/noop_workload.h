// The noop workload: every operation is one prepared "SELECT 1" and nothing else. With the null
// back end it measures the harness itself (ops/s per core, recording cost); with a real
// database, the round-trip floor.
#ifndef STOREBENCH_WORKLOAD_NOOP_NOOP_WORKLOAD_H_
#define STOREBENCH_WORKLOAD_NOOP_NOOP_WORKLOAD_H_

#include "storebench/workload.h"

namespace sb::noop {

class NoopWorkload final : public workload::Workload {
 public:
  NoopWorkload();
  std::string name() const override { return "noop"; }
  const workload::Shape& shape() const override { return shape_; }
  void DeclareOptions(config::OptionSet* options) const override {}
  Status Configure(const config::OptionSet& options) override { return Status::Ok(); }
  std::map<std::string, std::string> Choices() const override {
    return {{"operation", "one prepared SELECT 1 per operation"}};
  }
  Status Load(db::DbBackend& backend, const workload::LoadContext& ctx) override {
    return Status::Ok();
  }
  Status CheckReady(db::Connection& conn) override { return Status::Ok(); }
  Result<std::unique_ptr<workload::Session>> NewSession(std::unique_ptr<db::Connection> conn,
                                                        uint64_t seed, int worker) override;
  Result<std::map<std::string, int64_t>> Snapshot(db::Connection& conn) override {
    return std::map<std::string, int64_t>{};
  }
  Result<std::vector<workload::Check>> Verify(db::Connection& conn,
                                              const std::map<std::string, int64_t>& before,
                                              const workload::Totals* whole_run) override {
    return std::vector<workload::Check>{};
  }
  std::vector<std::pair<std::string, double>> Figures(
      const workload::Totals& window, const workload::Totals& since_start,
      const workload::WindowFacts& facts) const override;

 private:
  workload::Shape shape_;
};

}  // namespace sb::noop

#endif  // STOREBENCH_WORKLOAD_NOOP_NOOP_WORKLOAD_H_
