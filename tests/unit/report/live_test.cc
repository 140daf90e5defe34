// The live outputs (report/console/live.h): the --progress=json line's rates.
#include "report/console/live.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace sb::report {
namespace {

metrics::IntervalPoint Point(double t, uint64_t count) {
  metrics::IntervalPoint p;
  p.t_sec = t;
  p.phase = "measure";
  p.type_counts = {count};
  p.type_mean_ms = {1};
  p.type_p99_ms = {2};
  return p;
}

TEST(LiveTest, AShortLastPointIsARateOverItsOwnSpan) {
  metrics::TimeSeries series;
  series.interval_sec = 1;
  series.type_names = {"order"};
  series.points = {Point(1, 100), Point(2, 100)};
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(ProgressJsonLine(series, {}))["types"]["order"]["per_sec"]
                       .get<double>(),
                   100);
  // The run ended 0.05 s after the last whole second: 5 units in 0.05 s is 100 a second, not 5.
  series.points.push_back(Point(2.05, 5));
  EXPECT_NEAR(nlohmann::json::parse(ProgressJsonLine(series, {}))["types"]["order"]["per_sec"]
                  .get<double>(),
              100, 1e-9);
  // The first point spans from Start.
  series.points = {Point(0.5, 30)};
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(ProgressJsonLine(series, {}))["types"]["order"]["per_sec"]
                       .get<double>(),
                   60);
}

}  // namespace
}  // namespace sb::report
