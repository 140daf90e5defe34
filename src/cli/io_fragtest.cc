// storebench io fragtest: the fragmentation guide's before/after test in one command; its schedule
// is workload/fs/fragtest.h (trials before and after in ABBA order across rounds,
// experiment/before_after.h), its trials are run and timed by driver/fragtest_trials.h. One
// result holds every trial with its target's extent count; per figure the medians, and the
// after/before ratio with its bootstrap interval.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "backend/fs/defrag.h"
#include "backend/fs/extent_map.h"
#include "backend/fs/fragment.h"
#include "base/clock.h"
#include "base/strings.h"
#include "base/units.h"
#include "cli/app.h"
#include "cli/io_fs_commands.h"
#include "cli/io_fs_internal.h"
#include "cli/result_document.h"
#include "driver/fragtest_trials.h"
#include "experiment/before_after.h"
#include "report/files/storage_report.h"
#include "session/fragtest_result.h"
#include "workload/fs/fragtest.h"
#include "workload/storage/access_spec.h"

namespace sb::cli {

namespace {

// The access specifications of the trials: --preset's, or the one --spec gives.
Result<storage::Preset> FragtestPreset(const config::OptionSet& o) {
  const std::string& preset_name = o.GetString("preset");
  const std::string& spec_text = o.GetString("spec");
  if (preset_name.empty() == spec_text.empty()) {
    return Status::InvalidArgument("give exactly one of --preset and --spec");
  }
  storage::Preset preset;
  if (!preset_name.empty()) {
    auto p = storage::FindPreset(preset_name, storage::AlignMode::kSector);
    if (!p.ok()) return p.status();
    preset = *p;
  } else {
    auto s = storage::ParseSpecText(spec_text);
    if (!s.ok()) return s.status();
    preset.name = "spec";
    preset.specs = {*s};
  }
  for (const auto& s : preset.specs) {
    if (Status st = storage::ValidateSpec(s, o.GetBool("direct")); !st.ok()) return st;
  }
  return preset;
}

// One line of the before/after table: the medians, the ratio, its interval and the verdict.
void PrintBeforeAfterLine(const session::FragtestLine& line) {
  char interval[96] = "";
  if (line.ratio.has_interval) {
    std::snprintf(interval, sizeof interval, " [%.3f, %.3f]", line.ratio.low, line.ratio.high);
  }
  std::printf("  %-34s %12.1f %12.1f  %.3f%s: %s\n", line.name.c_str(), line.before, line.after,
              line.ratio.ratio, interval, line.ratio.verdict.c_str());
}

}  // namespace

int Fragtest(const config::OptionSet& o, const io::EngineRegistry& engines) {
  const std::string& path = o.GetString("target");
  if (path.empty()) return Fail(Status::InvalidArgument("io fragtest needs --target FILE"));
  if (!o.IsSet("extents")) return Fail(Status::InvalidArgument("io fragtest needs --extents N"));
  const bool direct = o.GetBool("direct");
  auto specs = FragtestPreset(o);
  if (!specs.ok()) return Fail(specs.status());
  const storage::Preset& preset = *specs;
  storage::TargetInfo info;
  auto lock = LockOwnTestFile(path, "run fragtest on", &info);
  if (!lock.ok()) return Fail(lock.status());
  std::unique_ptr<FileLock> held = std::move(lock).value();
  auto fsinfo = fs::DescribeFileSystem(path);
  if (!fsinfo.ok()) return Fail(fsinfo.status());
  if (fsinfo->read_only) {
    return Fail(Status::FailedPrecondition("'" + path + "' is on a read-only mount (" +
                                           fsinfo->mount_point + "), so it cannot be fragmented"));
  }
  const auto* stop = InstallStopHandlers();
  StopAtOnceFlag(kBatchStillPutBack);

  driver::IoRunConfig c;
  c.engine = o.GetString("engine");
  c.workers = static_cast<int>(o.GetInt("workers") > 0 ? o.GetInt("workers") : preset.workers);
  c.outstanding =
      static_cast<int>(o.GetInt("outstanding") > 0 ? o.GetInt("outstanding") : preset.outstanding);
  c.run_nanos = o.GetDurationNanos("run_time");
  c.ramp_nanos = o.GetDurationNanos("ramp_time");
  c.direct = direct;
  c.seed = static_cast<uint64_t>(o.GetInt("seed"));
  auto pattern = storage::ParseDataPattern(info.pattern);
  c.pattern = pattern.ok() ? *pattern : storage::DataPattern::kFullRandom;
  c.stop = stop;
  bool writes = false;
  for (const auto& s : preset.specs) writes = writes || s.HasWrites();
  c.allow_write = writes;

  const std::string started_at = WallClockIsoUtc();
  const int rounds = static_cast<int>(o.GetInt("rounds"));
  const bool seq = o.GetBool("seq_read");
  SteadyClock clock;

  fsload::FragtestOptions fo;
  fo.path = path;
  fo.extents = o.GetInt("extents");
  fo.fragment_method =
      fs::ParseFragmentMethod(o.GetString("fragment_method")).value_or(fs::FragmentMethod::kAuto);
  const std::string& m = o.GetString("method");
  fo.defrag_method = m == "online"
                         ? fs::DefragMethod::kOnline
                         : (m == "copy" ? fs::DefragMethod::kCopy : fs::DefragMethod::kAuto);
  fo.rounds = rounds;
  for (const experiment::Condition k : experiment::AbbaOrder(rounds)) {
    fo.order.push_back(k == experiment::Condition::kBefore);
  }
  fo.specs = preset.specs.size();
  fo.seq_read = seq;
  fo.stop = stop;
  fo.clock = &clock;
  fo.progress = Progress;
  fo.on_fragmented = [&](const fs::FragmentResult& f) {
    PrintFragmentOutcome(path, fsinfo->type, fo.extents, f);
  };
  driver::FragtestTrialRunner trials(engines, preset.specs, c, clock, path, info.data_start,
                                     info.data_bytes, Progress);
  auto outcome = fsload::RunFragtest(fo, *fsinfo, trials, &held);
  if (!outcome.ok()) return Fail(outcome.status());
  session::FragtestSettings settings;
  settings.path = path;
  settings.engine = c.engine;
  settings.workers = c.workers;
  settings.outstanding = c.outstanding;
  settings.run_nanos = c.run_nanos;
  settings.ramp_nanos = c.ramp_nanos;
  settings.direct = direct;
  settings.rounds = rounds;
  settings.seq_read = seq;
  settings.extents = fo.extents;
  settings.fragment_method = fo.fragment_method;
  settings.data_bytes = info.data_bytes;
  session::FragtestReport built = session::BuildFragtestReport(*outcome, preset.specs, settings);
  metrics::RunResult& r = built.result;
  r.started_at = started_at;
  r.ended_at = WallClockIsoUtc();
  r.measured_sec = trials.measured_sec();
  r.storage = std::move(trials.tests());
  r.config_json = o.ToJson();

  const fs::DefragResult& defrag = outcome->defrag;
  std::printf("\n%s\n", report::FormatStorageTable(r.storage).c_str());
  std::printf(
      "fragtest %s (%s): before %lld extents, after %lld (defrag: %s)\n",
      EscapeForTerminal(path).c_str(), fsinfo->type.c_str(),
      static_cast<long long>(outcome->before.extents),
      static_cast<long long>(outcome->after.extents),
      defrag.final_method.empty() ? "no method lowered the count" : defrag.final_method.c_str());
  std::printf("  %-34s %12s %12s  %s\n",
              ("median of " + std::to_string(rounds) + " rounds").c_str(), "before", "after",
              "after/before of the means [95% bootstrap interval]");
  for (const session::FragtestLine& line : built.lines) PrintBeforeAfterLine(line);
  if (auto written = WriteResultDocument(o.GetString("json"), "-fragtest.json", r); !written.ok()) {
    return Fail(written.status());
  }
  return kExitOk;
}

}  // namespace sb::cli
