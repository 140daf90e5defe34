// io churn's result document from a constructed run: its keys in order and their values.
#include "session/churn_result.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "report/files/json_report.h"

namespace sb::session {
namespace {

TEST(ChurnResult, DocumentKeysAndValues) {
  driver::ChurnRunResult churn;
  fsload::ChurnSample first;
  first.free_extents = 24346;
  first.volume_used_bytes = 1000;
  fsload::ChurnSample last;
  last.t_sec = 2.5;
  last.files = 6;
  last.extents = 10;
  last.file_bytes = 5242880;
  last.volume_used_bytes = 6000;
  last.free_extents = -1;  // not exposed: null
  churn.samples = {first, last};
  churn.started_at = "2026-12-07T14:00:00Z";
  churn.operations = 1949;
  churn.bytes_written = 123456;
  churn.files_deleted = 17;
  churn.write_errors = 2;
  churn.interrupted = true;
  fs::FileSystemInfo fsinfo;
  fsinfo.type = "ext4";
  fsinfo.source = "/dev/vda";
  fsinfo.mount_point = "/";
  fsinfo.block_size = 4096;

  const std::string text =
      ChurnResultJson(churn, "/tmp/churn", fsinfo, R"({"writers":3})", "2026-12-07T14:00:03Z");
  const auto doc = nlohmann::ordered_json::parse(text);
  std::vector<std::string> keys;
  for (const auto& [k, v] : doc.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{
                      "kind", "format_version", "tool", "started_at", "ended_at", "interrupted",
                      "dir", "filesystem", "config", "operations", "bytes_written", "files_deleted",
                      "write_errors", "before", "after", "samples"}));
  EXPECT_EQ(doc["kind"], "storebench.churn");
  EXPECT_EQ(doc["format_version"], 1);
  EXPECT_EQ(doc["tool"]["name"], "storebench");
  EXPECT_EQ(doc["tool"]["version"], report::ToolVersion());
  EXPECT_EQ(doc["started_at"], "2026-12-07T14:00:00Z");
  EXPECT_EQ(doc["ended_at"], "2026-12-07T14:00:03Z");
  EXPECT_EQ(doc["interrupted"], true);
  EXPECT_EQ(doc["dir"], "/tmp/churn");
  EXPECT_EQ(doc["filesystem"].dump(),
            R"({"type":"ext4","source":"/dev/vda","mount_point":"/","block_size":4096})");
  EXPECT_EQ(doc["config"]["writers"], 3);
  EXPECT_EQ(doc["operations"], 1949);
  EXPECT_EQ(doc["bytes_written"], 123456);
  EXPECT_EQ(doc["files_deleted"], 17);
  EXPECT_EQ(doc["write_errors"], 2);
  EXPECT_EQ(doc["before"].dump(),
            R"({"t_sec":0.0,"files":0,"extents":0,"file_bytes":0,"volume_used_bytes":1000,)"
            R"("free_extents":24346})");
  EXPECT_EQ(doc["after"].dump(), R"({"t_sec":2.5,"files":6,"extents":10,"file_bytes":5242880,)"
                                 R"("volume_used_bytes":6000,"free_extents":null})");
  ASSERT_EQ(doc["samples"].size(), 2u);
  EXPECT_EQ(doc["samples"][1], doc["after"]);
  EXPECT_EQ(text.substr(0, 4), "{\n  ");  // indented by two, as before
}

}  // namespace
}  // namespace sb::session
