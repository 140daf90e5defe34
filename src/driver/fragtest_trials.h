// Runs and times `io fragtest`'s trials (workload/fs/fragtest.h): each specification as an
// Iometer test through the run controller (io_runner.h), with the target's extent count at its
// start, and the sequential read as a file pass (file_pass_runner.h), all on one clock.
#ifndef STOREBENCH_DRIVER_FRAGTEST_TRIALS_H_
#define STOREBENCH_DRIVER_FRAGTEST_TRIALS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "driver/io_run_config.h"
#include "metrics/storage_result.h"
#include "storebench/io_engine.h"
#include "workload/fs/fragtest.h"
#include "workload/storage/access_spec.h"

namespace sb::driver {

class FragtestTrialRunner : public fsload::FragtestTrials {
 public:
  // `config` is the trials' run settings; its targets are set per trial. The sequential read
  // covers [data_start, data_start + data_bytes) of `path`.
  FragtestTrialRunner(const io::EngineRegistry& engines, std::vector<storage::AccessSpec> specs,
                      IoRunConfig config, Clock& clock, std::string path, uint64_t data_start,
                      uint64_t data_bytes, std::function<void(const std::string&)> progress);

  Result<fsload::FragtestTrial> RunSpec(const std::string& phase, int round, size_t spec) override;
  Result<double> SequentialRead() override;

  // Every specification trial run so far, named "<phase> r<round>: <spec>", in order.
  std::vector<metrics::StorageTest>& tests() { return tests_; }
  // Their measured seconds summed.
  double measured_sec() const { return measured_sec_; }

 private:
  const io::EngineRegistry& engines_;
  std::vector<storage::AccessSpec> specs_;
  IoRunConfig config_;
  Clock& clock_;
  std::string path_;
  uint64_t data_start_, data_bytes_;
  std::function<void(const std::string&)> progress_;
  std::vector<metrics::StorageTest> tests_;
  double measured_sec_ = 0;
};

}  // namespace sb::driver

#endif  // STOREBENCH_DRIVER_FRAGTEST_TRIALS_H_
