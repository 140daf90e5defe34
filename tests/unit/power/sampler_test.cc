// The sampler with scripted sources (test doubles of the PowerSource interface, not of a
// device): failures are missing seconds with their reason and sampling goes on, a slow source
// overruns only its own ticks, marks reach the sources that take them.
#include "power/sampler.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <mutex>
#include <thread>

namespace sb::power {
namespace {

class ScriptedSource final : public PowerSource {
 public:
  // Reads return `watts`; every `fail_every`-th read fails; each read takes `read_ms`.
  ScriptedSource(double watts, int fail_every, int read_ms, bool marks)
      : watts_(watts), fail_every_(fail_every), read_ms_(read_ms) {
    caps_.measures = Measures::kWall;
    caps_.marks = marks;
  }
  Status Open() override { return Status::Ok(); }
  Result<PowerReading> Read() override {
    if (read_ms_ > 0) std::this_thread::sleep_for(std::chrono::milliseconds(read_ms_));
    ++reads_;
    if (fail_every_ > 0 && reads_ % fail_every_ == 0) return Status::IoError("scripted failure");
    PowerReading r;
    r.has_watts = true;
    r.watts = watts_;
    return r;
  }
  Status Mark(const std::string& m) override {
    std::lock_guard<std::mutex> lock(mu_);
    marks_.push_back(m);
    return Status::Ok();
  }
  void Close() override { closed_ = true; }
  const PowerCapabilities& capabilities() const override { return caps_; }
  const std::string& spec() const override { return spec_; }
  std::string Describe() const override { return "scripted"; }

  std::vector<std::string> marks() {
    std::lock_guard<std::mutex> lock(mu_);
    return marks_;
  }
  bool closed() const { return closed_; }

 private:
  double watts_;
  int fail_every_;
  int read_ms_;
  int reads_ = 0;
  PowerCapabilities caps_;
  std::string spec_ = "scripted:";
  std::mutex mu_;
  std::vector<std::string> marks_;
  bool closed_ = false;
};

// Until every live source has finished tick `tick` (read it or given up on it).
void AwaitTick(const PowerSampler& sampler, int64_t tick) {
  std::vector<double> watts;
  while (sampler.Latest(&watts) < tick) std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

TEST(PowerSampler, FailuresAreMissingSecondsWithTheirReasonAndSamplingGoesOn) {
  std::vector<std::unique_ptr<PowerSource>> sources;
  auto* failing = new ScriptedSource(100, 2, 0, true);
  auto* steady = new ScriptedSource(40, 0, 0, false);
  sources.emplace_back(failing);
  sources.emplace_back(steady);
  SteadyClock clock;
  PowerSampler sampler(clock, std::move(sources), 50 * kNanosPerMilli);
  sampler.Start();
  sampler.Mark("measure");
  // Three ticks done by both sources (the failing one has read, failed and read again, and had
  // the mark before its second read): what the assertions below need.
  AwaitTick(sampler, 2);
  sampler.Stop();
  const PowerRecording rec = sampler.Recording();
  ASSERT_GE(rec.tick_at.size(), 3u);
  ASSERT_EQ(rec.sources.size(), 2u);
  const SourceRecording& f = rec.sources[0];
  ASSERT_EQ(f.watts.size(), rec.tick_at.size());
  int64_t nan = 0, ok = 0;
  for (double w : f.watts) {
    if (std::isnan(w)) {
      ++nan;
    } else {
      ++ok;
      EXPECT_DOUBLE_EQ(w, 100);
    }
  }
  EXPECT_GT(ok, 0);
  EXPECT_GT(nan, 0);
  // Every missing tick has its reason counted.
  int64_t counted = 0;
  bool scripted = false;
  for (const auto& [m, n] : f.errors) {
    counted += n;
    scripted = scripted || m == "scripted failure";
  }
  EXPECT_TRUE(scripted);
  EXPECT_EQ(counted, nan);
  EXPECT_EQ(failing->marks(), std::vector<std::string>{"measure"});
  EXPECT_TRUE(steady->marks().empty());  // it takes no marks
  EXPECT_TRUE(failing->closed());
  ASSERT_EQ(rec.marks.size(), 1u);
  EXPECT_EQ(rec.marks[0].second, "measure");
  EXPECT_EQ(rec.sources[1].watts.size(), rec.tick_at.size());
}

TEST(PowerSampler, ASlowSourceMissesItsOwnTicksOnly) {
  std::vector<std::unique_ptr<PowerSource>> sources;
  sources.emplace_back(new ScriptedSource(300, 0, 120, false));  // 120 ms per read, 50 ms ticks
  sources.emplace_back(new ScriptedSource(20, 0, 0, false));
  SteadyClock clock;
  PowerSampler sampler(clock, std::move(sources), 50 * kNanosPerMilli);
  sampler.Start();
  // Until the slow source has recorded a reading after the ticks its first read overran (tick 1
  // at least; the fast source has read every tick meanwhile).
  AwaitTick(sampler, 2);
  sampler.Stop();
  const PowerRecording rec = sampler.Recording();
  const SourceRecording& slow = rec.sources[0];
  bool overran = false;
  for (const auto& [m, n] : slow.errors) {
    overran = overran || m.find("the previous read was still under way") != std::string::npos;
  }
  EXPECT_TRUE(overran);
  int64_t fast_readings = 0, slow_readings = 0;
  for (double w : rec.sources[1].watts) fast_readings += std::isnan(w) ? 0 : 1;
  for (double w : slow.watts) slow_readings += std::isnan(w) ? 0 : 1;
  EXPECT_GT(fast_readings, slow_readings);
}

TEST(PowerSampler, LatestIsTheLastTickEverySourceFinished) {
  std::vector<std::unique_ptr<PowerSource>> sources;
  sources.emplace_back(new ScriptedSource(7, 0, 0, false));
  sources.emplace_back(new ScriptedSource(8, 0, 0, false));
  SteadyClock clock;
  PowerSampler sampler(clock, std::move(sources), 20 * kNanosPerMilli);
  std::vector<double> w;
  EXPECT_EQ(sampler.Latest(&w), -1);
  sampler.Start();
  while (sampler.Latest(&w) < 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_EQ(w.size(), 2u);
  EXPECT_DOUBLE_EQ(w[0], 7);
  EXPECT_DOUBLE_EQ(w[1], 8);
  sampler.Stop();
}

}  // namespace
}  // namespace sb::power
