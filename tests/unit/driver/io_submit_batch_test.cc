// How the storage loop hands I/Os to the engine: one per submit call by default (Iometer and
// fio), up to --submit_batch per call, or every free slot at once (0). The engine under test is
// the null engine (it exists to test the harness), wrapped to record each Submit call's size.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <vector>

#include "backend/io/null/null_engine.h"
#include "base/clock.h"
#include "driver/io_runner.h"
#include "workload/storage/access_spec.h"

namespace sb::driver {
namespace {

// What the wrapped engine saw: the `n` of every Submit call. The run ends by its count, not by
// time: after `stop_after` calls the engine raises the run's stop flag, so a loaded machine
// that gives the worker little CPU makes the test slower, never different.
struct SubmitLog {
  std::vector<int> sizes;
  size_t stop_after = 100;
  std::atomic<bool> stop{false};
};

class RecordingEngine final : public io::IoEngine {
 public:
  RecordingEngine(std::unique_ptr<io::IoEngine> inner, SubmitLog* log)
      : inner_(std::move(inner)), log_(log) {}
  const char* name() const override { return "recording"; }
  bool is_async() const override { return true; }
  Result<int> Open(const std::string& path, const io::FileOptions& options) override {
    return inner_->Open(path, options);
  }
  Result<int> Submit(const io::IoRequest* requests, int n) override {
    log_->sizes.push_back(n);
    if (log_->sizes.size() >= log_->stop_after) log_->stop.store(true);
    return inner_->Submit(requests, n);
  }
  Result<int> Reap(io::IoCompletion* out, int min_complete, int max) override {
    return inner_->Reap(out, min_complete, max);
  }
  void Close() override { inner_->Close(); }

 private:
  std::unique_ptr<io::IoEngine> inner_;
  SubmitLog* log_;
};

// Runs 4 KiB random reads at `outstanding` with `submit_batch` on one worker for a short while
// and returns the sizes of the Submit calls.
std::vector<int> SubmitSizes(int outstanding, int submit_batch) {
  SubmitLog log;
  io::EngineRegistry engines;
  engines.Register("recording",
                   [&log](const io::EngineOptions& o) -> Result<std::unique_ptr<io::IoEngine>> {
                     auto inner = io::CreateNullEngine(o);
                     if (!inner.ok()) return inner.status();
                     return std::unique_ptr<io::IoEngine>(
                         std::make_unique<RecordingEngine>(std::move(inner).value(), &log));
                   });
  auto spec = storage::ParseSpecText("4KiB,100%read,100%random");
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  IoRunConfig c;
  c.engine = "recording";
  c.outstanding = outstanding;
  c.submit_batch = submit_batch;
  c.targets.emplace_back();
  c.targets.back().path = "unused-by-the-null-engine";
  c.targets.back().range_bytes = 64 << 20;
  c.run_nanos = 600 * kNanosPerSecond;  // a bound only: the engine's stop flag ends the run
  c.stop = &log.stop;
  SteadyClock clock;
  auto t = RunStorageTest(engines, *spec, 0, c, clock, nullptr);
  EXPECT_TRUE(t.ok()) << t.status().message();
  if (t.ok()) {
    EXPECT_EQ(t->submit_batch, submit_batch);  // recorded in the result
  }
  return log.sizes;
}

TEST(IoSubmitBatchTest, DefaultSubmitsEachIoOnItsOwn) {
  const std::vector<int> sizes = SubmitSizes(32, 1);
  ASSERT_GT(sizes.size(), 32u);
  EXPECT_EQ(*std::max_element(sizes.begin(), sizes.end()), 1);
}

TEST(IoSubmitBatchTest, BatchOfFourNeverHandsMoreThanFour) {
  const std::vector<int> sizes = SubmitSizes(32, 4);
  ASSERT_GT(sizes.size(), 8u);
  // The 32 free slots at the start go out as eight calls of four.
  for (int i = 0; i < 8; ++i) EXPECT_EQ(sizes[i], 4) << "call " << i;
  EXPECT_EQ(*std::max_element(sizes.begin(), sizes.end()), 4);
}

TEST(IoSubmitBatchTest, ZeroSubmitsEveryFreeSlotInOneCall) {
  const std::vector<int> sizes = SubmitSizes(32, 0);
  ASSERT_FALSE(sizes.empty());
  EXPECT_EQ(sizes[0], 32);
}

TEST(IoSubmitBatchTest, NegativeBatchIsRefused) {
  io::EngineRegistry engines;
  engines.Register("null", io::CreateNullEngine);
  auto spec = storage::ParseSpecText("4KiB,100%read");
  ASSERT_TRUE(spec.ok());
  IoRunConfig c;
  c.engine = "null";
  c.submit_batch = -1;
  c.targets.emplace_back();
  c.targets.back().path = "unused";
  c.targets.back().range_bytes = 1 << 20;
  c.run_nanos = kNanosPerMilli;
  SteadyClock clock;
  auto t = RunStorageTest(engines, *spec, 0, c, clock, nullptr);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("submit_batch"), std::string::npos);
}

}  // namespace
}  // namespace sb::driver
