// The keys schema_version 2 added to the result document: headlines and their definitions,
// window headlines, baseline kinds, and the instances of a run of several; and that version 1
// documents still read.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "report/files/json_report.h"
#include "unit/report/expect_same_result.h"
#include "unit/report/sample_result.h"

namespace sb::report {
namespace {

using Json = nlohmann::ordered_json;
using testing::ExpectSameResult;

std::vector<std::string> KeysOf(const Json& object) {
  std::vector<std::string> keys;
  for (const auto& [k, v] : object.items()) keys.push_back(k);
  return keys;
}

// ---- Headlines ------------------------------------------------------------------------------

TEST(ResultToJsonVersion2Test, HeadlinesAreAnOrderedObjectWithIntegersWhereWhole) {
  const Json doc = Json::parse(ResultToJson(testing::SampleResult()));
  EXPECT_EQ(doc["schema_version"], 2);
  EXPECT_EQ(KeysOf(doc["headlines"]), (std::vector<std::string>{"opm", "rollbacks_per_sec"}));
  EXPECT_TRUE(doc["headlines"]["opm"].is_number_integer());
  EXPECT_EQ(doc["headlines"]["opm"], 12345);
  EXPECT_EQ(doc["headlines"]["rollbacks_per_sec"], 2593.0 / 600.0);
}

TEST(ResultToJsonVersion2Test, HeadlineSpecsNameTheirTypesAndCounters) {
  const Json doc = Json::parse(ResultToJson(testing::SampleResult()));
  ASSERT_EQ(doc["headline_specs"].size(), 2u);
  EXPECT_EQ(doc["headline_specs"][0],
            Json::parse(R"({"name":"opm","words":"orders per minute","per_second":60.0,)"
                        R"("types":[{"index":3,"name":"purchase","weight":1.0}],"counters":[]})"));
  EXPECT_EQ(doc["headline_specs"][1]["types"],
            Json::parse(R"([{"index":2,"name":"browse","weight":0.25}])"));
  EXPECT_EQ(doc["headline_specs"][1]["counters"],
            Json::parse(R"([{"index":0,"name":"rollbacks","weight":1.0}])"));
}

TEST(ResultToJsonVersion2Test, AnIndexOutsideTheSeriesHasAnEmptyNameAndStillRoundTrips) {
  metrics::RunResult r = testing::SampleResult();
  r.headline_specs[1].counters = {{7, 2.5}};
  const std::string text = ResultToJson(r);
  EXPECT_EQ(Json::parse(text)["headline_specs"][1]["counters"][0]["name"], "");
  Result<metrics::RunResult> back = ResultFromJson(text);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->headline_specs[1].counters, (std::vector<std::pair<int, double>>{{7, 2.5}}));
}

// ---- Instances ------------------------------------------------------------------------------

TEST(ResultFromJsonVersion2Test, TwoInstancesRoundTripFieldByField) {
  const metrics::RunResult r = testing::SampleMultiInstanceResult();
  const std::string text = ResultToJson(r);
  Result<metrics::RunResult> back = ResultFromJson(text);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_EQ(back->instances.size(), 2u);
  ExpectSameResult(r, *back);
  EXPECT_EQ(back->instances[1].name, "ds3_2");
  EXPECT_EQ(back->instances[1].target, "postgresql://bench@db2:5432/ds3");
  EXPECT_EQ(back->instances[1].series.points.size(), 2u);
  EXPECT_EQ(back->baselines[0].decided_by, "ds3_2");
  EXPECT_TRUE(back->name.empty());
  // And the rebuilt result serializes to the very same document.
  EXPECT_EQ(ResultToJson(*back), text);
}

TEST(ResultToJsonVersion2Test, InstancesAreCompleteDocumentsBeforeTheTimeSeries) {
  const Json doc = Json::parse(ResultToJson(testing::SampleMultiInstanceResult()));
  const std::vector<std::string> top = KeysOf(doc);
  ASSERT_GE(top.size(), 2u);
  EXPECT_EQ(top[top.size() - 2], "instances");
  EXPECT_EQ(top.back(), "time_series");
  EXPECT_FALSE(doc.contains("name"));
  ASSERT_EQ(doc["instances"].size(), 2u);
  const Json& two = doc["instances"][1];
  const std::vector<std::string> keys = KeysOf(two);
  ASSERT_GE(keys.size(), 5u);
  EXPECT_EQ((std::vector<std::string>(keys.begin(), keys.begin() + 5)),
            (std::vector<std::string>{"schema_version", "tool", "name", "target", "workload"}));
  EXPECT_EQ(two["schema_version"], kResultSchemaVersion);
  EXPECT_EQ(two["name"], "ds3_2");
  EXPECT_EQ(two["headlines"]["opm"], 5845);
  EXPECT_EQ(two["environment"]["db.product"], "PostgreSQL");
  EXPECT_FALSE(two.contains("instances"));
  EXPECT_EQ(keys.back(), "time_series");
  EXPECT_EQ(two["time_series"]["points"][1]["counts"][3], 205 + 7);
  EXPECT_EQ(doc["baselines"][0]["decided_by"], "ds3_2");
  EXPECT_FALSE(two["baselines"][0].contains("decided_by"));
}

// Lines of `text` that hold one time-series point, with their indentation.
std::vector<std::string> PointLines(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.find("{\"t\":") != std::string::npos) lines.push_back(line);
  }
  return lines;
}

TEST(ResultToJsonVersion2Test, EveryDocumentsPointsTakeOneLineEach) {
  const metrics::RunResult r = testing::SampleMultiInstanceResult();
  const std::string text = ResultToJson(r);
  const std::vector<std::string> lines = PointLines(text);
  // Instance 1 (3 points), instance 2 (2 points), then the aggregate's 3 points.
  ASSERT_EQ(lines.size(), 8u) << text;
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(lines[i].rfind("          {\"t\":", 0), 0u) << lines[i];  // inside "instances"
  }
  for (size_t i = 5; i < 8; ++i) EXPECT_EQ(lines[i].rfind("      {\"t\":", 0), 0u) << lines[i];
  EXPECT_EQ(text.find("__storebench_time_series_points__"), std::string::npos);
}

TEST(ResultToJsonVersion2Test, PlaceholderTextInInstanceStringsIsHarmless) {
  metrics::RunResult r = testing::SampleMultiInstanceResult();
  // The placeholders the writer tries first, as user strings; one with a leading quote, which
  // JSON escapes to \" so that the placeholder in quotes appears inside it.
  r.instances[0].environment["host"] = "__storebench_time_series_points__0";
  r.instances[1].environment["host"] = "\"__storebench_time_series_points__2";
  r.environment["host"] = "__storebench_time_series_points__1";
  const std::string text = ResultToJson(r);
  Result<metrics::RunResult> back = ResultFromJson(text);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ExpectSameResult(r, *back);
  EXPECT_EQ(PointLines(text).size(), 8u) << text;
}

TEST(ResultToJsonVersion2Test, PointsAreWrittenInlineWhenEveryPlaceholderCollides) {
  // Strings made to collide with the first series' placeholder for every salt the writer tries:
  // the points are then written inline (pretty-printed), and the document is still correct.
  metrics::RunResult r = testing::SampleMultiInstanceResult();
  r.environment["s0"] = "__storebench_time_series_points__0";
  for (int salt = 1; salt < 8; ++salt) {
    r.environment["s" + std::to_string(salt)] =
        "__storebench_time_series_points__" + std::to_string(salt) + "_0";
  }
  const std::string text = ResultToJson(r);
  EXPECT_TRUE(PointLines(text).empty());
  Result<metrics::RunResult> back = ResultFromJson(text);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ExpectSameResult(r, *back);
}

// ---- Version 1 documents ------------------------------------------------------------------

// The sample as storebench wrote it with schema_version 1: none of the version 2 keys.
Json Version1Document() {
  Json doc = Json::parse(ResultToJson(testing::SampleResult()));
  doc["schema_version"] = 1;
  doc.erase("headlines");
  doc.erase("headline_specs");
  for (auto& w : doc["windows"]) w.erase("headlines");
  for (auto& b : doc["baselines"]) b.erase("kind");
  return doc;
}

TEST(ResultFromJsonVersion2Test, Version1DocumentStillReads) {
  Result<metrics::RunResult> back = ResultFromJson(Version1Document().dump(2));
  ASSERT_TRUE(back.ok()) << back.status().message();
  metrics::RunResult expected = testing::SampleResult();
  testing::ClearVersion2Fields(&expected);
  ExpectSameResult(expected, *back);
  EXPECT_TRUE(back->headlines.empty());
  EXPECT_TRUE(back->headline_specs.empty());
  EXPECT_TRUE(back->windows[0].headlines.empty());
  EXPECT_EQ(back->baselines[0].kind, "window_mean");
  EXPECT_TRUE(back->instances.empty());
  // Written again it is a version 2 document with the new keys empty.
  const Json again = Json::parse(ResultToJson(*back));
  EXPECT_EQ(again["schema_version"], 2);
  EXPECT_EQ(again["headlines"], Json::object());
  EXPECT_EQ(again["headline_specs"], Json::array());
}

TEST(ResultFromJsonVersion2Test, HandWrittenMinimalVersion1DocumentReads) {
  // Only the keys version 1 required, as a third-party tool might write them.
  const char* text = R"({"schema_version": 1,
    "tool": {"name": "storebench", "version": "0.1.0"}, "workload": "dvdstore",
    "started_at": "", "ended_at": "", "interrupted": false, "loop_model": "",
    "headline": {"name": "opm", "value": 2650}, "config": {}, "environment": {},
    "choices": {}, "measured_sec": 60.0, "operations": [], "counters": {}, "errors": {},
    "retries": 0, "workers": {"started": 1, "failed": 0}, "figures": {"opm": 2650},
    "final_status": {"et_sec": 60.0, "n_overall": 2650, "opm": 2650,
      "rt_tot_lastn_max_msec": 0, "rt_tot_avg_msec": 0, "rt_tot_sampled": 0,
      "n_rollbacks": 0, "rollback_pct": 0.0},
    "driver": {"cpu_sec": 0.0, "cpu_sec_per_op": 0.0, "cpu_share_of_core": 0.0},
    "baselines": [{"rule": "opm>=2600@0m-1m", "words": "w", "measured": 2650, "passed": true}],
    "verify": [],
    "time_series": {"interval_sec": 1.0, "type_names": [], "counter_names": [], "points": []}})";
  Result<metrics::RunResult> back = ResultFromJson(text);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->headline_value, 2650);
  EXPECT_TRUE(back->headlines.empty());
  ASSERT_EQ(back->baselines.size(), 1u);
  EXPECT_EQ(back->baselines[0].kind, "window_mean");
  EXPECT_TRUE(back->baselines[0].decided_by.empty());
}

// ---- Reader errors --------------------------------------------------------------------------

// The message of ResultFromJson(doc) failing; "" if it did not fail.
std::string FailureOf(const Json& doc) {
  Result<metrics::RunResult> r = ResultFromJson(doc.dump());
  if (r.ok()) return "";
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  return std::string(r.status().message());
}

TEST(ResultFromJsonVersion2Test, Version2KeysAreRequiredAndChecked) {
  struct Case {
    const char* what;
    void (*mutate)(Json*);
    const char* message;
  };
  const Case cases[] = {
      {"headlines missing", [](Json* d) { d->erase("headlines"); }, "missing key 'headlines'"},
      {"headline_specs missing", [](Json* d) { d->erase("headline_specs"); },
       "missing key 'headline_specs'"},
      {"window headlines missing", [](Json* d) { (*d)["windows"][1].erase("headlines"); },
       "missing key 'windows[1].headlines'"},
      {"baseline kind missing", [](Json* d) { (*d)["baselines"][0].erase("kind"); },
       "missing key 'baselines[0].kind'"},
      {"headline not a number", [](Json* d) { (*d)["headlines"]["opm"] = "many"; },
       "headlines.opm: expected a number"},
      {"headlines not an object", [](Json* d) { (*d)["headlines"] = Json::array(); },
       "headlines: expected an object"},
      {"negative index", [](Json* d) { (*d)["headline_specs"][1]["types"][0]["index"] = -1; },
       "headline_specs[1].types[0].index: expected an index >= 0"},
      {"weight missing", [](Json* d) { (*d)["headline_specs"][1]["counters"][0].erase("weight"); },
       "missing key 'headline_specs[1].counters[0].weight'"},
      {"decided_by not a string", [](Json* d) { (*d)["baselines"][0]["decided_by"] = 2; },
       "baselines[0].decided_by: expected a string"},
      {"instances not an array", [](Json* d) { (*d)["instances"] = Json::object(); },
       "instances: expected an array"},
      {"instance not an object", [](Json* d) { (*d)["instances"][0] = 1; },
       "instances[0]: expected an object"},
      {"instance headlines missing", [](Json* d) { (*d)["instances"][1].erase("headlines"); },
       "missing key 'instances[1].headlines'"},
      {"instance target missing", [](Json* d) { (*d)["instances"][0].erase("target"); },
       "missing key 'instances[0].target'"},
      {"instance point of the wrong shape",
       [](Json* d) { (*d)["instances"][1]["time_series"]["points"][0]["counts"].push_back(1); },
       "instances[1].time_series.points[0]"},
      {"instance window operations differ",
       [](Json* d) { (*d)["instances"][0]["windows"][0]["operations"][1]["type"] = "x"; },
       "instances[0].windows[0].operations must list the same types in the same order as "
       "instances[0].operations"},
  };
  for (const Case& c : cases) {
    Json doc = Json::parse(ResultToJson(testing::SampleMultiInstanceResult()));
    c.mutate(&doc);
    const std::string message = FailureOf(doc);
    EXPECT_NE(message.find(c.message), std::string::npos) << c.what << ": got '" << message << "'";
  }
}

TEST(ResultFromJsonVersion2Test, AnInstanceOfANewerVersionIsRefused) {
  Json doc = Json::parse(ResultToJson(testing::SampleMultiInstanceResult()));
  doc["instances"][1]["schema_version"] = kResultSchemaVersion + 1;
  Result<metrics::RunResult> r = ResultFromJson(doc.dump());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace sb::report
