// The result document's power section: written as documented, read back unchanged, and the
// per-second CSV's power columns.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "report/files/instance_series_csv.h"
#include "report/files/json_report.h"

namespace sb::report {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

metrics::RunResult WithPower() {
  metrics::RunResult r;
  r.workload = "dvdstore";
  r.headline_name = "opm";
  metrics::PowerResult& p = r.power;
  metrics::PowerSourceResult a;
  a.spec = "ptd://meter1:8888";
  a.description = "PTDaemon at meter1:8888 (WT310)";
  a.measures = "wall";
  a.uncertainty = 0.01;
  a.readings = 2;
  a.missing = 1;
  a.missing_at_sec = {2};
  a.errors = {"PTDaemon answered 'Error: range overflow'"};
  metrics::PowerSourceResult b;
  b.spec = "rapl:";
  b.measures = "package+dram";
  b.resolution_w = 1e-6;
  b.has_clock_offset = true;
  b.clock_offset_sec = -0.25;
  b.readings = 3;
  p.sources = {a, b};
  p.points = {{1, {200, 50}, 250}, {2, {kNaN, 51}, kNaN}, {3, {210, 52}, 262}};
  metrics::PowerWindow w;
  w.label = "measured";
  w.start_sec = 0;
  w.end_sec = 3;
  w.seconds = 2;
  w.missing = 1;
  w.avg_w = 256;
  w.energy_j = 768;
  w.per_watt = {{"opm", 46.875}};
  w.joules_per_unit = {{"opm", 1.28}};
  p.windows = {w};
  p.marks = {{0.5, "warmup"}, {1.5, "measure"}};
  return r;
}

TEST(PowerJson, RoundTripKeepsEveryField) {
  const metrics::RunResult r = WithPower();
  auto back = ResultFromJson(ResultToJson(r));
  ASSERT_TRUE(back.ok()) << back.status().message();
  const metrics::PowerResult& p = back->power;
  ASSERT_EQ(p.sources.size(), 2u);
  EXPECT_EQ(p.sources[0].spec, "ptd://meter1:8888");
  EXPECT_EQ(p.sources[0].description, "PTDaemon at meter1:8888 (WT310)");
  EXPECT_DOUBLE_EQ(p.sources[0].uncertainty, 0.01);
  EXPECT_DOUBLE_EQ(p.sources[0].resolution_w, 0);
  EXPECT_FALSE(p.sources[0].has_clock_offset);
  EXPECT_EQ(p.sources[0].missing, 1);
  EXPECT_EQ(p.sources[0].missing_at_sec, std::vector<double>{2});
  EXPECT_EQ(p.sources[0].errors, r.power.sources[0].errors);
  EXPECT_DOUBLE_EQ(p.sources[1].uncertainty, -1);
  EXPECT_TRUE(p.sources[1].has_clock_offset);
  EXPECT_DOUBLE_EQ(p.sources[1].clock_offset_sec, -0.25);
  ASSERT_EQ(p.points.size(), 3u);
  EXPECT_TRUE(std::isnan(p.points[1].sum_w));
  EXPECT_TRUE(std::isnan(p.points[1].watts[0]));
  EXPECT_DOUBLE_EQ(p.points[2].watts[1], 52);
  ASSERT_EQ(p.windows.size(), 1u);
  EXPECT_EQ(p.windows[0].label, "measured");
  EXPECT_EQ(p.windows[0].seconds, 2);
  EXPECT_DOUBLE_EQ(p.windows[0].avg_w, 256);
  EXPECT_DOUBLE_EQ(p.windows[0].energy_j, 768);
  EXPECT_EQ(p.windows[0].per_watt, r.power.windows[0].per_watt);
  EXPECT_EQ(p.windows[0].joules_per_unit, r.power.windows[0].joules_per_unit);
  EXPECT_EQ(p.marks, r.power.marks);
}

TEST(PowerJson, AbsentWithoutPowerAndColumnsPerSource) {
  metrics::RunResult none;
  const auto doc = nlohmann::json::parse(ResultToJson(none));
  EXPECT_FALSE(doc.contains("power"));
  auto back = ResultFromJson(ResultToJson(none));
  ASSERT_TRUE(back.ok());
  EXPECT_FALSE(back->power.present());

  const auto with = nlohmann::json::parse(ResultToJson(WithPower()));
  ASSERT_TRUE(with.contains("power"));
  EXPECT_EQ(with["power"]["points"]["watts"].size(), 2u);
  EXPECT_TRUE(with["power"]["points"]["sum_w"][1].is_null());
  EXPECT_TRUE(with["power"]["sources"][0]["clock_offset_sec"].is_null());
}

TEST(PowerJson, ABrokenPowerSectionIsAnErrorNamingTheKey) {
  auto doc = nlohmann::json::parse(ResultToJson(WithPower()));
  doc["power"]["windows"][0].erase("avg_w");
  auto back = ResultFromJson(doc.dump());
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.status().message().find("power.windows[0].avg_w"), std::string::npos)
      << back.status().message();
}

TEST(PowerSeriesCsv, OneRowPerPointWithTheSumAndEachSource) {
  EXPECT_EQ(PowerSeriesCsv(WithPower().power),
            "second,power_w,power_w ptd://meter1:8888,power_w rapl:\n"
            "1,250,200,50\n"
            "2,,,51\n"
            "3,262,210,52\n");
}

TEST(InstanceSeriesCsv, PowerColumnsFollowTheErrors) {
  metrics::RunResult r = WithPower();
  r.series.interval_sec = 1;
  r.series.type_names = {"order"};
  for (double t : {1.0, 2.0, 3.0}) {
    metrics::IntervalPoint p;
    p.t_sec = t;
    p.phase = "measure";
    p.type_counts = {10};
    p.type_mean_ms = {1};
    p.type_p99_ms = {2};
    r.series.points.push_back(p);
  }
  const std::string csv = InstanceSeriesCsv(r);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "instance,second,phase,opm,order_p99_ms,errors,power_w,power_w ptd://meter1:8888,"
            "power_w rapl:");
  EXPECT_NE(csv.find("\n1,1,measure,,2,0,250,200,50\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\n1,2,measure,,2,0,,,51\n"), std::string::npos) << csv;
}

}  // namespace
}  // namespace sb::report
