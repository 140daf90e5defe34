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

// One figure's line of the before/after table, and its figures and verdict in the result: the
// medians, and as storebench compare judges two groups the ratio of the means, its interval from
// resampling the trials, and no effect claimed when the interval holds 1.
void BeforeAfterRow(const std::string& name, const std::vector<double>& b,
                    const std::vector<double>& a, const std::string& key, metrics::RunResult* r) {
  const double mb = fsload::Median(b), ma = fsload::Median(a);
  const experiment::BeforeAfterRatio ratio = experiment::CompareBeforeAfter(b, a);
  char interval[96] = "";
  if (ratio.has_interval) {
    std::snprintf(interval, sizeof interval, " [%.3f, %.3f]", ratio.low, ratio.high);
  }
  std::printf("  %-34s %12.1f %12.1f  %.3f%s: %s\n", name.c_str(), mb, ma, ratio.ratio, interval,
              ratio.verdict.c_str());
  r->figures.emplace_back("before." + key, mb);
  r->figures.emplace_back("after." + key, ma);
  r->figures.emplace_back("ratio." + key, ratio.ratio);
  if (ratio.has_interval) {
    r->figures.emplace_back("ratio_low." + key, ratio.low);
    r->figures.emplace_back("ratio_high." + key, ratio.high);
  }
  r->choices["fragtest.verdict." + key] = ratio.verdict;
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

  metrics::RunResult r;
  r.workload = "fragtest";
  r.started_at = WallClockIsoUtc();
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
  const fs::FragmentMethod fragment_method = fo.fragment_method;
  const fs::FragmentResult* fragmented = &outcome->fragmented;
  const fs::DefragResult* defrag = &outcome->defrag;
  const fsload::FragtestPhase& before = outcome->before;
  const fsload::FragtestPhase& after = outcome->after;
  r.measured_sec = trials.measured_sec();
  r.storage = std::move(trials.tests());
  std::string attempts;
  for (const auto& a : defrag->attempts) {
    attempts += (attempts.empty() ? "" : "; ") + a.method + ": " + a.outcome + " (" +
                std::to_string(a.before) + " -> " + std::to_string(a.after) + " extents, " +
                std::to_string(a.seconds).substr(0, 5) + " s)";
  }
  r.ended_at = WallClockIsoUtc();

  std::printf("\n%s\n", report::FormatStorageTable(r.storage).c_str());
  std::printf(
      "fragtest %s (%s): before %lld extents, after %lld (defrag: %s)\n",
      EscapeForTerminal(path).c_str(), fsinfo->type.c_str(), static_cast<long long>(before.extents),
      static_cast<long long>(after.extents),
      defrag->final_method.empty() ? "no method lowered the count" : defrag->final_method.c_str());
  std::printf("  %-34s %12s %12s  %s\n",
              ("median of " + std::to_string(rounds) + " rounds").c_str(), "before", "after",
              "after/before of the means [95% bootstrap interval]");
  auto row = [&](const std::string& name, const std::vector<double>& b,
                 const std::vector<double>& a, const std::string& key) {
    BeforeAfterRow(name, b, a, key, &r);
  };
  for (size_t i = 0; i < preset.specs.size(); ++i) {
    const std::string& n = preset.specs[i].name;
    row(n + " IOPS", before.iops[i], after.iops[i], n + ".iops_median");
    row(n + " MiB/s", before.mibs[i], after.mibs[i], n + ".mib_per_sec_median");
  }
  if (seq) {
    row("seq 1 MiB read MiB/s", before.seq_mibs, after.seq_mibs, "seq_read.mib_per_sec_median");
  }
  r.figures.insert(r.figures.begin(), {{"extents_before", static_cast<double>(before.extents)},
                                       {"extents_after", static_cast<double>(after.extents)},
                                       {"rounds", static_cast<double>(rounds)}});
  r.headline_name = "extents_before";
  r.headline_value = static_cast<double>(before.extents);
  r.loop_model = "closed loop per trial: " + std::to_string(c.workers) + " worker(s) x " +
                 std::to_string(c.outstanding) +
                 " outstanding I/Os (Iometer model); trials alternate specifications, before and "
                 "after in ABBA order across rounds";
  r.config_json = o.ToJson();
  r.environment = CollectEnvironment(path);
  r.choices["fragtest.fragment"] = "to " + std::to_string(o.GetInt("extents")) +
                                   " extents (io fragment --method " +
                                   fs::FragmentMethodName(fragment_method) +
                                   "), measured with FIEMAP as filefrag counts: " + fragmented->how;
  r.choices["fragtest.fragment_method"] = fragmented->method;
  r.choices["fragtest.fragment_attempts"] = fs::DescribeAttempts(fragmented->attempts);
  r.choices["fragtest.defrag"] =
      (defrag->final_method.empty() ? std::string("no method lowered the count")
                                    : "by " + defrag->final_method) +
      "; attempts: " + attempts;
  r.choices["fragtest.order"] =
      "ABBA: round 1 before then after, round 2 after then before, ...; the file fragmented or "
      "defragmented again between trials as the order needs";
  r.choices["fragtest.page_cache"] = std::string("the file's pages dropped before each trial (") +
                                     (direct ? "O_DIRECT trials" : "buffered trials") +
                                     "); last: " + outcome->page_cache;
  if (seq) {
    r.choices["fragtest.seq_read"] =
        std::string("one pass over the data area in 1 MiB reads, one at a time, ") +
        (direct ? "O_DIRECT" : "buffered") + ", after each round of specifications";
  }
  r.choices["fragtest.settings"] =
      "engine " + c.engine + ", " + std::to_string(c.workers) + " worker(s), " +
      std::to_string(c.outstanding) + " outstanding, run " + FormatDuration(c.run_nanos) +
      ", ramp " + FormatDuration(c.ramp_nanos) + ", test range the whole data area (" +
      std::to_string(info.data_bytes) + " B)";
  if (auto written = WriteResultDocument(o.GetString("json"), "-fragtest.json", r); !written.ok()) {
    return Fail(written.status());
  }
  return kExitOk;
}

}  // namespace sb::cli
