// storebench io extents (docs/storage.md, "Fragmentation"): every file's FIEMAP extent map in
// figures, most fragmented first, each volume's totals and free space, optionally as JSON.
#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "backend/fs/extent_map.h"
#include "base/clock.h"
#include "base/strings.h"
#include "cli/app.h"
#include "cli/io_extents_scan.h"
#include "cli/io_fs_internal.h"
#include "report/files/json_report.h"

namespace sb::cli {
namespace {

using Json = nlohmann::ordered_json;

Json StatsToJson(const fs::ExtentStats& s) {
  Json j = Json::object();
  j["size_bytes"] = s.size_bytes;
  j["mapped_bytes"] = s.mapped_bytes;
  j["extents"] = s.extents;
  j["fs_extents"] = s.fs_extents;
  j["min_records"] = s.min_records;
  j["mean_extent_bytes"] = s.mean_extent_bytes;
  j["min_extent_bytes"] = s.min_extent_bytes;
  j["max_extent_bytes"] = s.max_extent_bytes;
  j["discontinuities"] = s.discontinuities;
  j["seek_bytes"] = s.seek_bytes;
  j["unwritten_extents"] = s.unwritten_extents;
  j["unwritten_bytes"] = s.unwritten_bytes;
  j["shared_extents"] = s.shared_extents;
  j["shared_bytes"] = s.shared_bytes;
  j["other_flagged_extents"] = s.other_flagged;
  return j;
}

Json FsToJson(const fs::FileSystemInfo& f) {
  Json j = Json::object();
  j["mount_point"] = f.mount_point;
  j["type"] = f.type;
  j["source"] = f.source;
  j["block_size"] = f.block_size;
  j["max_extent_bytes"] = f.max_extent_bytes;
  j["read_only"] = f.read_only;
  j["total_bytes"] = f.total_bytes;
  j["used_bytes"] = f.used_bytes;
  j["free_bytes"] = f.free_bytes;
  return j;
}

std::string Human(uint64_t bytes) { return FormatBytesShort(bytes); }

// One file's line of the table.
void PrintFileRow(const FileRow& r) {
  const fs::ExtentStats& s = r.stats;
  std::printf("%10lld %8lld %7lld %10s %10s %10s %8lld %11s %9lld %7lld  %s\n",
              static_cast<long long>(s.extents), static_cast<long long>(s.fs_extents),
              static_cast<long long>(s.min_records), Human(s.size_bytes).c_str(),
              Human(s.mean_extent_bytes).c_str(), Human(s.min_extent_bytes).c_str(),
              static_cast<long long>(s.discontinuities), Human(s.seek_bytes).c_str(),
              static_cast<long long>(s.unwritten_extents), static_cast<long long>(s.shared_extents),
              EscapeForTerminal(r.path).c_str());
}

// Prints the volume's most fragmented files (`top` of them) and its totals; its JSON object.
Json ShowVolume(Volume& v, const std::vector<FileRow>& rows, int64_t top) {
  // Most fragmented first: by extents, then by seek distance.
  auto worse = [&](size_t a, size_t b) {
    if (rows[a].stats.extents != rows[b].stats.extents) {
      return rows[a].stats.extents > rows[b].stats.extents;
    }
    return rows[a].stats.seek_bytes > rows[b].stats.seek_bytes;
  };
  std::sort(v.rows.begin(), v.rows.end(), worse);
  if (v.sum.extents > 0) v.sum.mean_extent_bytes = v.sum.mapped_bytes / v.sum.extents;
  const size_t shown = std::min<size_t>(v.rows.size(), static_cast<size_t>(top));
  for (size_t i = 0; i < shown; ++i) PrintFileRow(rows[v.rows[i]]);
  if (shown < v.rows.size()) {
    std::printf("  ... %zu more file(s) (--top shows more)\n", v.rows.size() - shown);
  }
  const fs::FreeSpace free = fs::MeasureFreeSpace(v.fs.mount_point);
  std::printf(
      "volume %s (%s on %s, %llu-byte blocks): %lld file(s), %lld extents (%lld records, at "
      "least %lld), %lld fragmented, %s in files, seek distance %s\n",
      EscapeForTerminal(v.fs.mount_point).c_str(), v.fs.type.c_str(),
      EscapeForTerminal(v.fs.source).c_str(), static_cast<unsigned long long>(v.fs.block_size),
      static_cast<long long>(v.files), static_cast<long long>(v.sum.extents),
      static_cast<long long>(v.sum.fs_extents), static_cast<long long>(v.sum.min_records),
      static_cast<long long>(v.fragmented_files), Human(v.sum.size_bytes).c_str(),
      Human(v.sum.seek_bytes).c_str());
  if (free.available) {
    std::printf("  free space: %lld free extents, %s free, largest %s (GETFSMAP)\n",
                static_cast<long long>(free.free_extents), Human(free.free_bytes).c_str(),
                Human(free.largest_free_bytes).c_str());
  } else {
    std::printf("  free space: not measured: %s\n", free.why_not.c_str());
  }
  Json jv = FsToJson(v.fs);
  jv["files"] = v.files;
  jv["fragmented_files"] = v.fragmented_files;
  jv["totals"] = StatsToJson(v.sum);
  Json jf = Json::object();
  jf["available"] = free.available;
  if (free.available) {
    jf["free_extents"] = free.free_extents;
    jf["free_bytes"] = free.free_bytes;
    jf["largest_free_bytes"] = free.largest_free_bytes;
  } else {
    jf["why_not"] = free.why_not;
  }
  jv["free_space"] = std::move(jf);
  Json most = Json::array();
  for (size_t i = 0; i < shown; ++i) most.push_back(rows[v.rows[i]].path);
  jv["most_fragmented"] = std::move(most);
  return jv;
}

// The storebench.extents document: every file, every volume, every file that could not be
// measured.
Status WriteExtentsJson(const std::string& json_path, const Measured& m, Json jvols,
                        const PathErrors& errors) {
  Json doc = Json::object();
  doc["kind"] = "storebench.extents";
  doc["format_version"] = 1;
  doc["tool"] = {{"name", "storebench"}, {"version", report::ToolVersion()}};
  doc["measured_at"] = WallClockIsoUtc();
  doc["counting"] =
      "extents: physically contiguous runs of FIEMAP records, as filefrag counts them; "
      "fs_extents: the records themselves; min_records: the fewest records possible, ceil(mapped "
      "bytes / the file system's longest record) (a count of records, not of extents: in "
      "filefrag's count a file's best is 1)";
  Json jfiles = Json::array();
  for (const FileRow& r : m.rows) {
    Json jr = StatsToJson(r.stats);
    jr["path"] = r.path;
    jr["mount_point"] = m.volumes.at(r.device).fs.mount_point;
    jfiles.push_back(std::move(jr));
  }
  doc["files"] = std::move(jfiles);
  doc["volumes"] = std::move(jvols);
  Json jerr = Json::array();
  for (const auto& [path, why] : errors) jerr.push_back({{"path", path}, {"error", why}});
  doc["errors"] = std::move(jerr);
  if (Status s = WriteJsonDocument(json_path, doc.dump(2)); !s.ok()) return s;
  Progress("written " + json_path);
  return Status::Ok();
}

}  // namespace

int ExtentsCommand(const config::OptionSet& o, const std::vector<std::string>& paths) {
  if (paths.empty()) {
    return Fail(Status::InvalidArgument("io extents needs at least one PATH"));
  }
  std::vector<std::string> files;
  PathErrors errors;
  if (Status s = CollectFiles(paths, o.GetBool("recursive"), &files, &errors); !s.ok()) {
    return Fail(s);
  }
  Measured m;
  if (Status s = MeasureFiles(files, &m, &errors); !s.ok()) return Fail(s);
  std::printf("%10s %8s %7s %10s %10s %10s %8s %11s %9s %7s  %s\n", "extents", "records", "min rec",
              "size", "mean ext", "min ext", "discont", "seek", "unwritten", "shared", "file");
  Json jvols = Json::array();
  for (auto& [dev, v] : m.volumes) jvols.push_back(ShowVolume(v, m.rows, o.GetInt("top")));
  for (const auto& [path, why] : errors) {
    Progress(std::string("warning: ").append(path).append(": ").append(why));
  }
  const std::string& json_path = o.GetString("json");
  if (!json_path.empty()) {
    if (Status s = WriteExtentsJson(json_path, m, std::move(jvols), errors); !s.ok()) {
      return Fail(s);
    }
  }
  return kExitOk;
}

}  // namespace sb::cli
