// Written result documents validate against docs/output-schema.json, using the same checker as
// the integration tests (tests/integration/check_schema.py, which needs python3-jsonschema).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "report/files/json_report.h"
#include "unit/report/sample_result.h"

namespace sb::report {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

const std::string kSource = STOREBENCH_SOURCE_DIR;

// A directory of the running test's own: ctest runs the cases as parallel processes.
fs::path SchemaDir() {
  const fs::path dir = fs::path(STOREBENCH_TEST_TMP) / "report" / "schema" /
                       ::testing::UnitTest::GetInstance()->current_test_info()->name();
  fs::create_directories(dir);
  return dir;
}

// The exit status of a shell command (-1 if it did not exit normally).
int Run(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool CheckerAvailable() { return Run("python3 -c 'import jsonschema' >/dev/null 2>&1") == 0; }

// check_schema.py's exit status for `text` written to `name`: 0 valid, 1 invalid, 2 unusable.
int CheckSchema(const std::string& name, const std::string& text) {
  const fs::path path = SchemaDir() / name;
  std::ofstream(path) << text << "\n";
  return Run("python3 '" + kSource + "/tests/integration/check_schema.py' '" + path.string() +
             "' '" + kSource + "/docs/output-schema.json' >/dev/null");
}

class OutputSchemaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!CheckerAvailable()) GTEST_SKIP() << "python3 with jsonschema is not installed";
  }
};

TEST_F(OutputSchemaTest, SingleInstanceDocumentsAreValid) {
  EXPECT_EQ(CheckSchema("sample.json", ResultToJson(testing::SampleResult())), 0);
  EXPECT_EQ(CheckSchema("default.json", ResultToJson(metrics::RunResult{})), 0);
  metrics::RunResult awkward = testing::SampleResult();
  awkward.headlines.emplace_back("not_a_number", std::nan(""));
  awkward.windows[0].headlines.emplace_back("not_a_number", std::nan(""));
  awkward.baselines[1].kind = "ds_cumulative";
  EXPECT_EQ(CheckSchema("awkward.json", ResultToJson(awkward)), 0);
}

TEST_F(OutputSchemaTest, MultiInstanceDocumentIsValid) {
  EXPECT_EQ(CheckSchema("multi.json", ResultToJson(testing::SampleMultiInstanceResult())), 0);
}

TEST_F(OutputSchemaTest, InstanceDocumentsAreCheckedAsDocuments) {
  // The schema is not vacuous for instances: a key it does not know, a missing target.
  Json doc = Json::parse(ResultToJson(testing::SampleMultiInstanceResult()));
  Json unknown = doc;
  unknown["instances"][1]["unknown_key"] = 1;
  EXPECT_EQ(CheckSchema("unknown_key.json", unknown.dump(2)), 1);
  Json no_target = doc;
  no_target["instances"][0].erase("target");
  EXPECT_EQ(CheckSchema("no_target.json", no_target.dump(2)), 1);
  Json bad_kind = doc;
  bad_kind["instances"][0]["baselines"][0]["kind"] = "median";
  EXPECT_EQ(CheckSchema("bad_kind.json", bad_kind.dump(2)), 1);
}

TEST_F(OutputSchemaTest, Version1DocumentIsNotAVersion2Document) {
  Json doc = Json::parse(ResultToJson(testing::SampleResult()));
  doc["schema_version"] = 1;
  EXPECT_EQ(CheckSchema("version1.json", doc.dump(2)), 1);
}

}  // namespace
}  // namespace sb::report
