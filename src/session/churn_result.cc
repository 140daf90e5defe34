#include "session/churn_result.h"

#include <nlohmann/json.hpp>
#include <utility>

#include "report/files/json_report.h"

namespace sb::session {

namespace {

using ChurnJson = nlohmann::ordered_json;

// One sample; free_extents is null where the file system does not expose its free space.
ChurnJson ChurnSampleJson(const fsload::ChurnSample& s) {
  ChurnJson j = ChurnJson::object();
  j["t_sec"] = s.t_sec;
  j["files"] = s.files;
  j["extents"] = s.extents;
  j["file_bytes"] = s.file_bytes;
  j["volume_used_bytes"] = s.volume_used_bytes;
  if (s.free_extents >= 0) {
    j["free_extents"] = s.free_extents;
  } else {
    j["free_extents"] = nullptr;
  }
  return j;
}

}  // namespace

std::string ChurnResultJson(const driver::ChurnRunResult& churn, const std::string& dir,
                            const fs::FileSystemInfo& fsinfo, const std::string& config_json,
                            const std::string& ended_at) {
  ChurnJson doc = ChurnJson::object();
  doc["kind"] = "storebench.churn";
  doc["format_version"] = 1;
  doc["tool"] = {{"name", "storebench"}, {"version", report::ToolVersion()}};
  doc["started_at"] = churn.started_at;
  doc["ended_at"] = ended_at;
  doc["interrupted"] = churn.interrupted;
  doc["dir"] = dir;
  doc["filesystem"] = {{"type", fsinfo.type},
                       {"source", fsinfo.source},
                       {"mount_point", fsinfo.mount_point},
                       {"block_size", fsinfo.block_size}};
  doc["config"] = ChurnJson::parse(config_json);
  doc["operations"] = churn.operations;
  doc["bytes_written"] = churn.bytes_written;
  doc["files_deleted"] = churn.files_deleted;
  doc["write_errors"] = churn.write_errors;
  doc["before"] = ChurnSampleJson(churn.samples.front());
  doc["after"] = ChurnSampleJson(churn.samples.back());
  ChurnJson js = ChurnJson::array();
  for (const fsload::ChurnSample& s : churn.samples) js.push_back(ChurnSampleJson(s));
  doc["samples"] = std::move(js);
  return doc.dump(2);
}

}  // namespace sb::session
