// Reading any storebench file back, and the part of a run's power that compare and the report use.
#include "report/result_file.h"

#include <gtest/gtest.h>

#include <cmath>

namespace sb::report {
namespace {

TEST(ResultFileTest, PowerSummaryMeanSourcesAndPoints) {
  metrics::PowerResult power;
  power.sources.resize(2);
  power.sources[0].spec = "rapl:";
  power.sources[0].description = "RAPL package 0";
  power.sources[1].spec = "ipmi://bmc";
  power.points = {{1, {50, 50.5}, 100.5}, {2, {NAN, 61}, NAN}, {3, {60, 60}, 120}};
  metrics::PowerWindow window;
  window.label = "5m-10m";
  window.avg_w = 1;
  metrics::PowerWindow measured;
  measured.label = "measured";
  measured.avg_w = 110.25;
  power.windows = {window, measured};
  const PowerSummary p = SummarizePower(power);
  ASSERT_TRUE(p.present);
  EXPECT_DOUBLE_EQ(p.mean_w, 110.25);
  EXPECT_EQ(p.source, "RAPL package 0, ipmi://bmc");
  ASSERT_EQ(p.points.size(), 3u);
  EXPECT_DOUBLE_EQ(p.points[0].second, 100.5);
  EXPECT_TRUE(std::isnan(p.points[1].second));
  EXPECT_DOUBLE_EQ(p.points[2].first, 3);
}

TEST(ResultFileTest, NoPowerMeasured) {
  EXPECT_FALSE(SummarizePower(metrics::PowerResult{}).present);
}

TEST(ResultFileTest, MissingFileIsNotFound) {
  auto f = ReadAnyResultFile("/nonexistent/x.json");
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().code(), StatusCode::kNotFound);
  EXPECT_NE(f.status().message().find("'/nonexistent/x.json' does not exist"), std::string::npos);
}

}  // namespace
}  // namespace sb::report
