#include "report/json_report.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "unit/report/sample_result.h"

namespace sb::report {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// NaN-aware equality for doubles that went through JSON.
void ExpectSameDouble(double a, double b, const std::string& what) {
  if (std::isnan(a) || std::isnan(b)) {
    EXPECT_TRUE(std::isnan(a) && std::isnan(b)) << what << ": " << a << " vs " << b;
  } else {
    EXPECT_EQ(a, b) << what;
  }
}

void ExpectSameLatency(const metrics::LatencySummary& a, const metrics::LatencySummary& b,
                       const std::string& what) {
  EXPECT_EQ(a.count, b.count) << what;
  ExpectSameDouble(a.mean_ms, b.mean_ms, what + ".mean_ms");
  ExpectSameDouble(a.min_ms, b.min_ms, what + ".min_ms");
  ExpectSameDouble(a.p50_ms, b.p50_ms, what + ".p50_ms");
  ExpectSameDouble(a.p90_ms, b.p90_ms, what + ".p90_ms");
  ExpectSameDouble(a.p95_ms, b.p95_ms, what + ".p95_ms");
  ExpectSameDouble(a.p99_ms, b.p99_ms, what + ".p99_ms");
  ExpectSameDouble(a.p999_ms, b.p999_ms, what + ".p999_ms");
  ExpectSameDouble(a.max_ms, b.max_ms, what + ".max_ms");
}

// Field-by-field equality; config_json is compared as parsed JSON (whitespace may differ).
void ExpectSameResult(const metrics::RunResult& a, const metrics::RunResult& b) {
  EXPECT_EQ(a.workload, b.workload);
  EXPECT_EQ(a.headline_name, b.headline_name);
  ExpectSameDouble(a.headline_value, b.headline_value, "headline_value");
  EXPECT_EQ(a.loop_model, b.loop_model);
  EXPECT_EQ(a.started_at, b.started_at);
  EXPECT_EQ(a.ended_at, b.ended_at);
  ExpectSameDouble(a.measured_sec, b.measured_sec, "measured_sec");
  EXPECT_EQ(a.interrupted, b.interrupted);
  const Json ca = a.config_json.empty() ? Json::object() : Json::parse(a.config_json);
  const Json cb = b.config_json.empty() ? Json::object() : Json::parse(b.config_json);
  EXPECT_EQ(ca, cb);
  EXPECT_EQ(a.environment, b.environment);
  EXPECT_EQ(a.choices, b.choices);
  EXPECT_EQ(a.type_names, b.type_names);
  ASSERT_EQ(a.latency.size(), b.latency.size());
  for (size_t i = 0; i < a.latency.size(); ++i) {
    ExpectSameLatency(a.latency[i], b.latency[i], "latency[" + std::to_string(i) + "]");
  }
  EXPECT_EQ(a.counters, b.counters);
  EXPECT_EQ(a.errors, b.errors);
  EXPECT_EQ(a.retries, b.retries);
  EXPECT_EQ(a.workers_started, b.workers_started);
  EXPECT_EQ(a.workers_failed, b.workers_failed);
  ASSERT_EQ(a.figures.size(), b.figures.size());
  for (size_t i = 0; i < a.figures.size(); ++i) {
    EXPECT_EQ(a.figures[i].first, b.figures[i].first) << "figure " << i;
    ExpectSameDouble(a.figures[i].second, b.figures[i].second, a.figures[i].first);
  }
  const metrics::StatusFigures& fa = a.final_status;
  const metrics::StatusFigures& fb = b.final_status;
  ExpectSameDouble(fa.et_sec, fb.et_sec, "final_status.et_sec");
  EXPECT_EQ(fa.n_overall, fb.n_overall);
  EXPECT_EQ(fa.opm, fb.opm);
  EXPECT_EQ(fa.rt_tot_lastn_max_msec, fb.rt_tot_lastn_max_msec);
  EXPECT_EQ(fa.rt_tot_avg_msec, fb.rt_tot_avg_msec);
  EXPECT_EQ(fa.rt_tot_sampled, fb.rt_tot_sampled);
  EXPECT_EQ(fa.n_rollbacks, fb.n_rollbacks);
  ExpectSameDouble(fa.rollback_pct, fb.rollback_pct, "final_status.rollback_pct");
  ExpectSameDouble(a.driver_cpu_sec, b.driver_cpu_sec, "driver_cpu_sec");
  ExpectSameDouble(a.driver_cpu_sec_per_op, b.driver_cpu_sec_per_op, "driver_cpu_sec_per_op");
  ExpectSameDouble(a.driver_cpu_share, b.driver_cpu_share, "driver_cpu_share");
  ASSERT_EQ(a.verify.size(), b.verify.size());
  for (size_t i = 0; i < a.verify.size(); ++i) {
    EXPECT_EQ(a.verify[i].name, b.verify[i].name);
    EXPECT_EQ(a.verify[i].passed, b.verify[i].passed);
    EXPECT_EQ(a.verify[i].detail, b.verify[i].detail);
  }
  ExpectSameDouble(a.series.interval_sec, b.series.interval_sec, "series.interval_sec");
  EXPECT_EQ(a.series.type_names, b.series.type_names);
  EXPECT_EQ(a.series.counter_names, b.series.counter_names);
  ASSERT_EQ(a.series.points.size(), b.series.points.size());
  for (size_t i = 0; i < a.series.points.size(); ++i) {
    const metrics::IntervalPoint& pa = a.series.points[i];
    const metrics::IntervalPoint& pb = b.series.points[i];
    ExpectSameDouble(pa.t_sec, pb.t_sec, "t_sec");
    EXPECT_EQ(pa.phase, pb.phase);
    EXPECT_EQ(pa.type_counts, pb.type_counts);
    EXPECT_EQ(pa.type_mean_ms, pb.type_mean_ms);
    EXPECT_EQ(pa.type_p99_ms, pb.type_p99_ms);
    EXPECT_EQ(pa.counters, pb.counters);
  }
}

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
  EXPECT_EQ(text.rfind("{\n  \"schema_version\": 1,\n", 0), 0u) << text.substr(0, 80);
  const Json doc = Json::parse(text);
  EXPECT_EQ(doc.begin().key(), "schema_version");
  EXPECT_EQ(doc["schema_version"], kResultSchemaVersion);
}

TEST(ResultToJsonTest, TopLevelKeysInDocumentedOrder) {
  const Json doc = Json::parse(ResultToJson(testing::SampleResult()));
  std::vector<std::string> keys;
  for (const auto& [k, v] : doc.items()) keys.push_back(k);
  const std::vector<std::string> expected = {
      "schema_version", "tool",     "workload", "started_at",  "ended_at", "interrupted",
      "loop_model",     "headline", "config",   "environment", "choices",  "measured_sec",
      "operations",     "counters", "errors",   "retries",     "workers",  "figures",
      "final_status",   "driver",   "verify",   "time_series"};
  EXPECT_EQ(keys, expected);
}

TEST(ResultToJsonTest, ToolAndHeadline) {
  const Json doc = Json::parse(ResultToJson(testing::SampleResult()));
  EXPECT_EQ(doc["tool"]["name"], "storebench");
  EXPECT_EQ(doc["tool"]["version"], ToolVersion());
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

// ---- Reader errors --------------------------------------------------------------------------

Json SampleDocument() { return Json::parse(ResultToJson(testing::SampleResult())); }

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
  EXPECT_NE(r.status().message().find("schema_version 2"), std::string::npos)
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
}

}  // namespace
}  // namespace sb::report
