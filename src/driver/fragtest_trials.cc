#include "driver/fragtest_trials.h"

#include <utility>

#include "driver/file_pass_runner.h"
#include "driver/io_runner.h"
#include "workload/fs/file_pass.h"
#include "workload/fs/target_extents.h"
#include "workload/storage/test_file.h"

namespace sb::driver {

FragtestTrialRunner::FragtestTrialRunner(const io::EngineRegistry& engines,
                                         std::vector<storage::AccessSpec> specs, IoRunConfig config,
                                         Clock& clock, std::string path, uint64_t data_start,
                                         uint64_t data_bytes,
                                         std::function<void(const std::string&)> progress)
    : engines_(engines),
      specs_(std::move(specs)),
      config_(std::move(config)),
      clock_(clock),
      path_(std::move(path)),
      data_start_(data_start),
      data_bytes_(data_bytes),
      progress_(std::move(progress)) {}

Result<fsload::FragtestTrial> FragtestTrialRunner::RunSpec(const std::string& phase, int round,
                                                           size_t spec_index) {
  auto info_now = storage::InspectTarget(path_);
  if (!info_now.ok()) return info_now.status();
  IoTarget t;
  t.path = path_;
  t.range_start = info_now->data_start;
  t.range_bytes = info_now->data_bytes;
  const fsload::TargetExtents ext = fsload::MeasureTargetExtents(path_);
  t.extents = ext.extents;
  t.extents_note = ext.note;
  t.filesystem = ext.filesystem;
  config_.targets = {t};
  const storage::AccessSpec& spec = specs_[spec_index];
  progress_(phase + " round " + std::to_string(round + 1) + ": '" + spec.name + "' (" +
            std::to_string(ext.extents) + " extents)");
  auto test =
      RunStorageTest(engines_, spec, static_cast<int>(spec_index), config_, clock_, progress_);
  if (!test.ok()) return test.status();
  test->name = phase + " r" + std::to_string(round + 1) + ": " + spec.name;
  fsload::FragtestTrial trial{test->Iops(), test->MibPerSec()};
  measured_sec_ += test->measured_sec;
  tests_.push_back(std::move(*test));
  return trial;
}

// One pass over the data area in 1 MiB reads, one at a time (fio's psync with bs=1M, rw=read),
// through the psync engine; MiB/s.
Result<double> FragtestTrialRunner::SequentialRead() {
  auto engine = engines_.Create("psync", io::EngineOptions{});
  if (!engine.ok()) return engine.status();
  fsload::ReadPassOptions ro;
  ro.path = path_;
  ro.block = 1 << 20;
  ro.direct = config_.direct;
  ro.buffered_fallback = false;
  ro.start = data_start_;
  ro.length = data_bytes_;
  auto pass = fsload::OpenReadPass(std::move(engine).value(), ro);
  if (!pass.ok()) return pass.status();
  auto timed = RunFilePass(clock_, **pass, nullptr);
  if (!timed.ok()) return timed.status();
  return timed->MibPerSec();
}

}  // namespace sb::driver
