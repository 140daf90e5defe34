#include "report/files/json_report.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "unit/report/expect_same_result.h"
#include "unit/report/sample_result.h"
#include "version/version.h"

namespace sb::report {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;
using testing::ExpectSameResult;

fs::path TestDir(const std::string& name) {
  fs::path dir = fs::path(STOREBENCH_TEST_TMP) / "report" / name;
  fs::remove_all(dir);
  return dir;
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

// ---- Document layout ------------------------------------------------------------------------

TEST(ResultToJsonTest, SchemaVersionIsTheFirstKey) {
  const std::string text = ResultToJson(testing::SampleResult());
  EXPECT_EQ(text.rfind("{\n  \"schema_version\": 2,\n", 0), 0u) << text.substr(0, 80);
  const Json doc = Json::parse(text);
  EXPECT_EQ(doc.begin().key(), "schema_version");
  EXPECT_EQ(doc["schema_version"], kResultSchemaVersion);
}

TEST(ResultToJsonTest, TopLevelKeysInDocumentedOrder) {
  const Json doc = Json::parse(ResultToJson(testing::SampleResult()));
  std::vector<std::string> keys;
  for (const auto& [k, v] : doc.items()) keys.push_back(k);
  const std::vector<std::string> expected = {
      "schema_version", "tool",        "workload",     "started_at",   "ended_at",
      "interrupted",    "loop_model",  "headline",     "headlines",    "headline_specs",
      "config",         "environment", "choices",      "measured_sec", "operations",
      "counters",       "errors",      "retries",      "workers",      "figures",
      "final_status",   "driver",      "windows",      "baselines",    "steady_state",
      "warnings",       "verify",      "server_check", "time_series"};
  EXPECT_EQ(keys, expected);
}

TEST(ResultToJsonTest, ToolAndHeadline) {
  const Json doc = Json::parse(ResultToJson(testing::SampleResult()));
  EXPECT_EQ(doc["tool"]["name"], "storebench");
  EXPECT_EQ(doc["tool"]["version"], ToolVersion());
  // The build beside the version (cmake/build_info.cmake): the commit or "unknown", the type.
  EXPECT_EQ(doc["tool"]["commit"], version::GitCommit());
  EXPECT_NE(std::string(version::GitCommit()), "");
  EXPECT_EQ(doc["tool"]["build_type"], version::BuildType());
  EXPECT_EQ(doc["headline"]["name"], "opm");
  EXPECT_TRUE(doc["headline"]["value"].is_number_integer());
  EXPECT_EQ(doc["headline"]["value"], 12345);
}

TEST(ResultToJsonTest, ConfigIsAnEmbeddedObject) {
  const Json doc = Json::parse(ResultToJson(testing::SampleResult()));
  ASSERT_TRUE(doc["config"].is_object());
  EXPECT_EQ(doc["config"]["n_threads"], 16);
  EXPECT_EQ(doc["config"]["password"], "<redacted>");
  EXPECT_EQ(doc["config"].begin().key(), "target");  // original key order kept
}

TEST(ResultToJsonTest, EmptyOrBrokenConfigStillGivesAnObject) {
  metrics::RunResult r = testing::SampleResult();
  r.config_json = "";
  EXPECT_EQ(Json::parse(ResultToJson(r))["config"], Json::object());
  r.config_json = "n_threads=16";
  const Json doc = Json::parse(ResultToJson(r));
  EXPECT_EQ(doc["config"]["unparsed"], "n_threads=16");
}

TEST(ResultToJsonTest, FiguresKeepTheirOrderAndWholeNumbersAreIntegers) {
  const metrics::RunResult r = testing::SampleResult();
  const Json doc = Json::parse(ResultToJson(r));
  std::vector<std::string> names;
  for (const auto& [k, v] : doc["figures"].items()) names.push_back(k);
  std::vector<std::string> expected;
  for (const auto& [k, v] : r.figures) expected.push_back(k);
  EXPECT_EQ(names, expected);
  EXPECT_TRUE(doc["figures"]["opm"].is_number_integer());
  EXPECT_TRUE(doc["figures"]["rollback_rate"].is_number_float());
}

TEST(ResultToJsonTest, OperationsTable) {
  const Json doc = Json::parse(ResultToJson(testing::SampleResult()));
  ASSERT_EQ(doc["operations"].size(), 4u);
  const Json& purchase = doc["operations"][3];
  EXPECT_EQ(purchase["type"], "purchase");
  EXPECT_EQ(purchase["count"], 123456);
  EXPECT_EQ(purchase["p999_ms"], 90.0);
  EXPECT_EQ(purchase["max_ms"], 250.125);
}

TEST(ResultToJsonTest, WindowsHaveTheDocumentedShape) {
  const metrics::RunResult r = testing::SampleResult();
  const Json doc = Json::parse(ResultToJson(r));
  ASSERT_EQ(doc["windows"].size(), 2u);
  const Json& w = doc["windows"][0];
  std::vector<std::string> keys;
  for (const auto& [k, v] : w.items()) keys.push_back(k);
  EXPECT_EQ(keys,
            (std::vector<std::string>{"label", "start_sec", "end_sec", "complete", "per_sec",
                                      "per_minute", "running_opm", "headlines", "operations"}));
  EXPECT_EQ(w["headlines"], Json::parse(R"({"opm":12345.5,"rollbacks_per_sec":4.25})"));
  EXPECT_TRUE(doc["windows"][1]["headlines"]["opm"].is_number_integer());
  EXPECT_EQ(w["label"], "5m-10m");
  EXPECT_EQ(w["start_sec"], 300.0);
  EXPECT_EQ(w["end_sec"], 600.0);
  EXPECT_EQ(w["complete"], true);
  EXPECT_EQ(w["per_sec"], Json::parse(R"({"min":190.0,"mean":205.75,"median":206.0,"max":221.0})"));
  EXPECT_EQ(w["per_minute"], 12345.5);
  EXPECT_EQ(w["running_opm"], Json::parse(R"({"start":12200.0,"end":12345.0})"));
  // Window operations have the top-level operations' shape, one per type in the same order.
  ASSERT_EQ(w["operations"].size(), doc["operations"].size());
  for (size_t i = 0; i < w["operations"].size(); ++i) {
    std::vector<std::string> op_keys, top_keys;
    for (const auto& [k, v] : w["operations"][i].items()) op_keys.push_back(k);
    for (const auto& [k, v] : doc["operations"][i].items()) top_keys.push_back(k);
    EXPECT_EQ(op_keys, top_keys);
    EXPECT_EQ(w["operations"][i]["type"], doc["operations"][i]["type"]);
  }
  EXPECT_EQ(w["operations"][3]["count"], 61725);
  EXPECT_EQ(w["operations"][3]["p99_ms"], 39.5);
  EXPECT_EQ(doc["windows"][1]["complete"], false);
}

TEST(ResultToJsonTest, BaselinesSteadyStateAndWarnings) {
  const Json doc = Json::parse(ResultToJson(testing::SampleResult()));
  ASSERT_EQ(doc["baselines"].size(), 2u);
  EXPECT_EQ(doc["baselines"][0],
            Json::parse(R"({"rule":"opm>=12000@5m-10m","kind":"every_interval",)"
                        R"("words":"orders per minute over the )"
                        R"(window in 5m-10m (300 s to 600 s from start) must be at least 12000",)"
                        R"("measured":12345.5,"passed":true})"));
  EXPECT_EQ(doc["baselines"][1]["passed"], false);
  EXPECT_EQ(doc["baselines"][1]["kind"], "window_mean");
  EXPECT_FALSE(doc["baselines"][1].contains("decided_by"));  // only in runs of several
  const Json& s = doc["steady_state"];
  std::vector<std::string> keys;
  for (const auto& [k, v] : s.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"evaluated", "steady", "slope_pct", "cv_pct",
                                            "max_slope_pct", "max_cv_pct", "detail"}));
  EXPECT_EQ(s["evaluated"], true);
  EXPECT_EQ(s["slope_pct"], -1.5);
  EXPECT_EQ(s["max_cv_pct"], 25.0);
  ASSERT_EQ(doc["warnings"].size(), 1u);
  EXPECT_TRUE(doc["warnings"][0].is_string());
}

TEST(ResultToJsonTest, WithoutWindowsTheKeysAreStillWritten) {
  metrics::RunResult r = testing::SampleResult();
  testing::ClearWindowFields(&r);
  const Json doc = Json::parse(ResultToJson(r));
  EXPECT_EQ(doc["windows"], Json::array());
  EXPECT_EQ(doc["baselines"], Json::array());
  EXPECT_EQ(doc["warnings"], Json::array());
  EXPECT_EQ(doc["steady_state"]["evaluated"], false);
  EXPECT_EQ(doc["steady_state"]["steady"], false);
  EXPECT_EQ(doc["steady_state"]["detail"], "");
}

TEST(ResultToJsonTest, WindowWithoutLatencyGetsZerosPerType) {
  metrics::RunResult r = testing::SampleResult();
  r.windows[0].latency.clear();
  const Json doc = Json::parse(ResultToJson(r));
  const Json& ops = doc["windows"][0]["operations"];
  ASSERT_EQ(ops.size(), r.type_names.size());
  EXPECT_EQ(ops[0]["type"], r.type_names[0]);
  EXPECT_EQ(ops[0]["count"], 0);
  EXPECT_EQ(ops[0]["p99_ms"], 0.0);
}

TEST(ResultToJsonTest, OneTimeSeriesPointPerLine) {
  const metrics::RunResult r = testing::SampleResult();
  const std::string text = ResultToJson(r);
  std::stringstream in(text);
  std::string line;
  int point_lines = 0;
  while (std::getline(in, line)) {
    if (line.find("\"phase\"") != std::string::npos) {
      ++point_lines;
      EXPECT_EQ(line.rfind("      {\"t\":", 0), 0u) << line;
    }
  }
  EXPECT_EQ(point_lines, static_cast<int>(r.series.points.size()));
  const Json doc = Json::parse(text);
  EXPECT_EQ(doc["time_series"]["points"][1]["phase"], "measure");
  EXPECT_EQ(doc["time_series"]["points"][1]["counters"][2], 2);
}

TEST(ResultToJsonTest, EmptySeriesHasAnEmptyPointsArray) {
  metrics::RunResult r = testing::SampleResult();
  r.series.points.clear();
  const Json doc = Json::parse(ResultToJson(r));
  EXPECT_TRUE(doc["time_series"]["points"].is_array());
  EXPECT_TRUE(doc["time_series"]["points"].empty());
}

TEST(ResultToJsonTest, PlaceholderTextInUserStringsIsHarmless) {
  metrics::RunResult r = testing::SampleResult();
  r.environment["host"] = "__storebench_time_series_points__";
  const Json doc = Json::parse(ResultToJson(r));
  EXPECT_EQ(doc["environment"]["host"], "__storebench_time_series_points__");
  EXPECT_EQ(doc["time_series"]["points"].size(), 3u);
}

TEST(ResultToJsonTest, InvalidUtf8DoesNotThrow) {
  metrics::RunResult r = testing::SampleResult();
  r.environment["cpu_model"] = std::string("bad \xff\xfe bytes");
  const Json doc = Json::parse(ResultToJson(r));
  EXPECT_TRUE(doc["environment"]["cpu_model"].is_string());
}

// ---- Round trip -----------------------------------------------------------------------------

TEST(ResultFromJsonTest, RoundTripKeepsEverything) {
  const metrics::RunResult r = testing::SampleResult();
  const std::string text = ResultToJson(r);
  Result<metrics::RunResult> back = ResultFromJson(text);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ExpectSameResult(r, *back);
  // And the rebuilt result serializes to the very same document.
  EXPECT_EQ(ResultToJson(*back), text);
}

TEST(ResultFromJsonTest, RoundTripKeepsTheLatencyHistogram) {
  metrics::RunResult r = testing::SampleResult();
  metrics::Histogram h;
  for (int64_t v = 1000; v < 50'000'000; v = v * 11 / 10 + 7) h.Record(v);
  h.Record(metrics::Histogram::kLimit + 1);  // a saturated value
  r.latency[0] = metrics::LatencySummary::From(h);
  r.windows[0].latency[0] = metrics::LatencySummary::From(h);
  const std::string text = ResultToJson(r);
  const Json doc = Json::parse(text);
  const Json& hist = doc["operations"][0]["histogram"];
  EXPECT_EQ(hist["sub_bits"], metrics::Histogram::kSubBits);
  EXPECT_EQ(hist["saturated"], 1);
  EXPECT_EQ(hist["buckets"].size(), r.latency[0].histogram.buckets.size());
  // Manually built summaries carry no histogram, and windows' summaries never write theirs.
  EXPECT_FALSE(doc["operations"][1].contains("histogram"));
  EXPECT_FALSE(doc["windows"][0]["operations"][0].contains("histogram"));
  Result<metrics::RunResult> back = ResultFromJson(text);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->latency[0].histogram, r.latency[0].histogram);
  auto rebuilt = metrics::FromBuckets(back->latency[0].histogram);
  ASSERT_TRUE(rebuilt.ok()) << rebuilt.status().message();
  for (double p : {50.0, 99.0, 99.9, 100.0}) {
    EXPECT_EQ(rebuilt->ValueAtPercentile(p), h.ValueAtPercentile(p)) << p;
  }
  EXPECT_EQ(ResultToJson(*back), text);
}

TEST(ResultFromJsonTest, RoundTripOfADefaultResult) {
  const metrics::RunResult r;
  Result<metrics::RunResult> back = ResultFromJson(ResultToJson(r));
  ASSERT_TRUE(back.ok()) << back.status().message();
  ExpectSameResult(r, *back);
}

TEST(ResultFromJsonTest, RoundTripOfAwkwardValues) {
  metrics::RunResult r = testing::SampleResult();
  r.figures.emplace_back("rt_newmember_avg_msec", std::nan(""));  // DS3 average over 0 orders
  r.figures.emplace_back("huge", 1e300);
  r.figures.emplace_back("fraction", 0.1 + 0.2);
  r.headline_value = 12345.678;
  r.latency[0].count = 18446744073709551615u;  // uint64 max
  r.counters["negative"] = -5;
  r.retries = 9223372036854775807;  // int64 max
  r.interrupted = true;
  r.environment["unicode"] = "Zürich — 東京";
  Result<metrics::RunResult> back = ResultFromJson(ResultToJson(r));
  ASSERT_TRUE(back.ok()) << back.status().message();
  ExpectSameResult(r, *back);
}

TEST(ResultFromJsonTest, RoundTripOfAnOpenLoopRun) {
  // Open loop: the last type is schedule_lag, and counters include "late".
  metrics::RunResult r = testing::SampleResult();
  r.loop_model = "open loop, 200 orders/s, constant arrivals";
  r.type_names.push_back("schedule_lag");
  r.latency.push_back({123456, 0.25, 0.0, 0.125, 0.5, 0.75, 2.0, 9.5, 120.0});
  for (auto& w : r.windows) w.latency.push_back({61725, 0.25, 0.0, 0.125, 0.5, 0.75, 2.0, 9.5, 50});
  r.counters["late"] = 17;
  r.series.type_names = r.type_names;
  r.series.counter_names.push_back("late");
  for (auto& p : r.series.points) {
    p.type_counts.push_back(p.type_counts[0]);
    p.type_mean_ms.push_back(0.25);
    p.type_p99_ms.push_back(2.0);
    p.counters.push_back(1);
  }
  const std::string text = ResultToJson(r);
  Result<metrics::RunResult> back = ResultFromJson(text);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ExpectSameResult(r, *back);
  EXPECT_EQ(back->counters.at("late"), 17);
  EXPECT_EQ(back->windows[1].latency.back().max_ms, 50.0);
  EXPECT_EQ(ResultToJson(*back), text);
}

TEST(ResultFromJsonTest, RoundTripOfNonFiniteWindowFigures) {
  metrics::RunResult r = testing::SampleResult();
  r.windows[1].per_sec_mean = std::nan("");
  r.baselines[1].measured = std::nan("");
  r.steady_state.slope_pct = std::nan("");
  Result<metrics::RunResult> back = ResultFromJson(ResultToJson(r));
  ASSERT_TRUE(back.ok()) << back.status().message();
  ExpectSameResult(r, *back);
}

// ---- Documents written before windows, baselines, steady_state and warnings existed ----------

TEST(ResultFromJsonTest, OlderDocumentWithoutTheNewKeysLoads) {
  Json doc = Json::parse(ResultToJson(testing::SampleResult()));
  for (const char* key : {"windows", "baselines", "steady_state", "warnings"}) doc.erase(key);
  Result<metrics::RunResult> back = ResultFromJson(doc.dump(2));
  ASSERT_TRUE(back.ok()) << back.status().message();
  metrics::RunResult expected = testing::SampleResult();
  testing::ClearWindowFields(&expected);
  ExpectSameResult(expected, *back);
  EXPECT_TRUE(back->windows.empty());
  EXPECT_TRUE(back->baselines.empty());
  EXPECT_FALSE(back->steady_state.evaluated);
  EXPECT_TRUE(back->steady_state.detail.empty());
  EXPECT_TRUE(back->warnings.empty());
  // Written again, it gains the keys with their empty / default values.
  EXPECT_EQ(ResultToJson(*back), ResultToJson(expected));
}

TEST(ResultFromJsonTest, EachNewKeyIsOptionalOnItsOwn) {
  for (const char* key : {"windows", "baselines", "steady_state", "warnings"}) {
    Json doc = Json::parse(ResultToJson(testing::SampleResult()));
    doc.erase(key);
    Result<metrics::RunResult> back = ResultFromJson(doc.dump());
    ASSERT_TRUE(back.ok()) << key << ": " << back.status().message();
    const metrics::RunResult full = testing::SampleResult();
    EXPECT_EQ(back->windows.size(), std::string(key) == "windows" ? 0u : full.windows.size());
    EXPECT_EQ(back->baselines.size(), std::string(key) == "baselines" ? 0u : full.baselines.size());
    EXPECT_EQ(back->steady_state.evaluated, std::string(key) != "steady_state");
    EXPECT_EQ(back->warnings.size(), std::string(key) == "warnings" ? 0u : full.warnings.size());
  }
}

TEST(ResultToJsonTest, ServerCheckHasTheDocumentedShape) {
  const Json doc = Json::parse(ResultToJson(testing::SampleResult()));
  const Json& sc = doc["server_check"];
  EXPECT_EQ(sc["client_units"], 123460);
  EXPECT_EQ(sc["server_counters"][0]["delta"], 120000);
  EXPECT_EQ(sc["server_counters"][0]["meaning"], "commits");
  EXPECT_FALSE(sc["probe"][0].contains("meaning"));
  EXPECT_EQ(sc["probe"][0]["delta"], 120863);
  EXPECT_EQ(sc["comparisons"][1]["relation"], ">=");
  EXPECT_FALSE(sc["comparisons"][1]["passed"]);
  EXPECT_FALSE(sc.contains("error"));
}

TEST(ResultFromJsonTest, DocumentWithoutServerCheckLoadsAndWritesNone) {
  Json doc = Json::parse(ResultToJson(testing::SampleResult()));
  doc.erase("server_check");
  Result<metrics::RunResult> back = ResultFromJson(doc.dump());
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_FALSE(back->server_check.present);
  EXPECT_FALSE(Json::parse(ResultToJson(*back)).contains("server_check"));
}

TEST(ResultFromJsonTest, ServerCheckWithAnErrorRoundTrips) {
  metrics::RunResult r = testing::SampleResult();
  r.server_check.error = "end reading: connection to PostgreSQL lost";
  r.server_check.comparisons.clear();
  Result<metrics::RunResult> back = ResultFromJson(ResultToJson(r));
  ASSERT_TRUE(back.ok()) << back.status().message();
  ExpectSameResult(r, *back);
}

// ---- Reader errors --------------------------------------------------------------------------

Json SampleDocument() { return Json::parse(ResultToJson(testing::SampleResult())); }

// The message of ResultFromJson(doc) failing; "" if it did not fail.
std::string FailureOf(const Json& doc) {
  Result<metrics::RunResult> r = ResultFromJson(doc.dump());
  if (r.ok()) return "";
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  return std::string(r.status().message());
}

TEST(ResultFromJsonTest, PresentNewKeysMustHaveTheRightShape) {
  struct Case {
    const char* what;
    void (*mutate)(Json*);
    const char* message;
  };
  const Case cases[] = {
      {"windows not an array", [](Json* d) { (*d)["windows"] = Json::object(); },
       "windows: expected an array"},
      {"window not an object", [](Json* d) { (*d)["windows"][0] = 5; },
       "windows[0]: expected an object"},
      {"window per_sec missing", [](Json* d) { (*d)["windows"][1].erase("per_sec"); },
       "missing key 'windows[1].per_sec'"},
      {"window median missing", [](Json* d) { (*d)["windows"][0]["per_sec"].erase("median"); },
       "missing key 'windows[0].per_sec.median'"},
      {"window running end wrong type",
       [](Json* d) { (*d)["windows"][0]["running_opm"]["end"] = "high"; },
       "windows[0].running_opm.end: expected a number"},
      {"window complete wrong type", [](Json* d) { (*d)["windows"][0]["complete"] = 1; },
       "windows[0].complete: expected true or false"},
      {"window operation count negative",
       [](Json* d) { (*d)["windows"][0]["operations"][2]["count"] = -3; },
       "windows[0].operations[2].count"},
      {"window operation types differ",
       [](Json* d) { (*d)["windows"][0]["operations"][1]["type"] = "other"; },
       "windows[0].operations must list the same types"},
      {"window operation missing", [](Json* d) { (*d)["windows"][1]["operations"].erase(0); },
       "windows[1].operations must list the same types"},
      {"baseline passed missing", [](Json* d) { (*d)["baselines"][1].erase("passed"); },
       "missing key 'baselines[1].passed'"},
      {"baselines not an array", [](Json* d) { (*d)["baselines"] = "none"; },
       "baselines: expected an array"},
      {"steady_state not an object", [](Json* d) { (*d)["steady_state"] = Json::array(); },
       "steady_state: expected an object"},
      {"steady_state cv wrong type", [](Json* d) { (*d)["steady_state"]["cv_pct"] = "4"; },
       "steady_state.cv_pct: expected a number"},
      {"steady_state detail missing", [](Json* d) { (*d)["steady_state"].erase("detail"); },
       "missing key 'steady_state.detail'"},
      {"warning not a string", [](Json* d) { (*d)["warnings"].push_back(3); },
       "warnings[1]: expected a string"},
      {"warnings null", [](Json* d) { (*d)["warnings"] = nullptr; }, "warnings: expected an array"},
  };
  for (const Case& c : cases) {
    Json doc = SampleDocument();
    c.mutate(&doc);
    const std::string message = FailureOf(doc);
    EXPECT_NE(message.find(c.message), std::string::npos) << c.what << ": got '" << message << "'";
  }
}

TEST(ResultFromJsonTest, RejectsTextThatIsNotJson) {
  Result<metrics::RunResult> r = ResultFromJson("{\"schema_version\": 1,");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("not valid JSON"), std::string::npos) << r.status().message();
}

TEST(ResultFromJsonTest, NamesAMissingNestedKey) {
  Json doc = SampleDocument();
  doc["operations"][2].erase("p99_ms");
  Result<metrics::RunResult> r = ResultFromJson(doc.dump());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("missing key 'operations[2].p99_ms'"), std::string::npos)
      << r.status().message();
}

TEST(ResultFromJsonTest, NamesAWrongType) {
  Json doc = SampleDocument();
  doc["workers"]["started"] = "sixteen";
  Result<metrics::RunResult> r = ResultFromJson(doc.dump());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("workers.started: expected an integer"), std::string::npos)
      << r.status().message();
}

TEST(ResultFromJsonTest, RejectsNegativeCounts) {
  Json doc = SampleDocument();
  doc["operations"][0]["count"] = -1;
  Result<metrics::RunResult> r = ResultFromJson(doc.dump());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("operations[0].count"), std::string::npos)
      << r.status().message();
}

TEST(ResultFromJsonTest, RejectsANewerSchemaVersion) {
  Json doc = SampleDocument();
  doc["schema_version"] = kResultSchemaVersion + 1;
  Result<metrics::RunResult> r = ResultFromJson(doc.dump());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(r.status().message().find("schema_version " + std::to_string(kResultSchemaVersion + 1)),
            std::string::npos)
      << r.status().message();
}

TEST(ResultFromJsonTest, RejectsPointsOfTheWrongShape) {
  Json doc = SampleDocument();
  doc["time_series"]["points"][1]["counts"].push_back(1);
  Result<metrics::RunResult> r = ResultFromJson(doc.dump());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("time_series.points[1]"), std::string::npos)
      << r.status().message();
}

TEST(ResultFromJsonTest, RejectsANonObjectDocument) {
  Result<metrics::RunResult> r = ResultFromJson("[1, 2]");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
}

// ---- Files ----------------------------------------------------------------------------------

TEST(WriteResultFileTest, CreatesDirectoriesAndRoundTrips) {
  const fs::path dir = TestDir("write");
  const fs::path path = dir / "a" / "b" / "result.json";
  const metrics::RunResult r = testing::SampleResult();
  ASSERT_TRUE(WriteResultFile(path.string(), r).ok());
  const std::string text = ReadFile(path);
  EXPECT_EQ(text, ResultToJson(r) + "\n");
  Result<metrics::RunResult> back = ReadResultFile(path.string());
  ASSERT_TRUE(back.ok()) << back.status().message();
  ExpectSameResult(r, *back);
  // Only the result file is left behind (no temporary files).
  int entries = 0;
  for (const auto& e : fs::directory_iterator(path.parent_path())) {
    ++entries;
    EXPECT_EQ(e.path().filename(), "result.json");
  }
  EXPECT_EQ(entries, 1);
}

TEST(WriteResultFileTest, ReplacesAnExistingFile) {
  const fs::path dir = TestDir("replace");
  fs::create_directories(dir);
  const fs::path path = dir / "result.json";
  std::ofstream(path) << "old contents that are longer than nothing";
  metrics::RunResult r = testing::SampleResult();
  r.workload = "replaced";
  ASSERT_TRUE(WriteResultFile(path.string(), r).ok());
  Result<metrics::RunResult> back = ReadResultFile(path.string());
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->workload, "replaced");
}

TEST(WriteResultFileTest, WritesIntoAFifoInsteadOfReplacingIt) {
  // As with --json /dev/null: a path that is not a regular file is written into, never renamed
  // over (that replaced /dev/null with a regular file once).
  const fs::path dir = TestDir("fifo");
  fs::create_directories(dir);
  const fs::path path = dir / "result.fifo";
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  const int reader = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  ASSERT_GE(reader, 0);
  const metrics::RunResult r = testing::SampleResult();
  const std::string expected = ResultToJson(r) + "\n";
  ASSERT_LT(expected.size(), 60000u);  // fits the pipe buffer: the writer never waits
  ASSERT_TRUE(WriteResultFile(path.string(), r).ok());
  std::string got;
  char buf[4096];
  for (ssize_t n; (n = ::read(reader, buf, sizeof buf)) > 0;) got.append(buf, n);
  ::close(reader);
  EXPECT_EQ(got, expected);
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST(WriteResultFileTest, UnwritableDirectoryFailsClearly) {
  // A regular file where a directory is needed fails for every user, root included.
  const fs::path dir = TestDir("unwritable");
  fs::create_directories(dir);
  const fs::path blocker = dir / "not_a_directory";
  std::ofstream(blocker) << "x";
  const std::string path = (blocker / "sub" / "result.json").string();
  Status s = WriteResultFile(path, testing::SampleResult());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kIoError);
  EXPECT_NE(s.message().find("cannot write result file '" + path + "'"), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("cannot create directory"), std::string::npos) << s.message();
}

TEST(WriteResultFileTest, PathThatIsADirectoryFails) {
  const fs::path dir = TestDir("is_dir");
  fs::create_directories(dir / "result.json");
  Status s = WriteResultFile((dir / "result.json").string(), testing::SampleResult());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kIoError);
  EXPECT_NE(s.message().find("result.json"), std::string::npos) << s.message();
  // The temporary file was cleaned up.
  int entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++entries;
  EXPECT_EQ(entries, 1);
}

TEST(WriteResultFileTest, EmptyPathIsRejected) {
  Status s = WriteResultFile("", testing::SampleResult());
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
}

TEST(ReadResultFileTest, MissingFileIsNotFound) {
  const fs::path dir = TestDir("missing");
  Result<metrics::RunResult> r = ReadResultFile((dir / "nope.json").string());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_NE(r.status().message().find("nope.json"), std::string::npos);
}

TEST(ReadResultFileTest, ErrorsNameTheFile) {
  const fs::path dir = TestDir("broken");
  fs::create_directories(dir);
  const fs::path path = dir / "broken.json";
  std::ofstream(path) << "{\"schema_version\": 1}";
  Result<metrics::RunResult> r = ReadResultFile(path.string());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find(path.string() + ": result JSON: missing key 'workload'"),
            std::string::npos)
      << r.status().message();
}

// A storage test on two targets with two workers.
metrics::StorageTest TwoTargetTest() {
  metrics::StorageTest t;
  t.name = "mix";
  t.spec_lines = {"8192,100,70,50,0,1,0,0"};
  t.targets.resize(2);
  t.targets[0].path = "/tmp/a.tst";
  t.targets[0].range_start_bytes = 1048576;
  t.targets[0].range_bytes = 33554432;
  t.targets[0].extents = 2047;
  t.targets[0].filesystem = "ext4";
  t.targets[1].path = "/tmp/b.tst";
  t.targets[1].range_start_bytes = 1048576;
  t.targets[1].range_bytes = 16777216;
  t.targets[1].extents_note = "the file system does not report extents";
  t.workers = 2;
  t.outstanding = 4;
  t.measured_sec = 1;
  for (int w = 0; w < 2; ++w) {
    t.per_worker_target.emplace_back();
    metrics::IoCounts sum;
    for (int d = 0; d < 2; ++d) {
      metrics::IoCounts c;
      c.read_ios = 100 + 10 * w + d;
      c.write_ios = 50 + d;
      c.read_bytes = c.read_ios * 8192;
      c.write_bytes = c.write_ios * 8192;
      c.latency_bins[2] = c.ios();
      t.per_worker_target.back().push_back(c);
      sum.Add(c);
    }
    t.per_worker.push_back(sum);
    t.totals.Add(sum);
  }
  return t;
}

TEST(ResultFromJsonTest, StorageTargetsRoundTripAndOldDocumentsHaveOneTarget) {
  metrics::RunResult r = testing::SampleResult();
  r.storage = {TwoTargetTest()};
  const std::string text = ResultToJson(r);
  const Json doc = Json::parse(text);
  const Json& t = doc["storage"][0];
  EXPECT_EQ(t["target"], "/tmp/a.tst,/tmp/b.tst");
  EXPECT_EQ(t["range_bytes"], 33554432);
  EXPECT_EQ(t["per_target"][1]["read_ios"], 101 + 111);
  auto back = ResultFromJson(text);
  ASSERT_TRUE(back.ok()) << back.status().message();
  const metrics::StorageTest& b = back->storage.at(0);
  ASSERT_EQ(b.targets.size(), 2u);
  EXPECT_EQ(b.targets[1].path, "/tmp/b.tst");
  EXPECT_EQ(b.targets[1].range_bytes, 16777216u);
  // Extent counts: a number, or null with the reason.
  EXPECT_EQ(t["targets"][0]["extents"], 2047);
  EXPECT_TRUE(t["targets"][1]["extents"].is_null());
  EXPECT_EQ(b.targets[0].extents, 2047);
  EXPECT_EQ(b.targets[0].filesystem, "ext4");
  EXPECT_EQ(b.targets[1].extents, -1);
  EXPECT_EQ(b.targets[1].extents_note, "the file system does not report extents");
  ASSERT_EQ(b.per_worker_target.size(), 2u);
  EXPECT_EQ(b.per_worker_target[1][1].read_ios, 111u);
  // Written before multi-target runs: "target" and "range_*" name the one target.
  Json legacy = doc;
  for (const char* key : {"targets", "per_target", "per_worker_target"}) {
    legacy["storage"][0].erase(key);
  }
  legacy["storage"][0]["target"] = "/tmp/a.tst";
  auto old = ResultFromJson(legacy.dump());
  ASSERT_TRUE(old.ok()) << old.status().message();
  const metrics::StorageTest& o = old->storage.at(0);
  ASSERT_EQ(o.targets.size(), 1u);
  EXPECT_EQ(o.targets[0].path, "/tmp/a.tst");
  EXPECT_EQ(o.targets[0].range_start_bytes, 1048576u);
  ASSERT_EQ(o.per_worker_target.size(), 2u);
  EXPECT_EQ(o.per_worker_target[0][0].read_ios, o.per_worker[0].read_ios);
}

// Leaves sample documents in STOREBENCH_TEST_TMP/report/samples for schema checks
// (tests/integration/check_schema.py).
TEST(WriteResultFileTest, WritesSampleDocuments) {
  const fs::path dir = TestDir("samples");
  ASSERT_TRUE(WriteResultFile((dir / "sample_result.json").string(), testing::SampleResult()).ok());
  ASSERT_TRUE(WriteResultFile((dir / "default_result.json").string(), metrics::RunResult{}).ok());
  metrics::RunResult awkward = testing::SampleResult();
  awkward.interrupted = true;
  awkward.figures.emplace_back("rt_newmember_avg_msec", std::nan(""));
  awkward.config_json = "not json";
  awkward.environment["unicode"] = "Zürich — 東京 \xff";
  ASSERT_TRUE(WriteResultFile((dir / "awkward_result.json").string(), awkward).ok());
  // As written before windows, baselines, steady_state and warnings existed.
  Json legacy = Json::parse(ResultToJson(testing::SampleResult()));
  for (const char* key : {"windows", "baselines", "steady_state", "warnings"}) legacy.erase(key);
  std::ofstream(dir / "legacy_result.json") << legacy.dump(2) << "\n";
  // Open loop with --latency_limit: schedule_lag type and late counter.
  metrics::RunResult open = testing::SampleResult();
  open.type_names.push_back("schedule_lag");
  open.latency.push_back({123456, 0.25, 0.0, 0.125, 0.5, 0.75, 2.0, 9.5, 120.0});
  open.windows.resize(1);
  open.counters["late"] = 17;
  ASSERT_TRUE(WriteResultFile((dir / "open_loop_result.json").string(), open).ok());
  metrics::RunResult storage = testing::SampleResult();
  storage.workload = "storage";
  storage.storage = {TwoTargetTest()};
  ASSERT_TRUE(WriteResultFile((dir / "storage_result.json").string(), storage).ok());
  ASSERT_TRUE(WriteResultFile((dir / "multi_instance_result.json").string(),
                              testing::SampleMultiInstanceResult())
                  .ok());
}

}  // namespace
}  // namespace sb::report
