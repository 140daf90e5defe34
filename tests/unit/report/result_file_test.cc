// Reading any storebench file back, and the part of a run's power that compare and the report use.
#include "report/files/result_file.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "report/files/comparison_json.h"
#include "report/files/json_report.h"

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

std::string WriteFile(const std::string& name, const std::string& text) {
  const std::string dir = std::string(STOREBENCH_TEST_TMP) + "/result_file";
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// nlohmann/json throws out_of_range.406 (not a parse_error) for a number beyond a double; it
// aborted `storebench report` and `compare` (rc 134) before it was caught.
TEST(ResultFileTest, ANumberBeyondADoubleIsARefusalNotACrash) {
  for (const std::string& text :
       {std::string(R"({"a": 1e400})"),
        std::string(R"({"schema_version": 1, "tool": {"name": "storebench"}, "x": -1e999})"),
        std::string(R"({"kind": "storebench comparison", "schema_version": 1e400})")}) {
    const std::string path = WriteFile("overflow.json", text);
    auto f = ReadAnyResultFile(path);
    ASSERT_FALSE(f.ok()) << text;
    EXPECT_EQ(f.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(f.status().message().rfind(
                  "'" + path + "' is not a storebench result file: number overflow parsing '", 0),
              0u)
        << f.status().message();
    auto r = ResultFromJson(text);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find("number overflow"), std::string::npos)
        << r.status().message();
  }
}

// A value of a type the readers did not expect, where nlohmann's value() or get() throws.
TEST(ResultFileTest, AComparisonWithAStringVersionIsRefused) {
  auto c = ComparisonFromJson(
      R"({"kind": "storebench comparison", "schema_version": "2", "workload": "oltp"})");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("schema_version"), std::string::npos);
}

}  // namespace
}  // namespace sb::report
