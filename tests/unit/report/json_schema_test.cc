// Written result documents validate against docs/output-schema.json, using the same checker as
// the integration tests (tests/integration/check_schema.py, which needs python3-jsonschema).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

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

// Whether python3 can import jsonschema, asked without importing it (the import is most of a
// check's time).
bool CheckerAvailable() {
  return Run("python3 -c 'import importlib.util, sys; "
             "sys.exit(importlib.util.find_spec(\"jsonschema\") is None)' >/dev/null 2>&1") == 0;
}

// check_schema.py's verdict on each of `documents` (name, text), written under their names and
// checked in one run of the checker (one interpreter and one import of jsonschema for all): 0
// valid, 1 invalid, 2 unusable (no verdict line for it).
std::map<std::string, int> CheckSchemas(
    const std::vector<std::pair<std::string, std::string>>& documents) {
  const fs::path dir = SchemaDir();
  std::string paths;
  for (const auto& [name, text] : documents) {
    std::ofstream(dir / name) << text << "\n";
    paths += " '" + (dir / name).string() + "'";
  }
  const fs::path verdicts = dir / "verdicts.txt";
  Run("python3 '" + kSource + "/tests/integration/check_schema.py'" + paths + " '" + kSource +
      "/docs/output-schema.json' >'" + verdicts.string() + "'");
  std::map<std::string, int> status;
  for (const auto& [name, text] : documents) status[name] = 2;
  std::ifstream in(verdicts);
  for (std::string line; std::getline(in, line);) {
    for (const auto& [name, text] : documents) {
      const std::string prefix = (dir / name).string() + ": ";
      if (line.rfind(prefix, 0) != 0) continue;
      const std::string verdict = line.substr(prefix.size());
      if (verdict.rfind("valid (", 0) == 0) status[name] = 0;
      if (verdict == "invalid") status[name] = 1;
    }
  }
  return status;
}

class OutputSchemaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!CheckerAvailable()) GTEST_SKIP() << "python3 with jsonschema is not installed";
  }
};

TEST_F(OutputSchemaTest, SingleInstanceDocumentsAreValid) {
  metrics::RunResult awkward = testing::SampleResult();
  awkward.headlines.emplace_back("not_a_number", std::nan(""));
  awkward.windows[0].headlines.emplace_back("not_a_number", std::nan(""));
  awkward.baselines[1].kind = "ds_cumulative";
  auto status = CheckSchemas({{"sample.json", ResultToJson(testing::SampleResult())},
                              {"default.json", ResultToJson(metrics::RunResult{})},
                              {"awkward.json", ResultToJson(awkward)}});
  EXPECT_EQ(status["sample.json"], 0);
  EXPECT_EQ(status["default.json"], 0);
  EXPECT_EQ(status["awkward.json"], 0);
}

TEST_F(OutputSchemaTest, MultiInstanceDocumentIsValid) {
  auto status = CheckSchemas({{"multi.json", ResultToJson(testing::SampleMultiInstanceResult())}});
  EXPECT_EQ(status["multi.json"], 0);
}

TEST_F(OutputSchemaTest, InstanceDocumentsAreCheckedAsDocuments) {
  // The schema is not vacuous for instances: a key it does not know, a missing target.
  Json doc = Json::parse(ResultToJson(testing::SampleMultiInstanceResult()));
  Json unknown = doc;
  unknown["instances"][1]["unknown_key"] = 1;
  Json no_target = doc;
  no_target["instances"][0].erase("target");
  Json bad_kind = doc;
  bad_kind["instances"][0]["baselines"][0]["kind"] = "median";
  auto status = CheckSchemas({{"unknown_key.json", unknown.dump(2)},
                              {"no_target.json", no_target.dump(2)},
                              {"bad_kind.json", bad_kind.dump(2)}});
  EXPECT_EQ(status["unknown_key.json"], 1);
  EXPECT_EQ(status["no_target.json"], 1);
  EXPECT_EQ(status["bad_kind.json"], 1);
}

TEST_F(OutputSchemaTest, Version1DocumentIsNotAVersion2Document) {
  Json doc = Json::parse(ResultToJson(testing::SampleResult()));
  doc["schema_version"] = 1;
  EXPECT_EQ(CheckSchemas({{"version1.json", doc.dump(2)}})["version1.json"], 1);
}

}  // namespace
}  // namespace sb::report
