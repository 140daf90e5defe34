// A workload that does nothing, for driver tests: every part of the Workload contract answered
// trivially, so that a test overrides only what it exercises (sessions, terminals, comparisons).
#ifndef STOREBENCH_TESTS_UNIT_DRIVER_STUB_WORKLOAD_H_
#define STOREBENCH_TESTS_UNIT_DRIVER_STUB_WORKLOAD_H_

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "storebench/workload.h"

namespace sb::driver {

class StubWorkload : public workload::Workload {
 public:
  explicit StubWorkload(std::string name) : name_(std::move(name)) {}
  std::string name() const override { return name_; }
  const workload::Shape& shape() const override { return shape_; }
  void DeclareOptions(config::OptionSet*) const override {}
  Status Configure(const config::OptionSet&) override { return Status::Ok(); }
  std::map<std::string, std::string> Choices() const override { return {}; }
  Status Load(db::DbBackend&, const workload::LoadContext&) override { return Status::Ok(); }
  Status CheckReady(db::Connection&) override { return Status::Ok(); }
  Result<std::unique_ptr<workload::Session>> NewSession(std::unique_ptr<db::Connection>, uint64_t,
                                                        int) override {
    return Status::Internal("unused");
  }
  Result<std::map<std::string, int64_t>> Snapshot(db::Connection&) override {
    return std::map<std::string, int64_t>{};
  }
  Result<std::vector<workload::Check>> Verify(db::Connection&,
                                              const std::map<std::string, int64_t>&,
                                              const workload::Totals*) override {
    return std::vector<workload::Check>{};
  }
  std::vector<std::pair<std::string, double>> Figures(const workload::Totals&,
                                                      const workload::Totals&,
                                                      const workload::WindowFacts&) const override {
    return {};
  }

 protected:
  workload::Shape shape_;

 private:
  std::string name_;
};

}  // namespace sb::driver

#endif  // STOREBENCH_TESTS_UNIT_DRIVER_STUB_WORKLOAD_H_
