// storebench io extents|fragment|defrag (issue #16, docs/storage.md "Fragmentation"); copy, read,
// churn and fragtest are in io_file_ops.cc and io_fragtest.cc.
#include "cli/io_fs_commands.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "backend/fs/defrag.h"
#include "backend/fs/fragment.h"
#include "base/clock.h"
#include "base/file_lock.h"
#include "base/strings.h"
#include "cli/app.h"
#include "cli/io_fs_internal.h"
#include "cli/output_paths.h"
#include "report/json_report.h"
#include "workload/storage/test_file.h"

namespace sb::cli {
namespace {

using Json = nlohmann::ordered_json;

Json StatsToJson(const fs::ExtentStats& s) {
  Json j = Json::object();
  j["size_bytes"] = s.size_bytes;
  j["mapped_bytes"] = s.mapped_bytes;
  j["extents"] = s.extents;
  j["fs_extents"] = s.fs_extents;
  j["ideal_extents"] = s.ideal_extents;
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

struct FileRow {
  std::string path;
  dev_t device = 0;
  fs::ExtentStats stats;
};

struct Volume {
  fs::FileSystemInfo fs;
  int64_t files = 0;
  fs::ExtentStats sum;           // summed (min/max/mean recomputed)
  int64_t fragmented_files = 0;  // more extents than ideal
  std::vector<size_t> rows;      // indexes into the file rows
};

std::string Human(uint64_t bytes) { return FormatBytesShort(bytes); }

// Every regular file under `root` on root's own file system (like find -xdev), not following
// symbolic links; unreadable directories are skipped and named.
void Walk(const std::string& root, std::vector<std::string>* files,
          std::vector<std::pair<std::string, std::string>>* errors) {
  struct stat rs {};
  if (::lstat(root.c_str(), &rs) != 0) return;
  std::error_code ec;
  std::filesystem::recursive_directory_iterator it(
      root, std::filesystem::directory_options::skip_permission_denied, ec);
  if (ec) {
    errors->push_back({root, ec.message()});
    return;
  }
  for (auto end = std::filesystem::recursive_directory_iterator(); it != end; it.increment(ec)) {
    if (ec) {
      errors->push_back({it->path().string(), ec.message()});
      ec.clear();
      continue;
    }
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode) && st.st_dev != rs.st_dev) {
      it.disable_recursion_pending();
      continue;
    }
    if (S_ISREG(st.st_mode)) files->push_back(it->path().string());
  }
}

int Extents(const config::OptionSet& o, const std::vector<std::string>& paths) {
  if (paths.empty()) {
    return Fail(Status::InvalidArgument("io extents needs at least one PATH"));
  }
  const bool recursive = o.GetBool("recursive");
  std::vector<std::string> files;
  std::vector<std::pair<std::string, std::string>> errors;
  for (const std::string& p : paths) {
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0) {
      return Fail(Status::NotFound("'" + p + "' does not exist"));
    }
    if (S_ISDIR(st.st_mode)) {
      if (!recursive) {
        return Fail(Status::InvalidArgument("'" + p +
                                            "' is a directory; add --recursive to measure the "
                                            "files under it"));
      }
      Walk(p, &files, &errors);
    } else if (S_ISREG(st.st_mode)) {
      files.push_back(p);
    } else {
      return Fail(Status::InvalidArgument("'" + p + "' is neither a regular file nor a directory"));
    }
  }
  std::map<dev_t, Volume> volumes;
  std::vector<FileRow> rows;
  for (const std::string& f : files) {
    struct stat st {};
    if (::stat(f.c_str(), &st) != 0) continue;  // removed meanwhile
    auto vol = volumes.find(st.st_dev);
    if (vol == volumes.end()) {
      auto info = fs::DescribeFileSystem(f);
      if (!info.ok()) return Fail(info.status());
      vol = volumes.emplace(st.st_dev, Volume{*info, 0, {}, 0, {}}).first;
    }
    auto s = fs::MeasureFile(f, vol->second.fs);
    if (!s.ok()) {
      // No FIEMAP means no figure for any file of that volume: bad input, said once.
      if (s.status().code() == StatusCode::kFailedPrecondition) return Fail(s.status());
      errors.emplace_back(f, s.status().message());
      continue;
    }
    rows.push_back({f, st.st_dev, *s});
    Volume& v = vol->second;
    v.rows.push_back(rows.size() - 1);
    ++v.files;
    fs::ExtentStats& t = v.sum;
    t.size_bytes += s->size_bytes;
    t.mapped_bytes += s->mapped_bytes;
    t.extents += s->extents;
    t.fs_extents += s->fs_extents;
    t.ideal_extents += s->ideal_extents;
    t.discontinuities += s->discontinuities;
    t.seek_bytes += s->seek_bytes;
    t.unwritten_extents += s->unwritten_extents;
    t.unwritten_bytes += s->unwritten_bytes;
    t.shared_extents += s->shared_extents;
    t.shared_bytes += s->shared_bytes;
    t.other_flagged += s->other_flagged;
    if (s->extents > 0 && (t.min_extent_bytes == 0 || s->min_extent_bytes < t.min_extent_bytes)) {
      t.min_extent_bytes = s->min_extent_bytes;
    }
    t.max_extent_bytes = std::max(t.max_extent_bytes, s->max_extent_bytes);
    if (s->extents > std::max<int64_t>(1, s->ideal_extents)) ++v.fragmented_files;
  }
  const int64_t top = o.GetInt("top");
  // Most fragmented first: by extents, then by seek distance.
  auto worse = [&](size_t a, size_t b) {
    if (rows[a].stats.extents != rows[b].stats.extents) {
      return rows[a].stats.extents > rows[b].stats.extents;
    }
    return rows[a].stats.seek_bytes > rows[b].stats.seek_bytes;
  };
  std::printf("%10s %7s %8s %10s %10s %10s %8s %11s %9s %7s  %s\n", "extents", "ideal", "records",
              "size", "mean ext", "min ext", "discont", "seek", "unwritten", "shared", "file");
  auto print_row = [&](const FileRow& r) {
    const fs::ExtentStats& s = r.stats;
    std::printf("%10lld %7lld %8lld %10s %10s %10s %8lld %11s %9lld %7lld  %s\n",
                static_cast<long long>(s.extents), static_cast<long long>(s.ideal_extents),
                static_cast<long long>(s.fs_extents), Human(s.size_bytes).c_str(),
                Human(s.mean_extent_bytes).c_str(), Human(s.min_extent_bytes).c_str(),
                static_cast<long long>(s.discontinuities), Human(s.seek_bytes).c_str(),
                static_cast<long long>(s.unwritten_extents),
                static_cast<long long>(s.shared_extents), EscapeForTerminal(r.path).c_str());
  };
  Json jvols = Json::array();
  for (auto& [dev, v] : volumes) {
    std::sort(v.rows.begin(), v.rows.end(), worse);
    if (v.sum.extents > 0) v.sum.mean_extent_bytes = v.sum.mapped_bytes / v.sum.extents;
    const size_t shown = std::min<size_t>(v.rows.size(), static_cast<size_t>(top));
    for (size_t i = 0; i < shown; ++i) print_row(rows[v.rows[i]]);
    if (shown < v.rows.size()) {
      std::printf("  ... %zu more file(s) (--top shows more)\n", v.rows.size() - shown);
    }
    const fs::FreeSpace free = fs::MeasureFreeSpace(v.fs.mount_point);
    std::printf(
        "volume %s (%s on %s, %llu-byte blocks): %lld file(s), %lld extents (ideal %lld), "
        "%lld fragmented, %s in files, seek distance %s\n",
        EscapeForTerminal(v.fs.mount_point).c_str(), v.fs.type.c_str(),
        EscapeForTerminal(v.fs.source).c_str(), static_cast<unsigned long long>(v.fs.block_size),
        static_cast<long long>(v.files), static_cast<long long>(v.sum.extents),
        static_cast<long long>(v.sum.ideal_extents), static_cast<long long>(v.fragmented_files),
        Human(v.sum.size_bytes).c_str(), Human(v.sum.seek_bytes).c_str());
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
    jvols.push_back(std::move(jv));
  }
  for (const auto& [path, why] : errors) {
    Progress(std::string("warning: ").append(path).append(": ").append(why));
  }
  const std::string& json_path = o.GetString("json");
  if (!json_path.empty()) {
    Json doc = Json::object();
    doc["kind"] = "storebench.extents";
    doc["format_version"] = 1;
    doc["tool"] = {{"name", "storebench"}, {"version", report::ToolVersion()}};
    doc["measured_at"] = WallClockIsoUtc();
    doc["counting"] =
        "extents: physically contiguous runs of FIEMAP records, as filefrag counts them; "
        "fs_extents: the records themselves; ideal_extents: ceil(mapped bytes / the file "
        "system's longest extent)";
    Json jfiles = Json::array();
    for (const FileRow& r : rows) {
      Json jr = StatsToJson(r.stats);
      jr["path"] = r.path;
      jr["mount_point"] = volumes.at(r.device).fs.mount_point;
      jfiles.push_back(std::move(jr));
    }
    doc["files"] = std::move(jfiles);
    doc["volumes"] = std::move(jvols);
    Json jerr = Json::array();
    for (const auto& [path, why] : errors) jerr.push_back({{"path", path}, {"error", why}});
    doc["errors"] = std::move(jerr);
    if (Status s = WriteJsonDocument(json_path, doc.dump(2)); !s.ok()) return Fail(s);
    Progress("written " + json_path);
  }
  return kExitOk;
}

Json AttemptsToJson(const std::vector<fs::FragmentAttempt>& attempts) {
  Json ja = Json::array();
  for (const fs::FragmentAttempt& a : attempts) {
    ja.push_back({{"method", a.method},
                  {"status", a.status},
                  {"why", a.why},
                  {"extents_before", a.before},
                  {"extents_after", a.after},
                  {"rounds", a.rounds},
                  {"blocks", a.blocks}});
  }
  return ja;
}

int Fragment(const config::OptionSet& o) {
  const std::string& path = o.GetString("target");
  if (path.empty()) return Fail(Status::InvalidArgument("io fragment needs --target FILE"));
  if (!o.IsSet("extents")) return Fail(Status::InvalidArgument("io fragment needs --extents N"));
  // The option's declaration lists the same words, so this always parses.
  const fs::FragmentMethod method =
      fs::ParseFragmentMethod(o.GetString("method")).value_or(fs::FragmentMethod::kAuto);
  storage::TargetInfo info;
  auto lock = LockOwnTestFile(path, "fragment", &info);
  if (!lock.ok()) return Fail(lock.status());
  std::unique_ptr<FileLock> held = std::move(lock).value();
  const int64_t extents = o.GetInt("extents");
  const std::atomic<bool>* stop = InstallStopHandlers();
  StopAtOnceFlag(kBatchStillPutBack);
  auto r = FragmentTestFile(path, extents, method, stop);
  if (!r.ok()) return Fail(r.status());
  if (r->new_lock) held = std::move(r->new_lock);
  const std::string& json_path = o.GetString("json");
  if (!json_path.empty()) {
    Json doc = Json::object();
    doc["kind"] = "storebench.fragment";
    doc["format_version"] = 1;
    doc["tool"] = {{"name", "storebench"}, {"version", report::ToolVersion()}};
    doc["measured_at"] = WallClockIsoUtc();
    doc["path"] = path;
    auto fsinfo = fs::DescribeFileSystem(path);
    doc["filesystem"] = fsinfo.ok() ? fsinfo->type : "";
    doc["method_asked"] = fs::FragmentMethodName(method);
    doc["target_extents"] = extents;
    doc["extents_before"] = r->before;
    doc["extents_after"] = r->after;
    doc["reached"] = r->reached;
    doc["method"] = r->method;
    doc["how"] = r->how;
    doc["rounds"] = r->rounds;
    doc["blocks"] = r->blocks_refilled;
    doc["attempts"] = AttemptsToJson(r->attempts);
    if (Status s = WriteJsonDocument(json_path, doc.dump(2)); !s.ok()) return Fail(s);
    Progress("written " + json_path);
  }
  if (Status s = FragmentShortfall(path, extents, *r); !s.ok()) return Fail(s);
  return kExitOk;
}

int Defrag(const config::OptionSet& o, const std::vector<std::string>& paths) {
  if (paths.empty()) return Fail(Status::InvalidArgument("io defrag needs a PATH"));
  fs::DefragOptions d;
  const std::string& m = o.GetString("method");
  d.method = m == "online" ? fs::DefragMethod::kOnline
                           : (m == "copy" ? fs::DefragMethod::kCopy : fs::DefragMethod::kAuto);
  d.stop = InstallStopHandlers();
  SteadyClock clock;
  d.clock = &clock;
  Json jfiles = Json::array();
  int rc = kExitOk;
  for (const std::string& path : paths) {
    storage::TargetInfo info;
    auto lock = LockOwnTestFile(path, "defragment", &info);
    if (!lock.ok()) return Fail(lock.status());
    auto fsinfo = fs::DescribeFileSystem(path);
    if (!fsinfo.ok()) return Fail(fsinfo.status());
    d.path = path;
    auto r = fs::DefragFile(d, *fsinfo, Progress);
    if (!r.ok()) return Fail(r.status());
    std::printf("defrag %s (%s): %lld -> %lld extents, %s\n", EscapeForTerminal(path).c_str(),
                fsinfo->type.c_str(), static_cast<long long>(r->before),
                static_cast<long long>(r->after),
                r->final_method.empty()
                    ? (r->attempts.empty() ? "nothing to do" : "no method lowered the count")
                    : ("by " + r->final_method).c_str());
    Json jf = Json::object();
    jf["path"] = path;
    jf["filesystem"] = fsinfo->type;
    jf["extents_before"] = r->before;
    jf["extents_after"] = r->after;
    jf["method"] = r->final_method;
    Json ja = Json::array();
    for (const fs::DefragAttempt& a : r->attempts) {
      ja.push_back({{"method", a.method},
                    {"ran", a.ran},
                    {"ok", a.ok},
                    {"refused", a.refused},
                    {"outcome", a.outcome},
                    {"extents_before", a.before},
                    {"extents_after", a.after},
                    {"seconds", a.seconds}});
    }
    jf["attempts"] = std::move(ja);
    jfiles.push_back(std::move(jf));
    if (!r->attempts.empty() && r->final_method.empty()) rc = kExitFailure;
  }
  const std::string& json_path = o.GetString("json");
  if (!json_path.empty()) {
    Json doc = Json::object();
    doc["kind"] = "storebench.defrag";
    doc["format_version"] = 1;
    doc["tool"] = {{"name", "storebench"}, {"version", report::ToolVersion()}};
    doc["measured_at"] = WallClockIsoUtc();
    doc["files"] = std::move(jfiles);
    if (Status s = WriteJsonDocument(json_path, doc.dump(2)); !s.ok()) return Fail(s);
    Progress("written " + json_path);
  }
  return rc;
}

}  // namespace

// Locks `path` exclusively and checks it is a storebench test file: a file storebench did not
// create is refused, as io run refuses to write one.
Result<std::unique_ptr<FileLock>> LockOwnTestFile(const std::string& path, const char* verb,
                                                  storage::TargetInfo* info) {
  auto lock = TryLockTarget(path, LockMode::kExclusive, /*create=*/false, nullptr);
  if (!lock.ok()) {
    if (lock.status().code() == StatusCode::kFailedPrecondition) {
      return Status::FailedPrecondition("the target " + path + " is in use by " +
                                        lock.status().message() + "; wait for it or stop it");
    }
    if (lock.status().code() == StatusCode::kNotFound) {
      return Status::NotFound("'" + path + "' does not exist");
    }
    return lock.status();
  }
  auto inspected = storage::InspectTarget(path);
  if (!inspected.ok()) return inspected.status();
  if (inspected->block_device || !inspected->storebench_file) {
    return Status::FailedPrecondition(
        std::string("refusing to ") + verb + " '" + path +
        "': storebench did not create it (no complete test-file marker); " + verb +
        " only files made by 'storebench io prepare'");
  }
  *info = *inspected;
  return std::move(lock).value();
}

Result<fs::FragmentResult> FragmentTestFile(const std::string& path, int64_t extents,
                                            fs::FragmentMethod method,
                                            const std::atomic<bool>* stop) {
  auto info = storage::InspectTarget(path);
  if (!info.ok()) return info.status();
  auto fsinfo = fs::DescribeFileSystem(path);
  if (!fsinfo.ok()) return fsinfo.status();
  fs::FragmentOptions f;
  f.path = path;
  f.target_extents = extents;
  f.region_start = info->data_start;
  f.region_bytes = info->data_bytes - info->data_bytes % std::max<uint64_t>(fsinfo->block_size, 1);
  f.stop = stop;
  f.method = method;
  auto r = fs::FragmentFile(f, *fsinfo, Progress);
  if (!r.ok()) return r.status();
  std::printf(
      "fragment %s (%s): %lld -> %lld extents (target %lld)%s in %d round(s), %llu "
      "blocks\n",
      EscapeForTerminal(path).c_str(), fsinfo->type.c_str(), static_cast<long long>(r->before),
      static_cast<long long>(r->after), static_cast<long long>(extents),
      r->method.empty() ? "" : (" by " + r->method).c_str(), r->rounds,
      static_cast<unsigned long long>(r->blocks_refilled));
  if (!r->attempts.empty()) {
    std::printf("  methods: %s\n", EscapeForTerminal(fs::DescribeAttempts(r->attempts)).c_str());
  }
  std::fflush(stdout);
  return r;
}

Status FragmentShortfall(const std::string& path, int64_t extents, const fs::FragmentResult& r) {
  if (r.reached) return Status::Ok();
  return Status::IoError("'" + path + "' has " + std::to_string(r.after) +
                         " extents, not within 5 % of the " + std::to_string(extents) +
                         " asked for" +
                         (r.attempts.empty() ? " (it was more fragmented already; run io defrag)"
                                             : " (" + fs::DescribeAttempts(r.attempts) + ")"));
}

TargetExtents MeasureTargetExtents(const std::string& path) {
  TargetExtents t;
  auto fsinfo = fs::DescribeFileSystem(path);
  if (!fsinfo.ok()) {
    t.note = fsinfo.status().message();
    return t;
  }
  t.filesystem = fsinfo->type;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISBLK(st.st_mode)) {
    t.note = "a block device has no extents";
    return t;
  }
  auto s = fs::MeasureFile(path, *fsinfo);
  if (!s.ok()) {
    t.note = s.status().message();
    return t;
  }
  t.extents = s->extents;
  return t;
}

std::vector<std::string> TakeOperands(std::vector<std::string>* args,
                                      const config::OptionSet& options) {
  std::vector<std::string> operands, rest;
  for (size_t i = 0; i < args->size(); ++i) {
    const std::string& a = (*args)[i];
    if (a.rfind("--", 0) != 0) {
      operands.push_back(a);
      continue;
    }
    rest.push_back(a);
    if (a.find('=') != std::string::npos) continue;
    const config::OptionSpec* spec = options.FindSpec(a.substr(2));
    const bool takes_value = (spec != nullptr && spec->type != config::OptionType::kBool) ||
                             a == "--config_file" || a == "--config-file";
    if (takes_value && i + 1 < args->size() && (*args)[i + 1].rfind("--", 0) != 0) {
      rest.push_back((*args)[++i]);
    }
  }
  *args = std::move(rest);
  return operands;
}

bool IsIoFsCommand(const std::string& name) {
  return name == "extents" || name == "fragment" || name == "defrag" || name == "copy" ||
         name == "read" || name == "churn" || name == "fragtest";
}

int RunIoFsCommand(const std::vector<std::string>& args, const io::EngineRegistry& engines) {
  const std::string& cmd = args[0];
  config::OptionSet o;
  o.set_help_command("storebench io " + cmd + " --help");
  DeclareIoFsOptions(&o, cmd, engines);
  std::vector<std::string> rest(args.begin() + 1, args.end());
  for (const auto& a : rest) {
    if (a == "--help" || a == "-h") {
      std::printf("%s\n%s", WrapLine(std::string("usage: ") + IoFsUsage(cmd), 100, 13).c_str(),
                  o.HelpText().c_str());
      return kExitOk;
    }
  }
  std::vector<std::string> operands = TakeOperands(&rest, o);
  if (Status s = config::ParseCommandLine(rest, &o); !s.ok()) return Fail(s);
  const bool takes_operands = cmd == "extents" || cmd == "defrag" || cmd == "copy" || cmd == "read";
  if (!takes_operands && !operands.empty()) {
    return Fail(Status::InvalidArgument("unexpected argument '" + operands[0] +
                                        "'; usage: " + IoFsUsage(cmd)));
  }
  std::vector<PathUse> inputs, outputs;
  // copy's DESTINATION is checked against its source by the copy itself; here it is one more
  // file --json must not name.
  for (size_t i = 0; i < operands.size(); ++i) {
    inputs.push_back({cmd == "copy" ? (i == 0 ? "the SOURCE operand" : "the DESTINATION operand")
                                    : "the PATH operand",
                      operands[i]});
  }
  if (o.Has("target")) inputs.push_back({"the --target file", o.GetString("target")});
  if (o.Has("json") && !o.GetString("json").empty()) {
    outputs.push_back({"--json", o.GetString("json"), /*creates_parents=*/true,
                       /*replaces=*/true});
  }
  if (Status s = CheckOutputPaths(inputs, outputs); !s.ok()) return Fail(s);
  if (cmd == "extents") return Extents(o, operands);
  if (cmd == "fragment") return Fragment(o);
  if (cmd == "defrag") return Defrag(o, operands);
  if (cmd == "copy") return CopyFile(o, operands, engines);
  if (cmd == "read") return ReadFile(o, operands, engines);
  if (cmd == "churn") return Churn(o);
  return Fragtest(o, engines);
}

}  // namespace sb::cli
