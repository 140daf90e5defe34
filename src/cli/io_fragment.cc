// storebench io fragment and io defrag (docs/storage.md, "Fragmentation"): a storebench test
// file made worse on purpose, or better, each with its attempts said and optionally as JSON.
#include <cstdio>
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
#include "cli/io_fs_commands.h"
#include "cli/io_fs_internal.h"
#include "report/files/json_report.h"
#include "workload/fs/target_extents.h"
#include "workload/storage/test_file.h"

namespace sb::cli {
namespace {

using Json = nlohmann::ordered_json;

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

}  // namespace

int FragmentCommand(const config::OptionSet& o) {
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
  if (Status s = fsload::FragmentShortfall(path, extents, *r); !s.ok()) return Fail(s);
  return kExitOk;
}

int DefragCommand(const config::OptionSet& o, const std::vector<std::string>& paths) {
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
  auto r = fsload::FragmentTestFile(path, extents, method, stop, Progress);
  if (!r.ok()) return r.status();
  auto fsinfo = fs::DescribeFileSystem(path);
  if (!fsinfo.ok()) return fsinfo.status();
  PrintFragmentOutcome(path, fsinfo->type, extents, *r);
  return r;
}

void PrintFragmentOutcome(const std::string& path, const std::string& fs_type, int64_t extents,
                          const fs::FragmentResult& r) {
  std::printf(
      "fragment %s (%s): %lld -> %lld extents (target %lld)%s in %d round(s), %llu "
      "blocks\n",
      EscapeForTerminal(path).c_str(), fs_type.c_str(), static_cast<long long>(r.before),
      static_cast<long long>(r.after), static_cast<long long>(extents),
      r.method.empty() ? "" : (" by " + r.method).c_str(), r.rounds,
      static_cast<unsigned long long>(r.blocks_refilled));
  if (!r.attempts.empty()) {
    std::printf("  methods: %s\n", EscapeForTerminal(fs::DescribeAttempts(r.attempts)).c_str());
  }
  std::fflush(stdout);
}

}  // namespace sb::cli
