// The charbench-style lines and summary of Swingbench-like workloads: TPM over the trailing
// 60 s, TPS over the last interval, failed transactions left out, per-transaction columns, and
// the maximum TPM of the measured window.
#include "report/charbench_console.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace sb::report {
namespace {

// `n` one-second points: each with `units` units, of which `failed` failed, split over two step
// types (A gets `a`, B the rest); phase "measure".
metrics::TimeSeries Series(int n, uint64_t units, int64_t failed, uint64_t a) {
  metrics::TimeSeries s;
  s.interval_sec = 1;
  s.type_names = {"transaction", "A", "B"};
  s.counter_names = {"failed", "selects"};
  for (int i = 0; i < n; ++i) {
    metrics::IntervalPoint p;
    p.t_sec = i + 1;
    p.phase = "measure";
    p.type_counts = {units, a, units - a - static_cast<uint64_t>(failed)};
    p.counters = {failed, 7};
    s.points.push_back(p);
  }
  return s;
}

std::vector<std::string> Fields(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> f;
  for (std::string w; in >> w;) f.push_back(w);
  return f;
}

TEST(Charbench, HeaderNamesEveryStepType) {
  EXPECT_EQ(Fields(CharbenchHeader(Series(1, 1, 0, 1))),
            (std::vector<std::string>{"Time", "Users", "TPM", "TPS", "Errors", "A", "B"}));
}

TEST(Charbench, LineCountsTheTrailingMinuteAndTheLastInterval) {
  // 90 s of 10 units/s, 1 failed each second: TPM counts the last 60 s only (540 completed),
  // TPS the last 10 s (9/s), errors the last 10 s (10); A 3/s and B 6/s over 60 s.
  const auto f =
      Fields(FormatCharbenchLine(Series(90, 10, 1, 3), 80, 10, std::chrono::system_clock::now()));
  ASSERT_EQ(f.size(), 7u);
  EXPECT_EQ(f[1], "80");
  EXPECT_EQ(f[2], "540");
  EXPECT_EQ(f[3], "9.0");
  EXPECT_EQ(f[4], "10");
  EXPECT_EQ(f[5], "180");
  EXPECT_EQ(f[6], "360");
}

TEST(Charbench, MaximumTpmOverTheMeasuredWindow) {
  metrics::TimeSeries s = Series(120, 10, 0, 5);
  s.points[0].phase = "warmup";  // a warm-up burst does not count
  s.points[0].type_counts = {100000, 50000, 50000};
  for (int i = 70; i < 80; ++i) s.points[i].type_counts[0] = 40;  // a busy 10 s
  EXPECT_DOUBLE_EQ(MaximumTpm(s), 50 * 10 + 10 * 40);
  // A window shorter than a minute: its rate per minute.
  EXPECT_DOUBLE_EQ(MaximumTpm(Series(30, 10, 2, 5)), 8 * 60);
}

}  // namespace
}  // namespace sb::report
