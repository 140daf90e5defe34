// Window averages, energy and per-watt figures checked against values computed by hand from
// constructed readings.
#include "power/summary.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "metrics/headline.h"

namespace sb::power {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Ticks at t = 1 .. 10 s after Start (t0 = 10 s on the clock). Source A: 100, 110, ... 190 W;
// source B: 50 W, missing at t = 5. Sums: 150 160 170 180 – 200 210 220 230 240.
PowerRecording Recording() {
  PowerRecording rec;
  rec.period_nanos = kNanosPerSecond;
  for (int k = 0; k < 10; ++k)
    rec.tick_at.push_back(10 * kNanosPerSecond + (k + 1) * kNanosPerSecond);
  SourceRecording a, b;
  a.spec = "ptd://m:8888";
  a.caps.measures = Measures::kWall;
  b.spec = "rapl:";
  b.caps.measures = Measures::kPackageAndDram;
  for (int k = 0; k < 10; ++k) {
    a.watts.push_back(100 + 10 * k);
    b.watts.push_back(k == 4 ? kNaN : 50);
  }
  b.errors = {{"PTDaemon answered 'Error: x'", 1}};
  a.clock_offsets_sec = {3, 1, 2};
  rec.sources = {a, b};
  rec.marks = {{12 * kNanosPerSecond + kNanosPerSecond / 2, "measure"}};
  return rec;
}

TEST(SummarizePower, PointsSourcesAndWindowsByHand) {
  const std::vector<metrics::HeadlineSpec> specs = {
      metrics::UnitsPerMinute("opm", "orders per minute"),
      metrics::UnitsPerSecond("tps", "transactions per second")};
  const std::vector<PowerWindowSpec> windows = {
      {"measured", 2, 8, {{"opm", 11760}}},
      {"0s-3s", 0, 3, {{"tps", 98}}},
      {"empty", 20, 30, {{"tps", 98}}},
  };
  const metrics::PowerResult p = SummarizePower(Recording(), 10 * kNanosPerSecond, windows, specs);

  ASSERT_EQ(p.points.size(), 10u);
  EXPECT_DOUBLE_EQ(p.points[0].t_sec, 1);
  EXPECT_DOUBLE_EQ(p.points[0].sum_w, 150);
  EXPECT_TRUE(std::isnan(p.points[4].sum_w));  // B missing: no sum
  EXPECT_DOUBLE_EQ(p.points[4].watts[0], 140);
  EXPECT_DOUBLE_EQ(p.points[9].sum_w, 240);

  ASSERT_EQ(p.sources.size(), 2u);
  EXPECT_EQ(p.sources[0].measures, "wall");
  EXPECT_EQ(p.sources[0].readings, 10);
  EXPECT_EQ(p.sources[0].missing, 0);
  EXPECT_TRUE(p.sources[0].has_clock_offset);
  EXPECT_DOUBLE_EQ(p.sources[0].clock_offset_sec, 2);  // the median of 3, 1, 2
  EXPECT_EQ(p.sources[1].measures, "package+dram");
  EXPECT_EQ(p.sources[1].readings, 9);
  EXPECT_EQ(p.sources[1].missing, 1);
  ASSERT_EQ(p.sources[1].missing_at_sec.size(), 1u);
  EXPECT_DOUBLE_EQ(p.sources[1].missing_at_sec[0], 5);
  EXPECT_EQ(p.sources[1].errors, std::vector<std::string>{"PTDaemon answered 'Error: x'"});

  // (2, 8]: t = 3..8 → 170 180 – 200 210 220: 5 seconds, 1 missing, mean 980 / 5 = 196 W;
  // 196 W × 6 s = 1176 J; 11760 OPM / 196 W = 60 OPM/W; 11760 / 60 = 196 orders/s, so
  // 196 W / 196 orders/s = 1 J per order.
  const metrics::PowerWindow& m = p.windows[0];
  EXPECT_EQ(m.label, "measured");
  EXPECT_EQ(m.seconds, 5);
  EXPECT_EQ(m.missing, 1);
  EXPECT_DOUBLE_EQ(m.avg_w, 196);
  EXPECT_DOUBLE_EQ(m.energy_j, 1176);
  ASSERT_EQ(m.per_watt.size(), 1u);
  EXPECT_EQ(m.per_watt[0].first, "opm");
  EXPECT_DOUBLE_EQ(m.per_watt[0].second, 60);
  EXPECT_DOUBLE_EQ(m.joules_per_unit[0].second, 1);

  // (0, 3]: 150 160 170 → 160 W, 480 J; 98 TPS / 160 W = 0.6125; 160 / 98 J per transaction.
  const metrics::PowerWindow& w = p.windows[1];
  EXPECT_EQ(w.seconds, 3);
  EXPECT_DOUBLE_EQ(w.avg_w, 160);
  EXPECT_DOUBLE_EQ(w.energy_j, 480);
  EXPECT_DOUBLE_EQ(w.per_watt[0].second, 0.6125);
  EXPECT_DOUBLE_EQ(w.joules_per_unit[0].second, 160.0 / 98.0);

  // A window without readings has no figures rather than a division by zero.
  const metrics::PowerWindow& e = p.windows[2];
  EXPECT_EQ(e.seconds, 0);
  EXPECT_DOUBLE_EQ(e.avg_w, 0);
  EXPECT_DOUBLE_EQ(e.energy_j, 0);
  EXPECT_TRUE(e.per_watt.empty());

  ASSERT_EQ(p.marks.size(), 1u);
  EXPECT_DOUBLE_EQ(p.marks[0].first, 2.5);
  EXPECT_EQ(p.marks[0].second, "measure");
}

// The sampler starts a moment after the run's Start, so its ticks are at k s + 1 µs, tick 0
// included; the reading at tick k is the power of the second before it. Watts = 10 × k.
TEST(SummarizePower, AWindowUsesTheReadingsOfItsOwnSeconds) {
  PowerRecording rec;
  rec.period_nanos = kNanosPerSecond;
  SourceRecording a;
  a.spec = "cmd:x";
  for (int k = 0; k <= 7; ++k) {
    rec.tick_at.push_back(k * kNanosPerSecond + 1000);
    a.watts.push_back(10.0 * k);
  }
  rec.sources = {a};
  const metrics::PowerResult p =
      SummarizePower(rec, 0, {{"idle", 2, 5, {}}, {"log", 0, 2, {}}}, {});
  // (2, 5]: the readings at 3, 4 and 5.000001 s (the seconds 2-3, 3-4, 4-5), not 2.000001 s.
  EXPECT_EQ(p.windows[0].seconds, 3);
  EXPECT_DOUBLE_EQ(p.windows[0].avg_w, 40);
  // (0, 2]: two seconds, the readings at 1 and 2 s; tick 0 is the second before the Start.
  EXPECT_EQ(p.windows[1].seconds, 2);
  EXPECT_DOUBLE_EQ(p.windows[1].avg_w, 15);
}

TEST(RunWindows, MeasuredFirstThenTheReportingWindowsCutAtTheEnd) {
  metrics::RunResult r;
  r.headlines = {{"opm", 1000}};
  metrics::WindowResult w;
  w.label = "23m-28m";
  w.start_sec = 1380;
  w.end_sec = 1680;
  w.headlines = {{"opm", 1200}};
  r.windows.push_back(w);
  const auto ws = RunWindows(r, 60, 1500);
  ASSERT_EQ(ws.size(), 2u);
  EXPECT_EQ(ws[0].label, "measured");
  EXPECT_DOUBLE_EQ(ws[0].start_sec, 60);
  EXPECT_DOUBLE_EQ(ws[0].end_sec, 1500);
  EXPECT_EQ(ws[0].headlines, r.headlines);
  EXPECT_EQ(ws[1].label, "23m-28m");
  EXPECT_DOUBLE_EQ(ws[1].end_sec, 1500);  // the run ended before the window did
  EXPECT_EQ(ws[1].headlines, w.headlines);
}

}  // namespace
}  // namespace sb::power
