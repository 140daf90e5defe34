// Reading any storebench file back: the power section in the layout runs with --power write.
#include "report/result_file.h"

#include <gtest/gtest.h>

#include <cmath>

namespace sb::report {
namespace {

TEST(ResultFileTest, PowerSectionMeanSourcesAndPoints) {
  const PowerSummary p = ReadPowerSection(R"({
    "schema_version": 2,
    "power": {
      "interval_sec": 1,
      "sources": [{"spec": "rapl", "description": "RAPL package 0"},
                  {"spec": "ipmi://bmc", "description": ""}],
      "points": {"t": [1, 2, 3], "sum_w": [100.5, null, 120], "watts": [[50, null, 60], [50.5, 61, 60]]},
      "windows": [{"label": "5m-10m", "avg_w": 1.0},
                  {"label": "measured", "start_sec": 0, "end_sec": 3, "avg_w": 110.25}]
    }
  })");
  ASSERT_TRUE(p.present);
  EXPECT_DOUBLE_EQ(p.mean_w, 110.25);
  EXPECT_EQ(p.source, "RAPL package 0, ipmi://bmc");
  ASSERT_EQ(p.points.size(), 3u);
  EXPECT_DOUBLE_EQ(p.points[0].second, 100.5);
  EXPECT_TRUE(std::isnan(p.points[1].second));
  EXPECT_DOUBLE_EQ(p.points[2].first, 3);
}

TEST(ResultFileTest, NoPowerSection) {
  EXPECT_FALSE(ReadPowerSection(R"({"schema_version": 2})").present);
  EXPECT_FALSE(ReadPowerSection("not json").present);
}

TEST(ResultFileTest, MissingFileIsNotFound) {
  auto f = ReadAnyResultFile("/nonexistent/x.json");
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().code(), StatusCode::kNotFound);
  EXPECT_NE(f.status().message().find("'/nonexistent/x.json' does not exist"), std::string::npos);
}

}  // namespace
}  // namespace sb::report
