// storebench io fragtest: the fragmentation guide's before/after test in one command. The test
// file is fragmented to --extents; each of --rounds rounds runs the access specifications (and a
// sequential 1 MiB read of the whole data area) once fragmented ("before") and once
// defragmented ("after"), in ABBA order across rounds (experiment/before_after.h), the file
// fragmented or defragmented between trials as the order needs and its pages dropped from the
// page cache before each trial. One result holds every trial with its target's extent count;
// per figure the medians, and the after/before ratio with its bootstrap interval.
//
// Trials alternate specifications within a trial (spec 1, spec 2, ...), so slow drifts of a
// shared machine spread over all of them.
#include <algorithm>
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
#include "cli/result_path.h"
#include "driver/file_pass_runner.h"
#include "driver/io_runner.h"
#include "experiment/before_after.h"
#include "report/files/json_report.h"
#include "report/files/storage_report.h"
#include "workload/fs/file_pass.h"
#include "workload/fs/page_cache.h"
#include "workload/storage/access_spec.h"

namespace sb::cli {
namespace {

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// One pass over [start, start + len) in 1 MiB reads, one at a time (fio's psync with bs=1M,
// rw=read), through the psync engine and timed by the driver; MiB/s.
Result<double> SequentialRead(const io::EngineRegistry& engines, Clock& clock,
                              const std::string& path, uint64_t start, uint64_t len, bool direct) {
  auto engine = engines.Create("psync", io::EngineOptions{});
  if (!engine.ok()) return engine.status();
  fsload::ReadPassOptions ro;
  ro.path = path;
  ro.block = 1 << 20;
  ro.direct = direct;
  ro.buffered_fallback = false;
  ro.start = start;
  ro.length = len;
  auto pass = fsload::OpenReadPass(std::move(engine).value(), ro);
  if (!pass.ok()) return pass.status();
  auto timed = driver::RunFilePass(clock, **pass, nullptr);
  if (!timed.ok()) return timed.status();
  return timed->MibPerSec();
}

struct Phase {
  std::string name;  // "before", "after"
  int64_t extents = 0;
  std::vector<std::vector<double>> iops;  // [spec][round]
  std::vector<std::vector<double>> mibs;  // [spec][round]
  std::vector<double> seq_mibs;           // [round]
};

}  // namespace

int Fragtest(const config::OptionSet& o, const io::EngineRegistry& engines) {
  const std::string& path = o.GetString("target");
  if (path.empty()) return Fail(Status::InvalidArgument("io fragtest needs --target FILE"));
  if (!o.IsSet("extents")) return Fail(Status::InvalidArgument("io fragtest needs --extents N"));
  const std::string& preset_name = o.GetString("preset");
  const std::string& spec_text = o.GetString("spec");
  if (preset_name.empty() == spec_text.empty()) {
    return Fail(Status::InvalidArgument("give exactly one of --preset and --spec"));
  }
  const bool direct = o.GetBool("direct");
  storage::Preset preset;
  if (!preset_name.empty()) {
    auto p = storage::FindPreset(preset_name, storage::AlignMode::kSector);
    if (!p.ok()) return Fail(p.status());
    preset = *p;
  } else {
    auto s = storage::ParseSpecText(spec_text);
    if (!s.ok()) return Fail(s.status());
    preset.name = "spec";
    preset.specs = {*s};
  }
  for (const auto& s : preset.specs) {
    if (Status st = storage::ValidateSpec(s, direct); !st.ok()) return Fail(st);
  }
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

  const fs::FragmentMethod fragment_method =
      fs::ParseFragmentMethod(o.GetString("fragment_method")).value_or(fs::FragmentMethod::kAuto);
  auto fragmented = FragmentTestFile(path, o.GetInt("extents"), fragment_method, stop);
  if (!fragmented.ok()) return Fail(fragmented.status());
  if (fragmented->new_lock) held = std::move(fragmented->new_lock);
  if (Status s = FragmentShortfall(path, o.GetInt("extents"), *fragmented); !s.ok()) {
    return Fail(s);
  }

  // Pages of the file left in the page cache by the last trial, the fragmenting or the
  // defragmenting would make the next trial's reads memory's: dropped before each trial.
  std::string cache_words;
  auto run_phase = [&](Phase* ph, int round) -> Status {
    ph->iops.resize(preset.specs.size());
    ph->mibs.resize(preset.specs.size());
    {
      for (size_t i = 0; i < preset.specs.size(); ++i) {
        cache_words = fsload::DropCaches("file", {path});
        if (stop->load()) return Status::Cancelled("io fragtest stopped by a signal");
        auto info_now = storage::InspectTarget(path);
        if (!info_now.ok()) return info_now.status();
        driver::IoTarget t;
        t.path = path;
        t.range_start = info_now->data_start;
        t.range_bytes = info_now->data_bytes;
        const TargetExtents ext = MeasureTargetExtents(path);
        t.extents = ext.extents;
        t.extents_note = ext.note;
        t.filesystem = ext.filesystem;
        c.targets = {t};
        storage::AccessSpec spec = preset.specs[i];
        Progress(ph->name + " round " + std::to_string(round + 1) + ": '" + spec.name + "' (" +
                 std::to_string(ext.extents) + " extents)");
        auto test = driver::RunStorageTest(engines, spec, static_cast<int>(i), c, clock, Progress);
        if (!test.ok()) return test.status();
        test->name = ph->name + " r" + std::to_string(round + 1) + ": " + spec.name;
        ph->iops[i].push_back(test->Iops());
        ph->mibs[i].push_back(test->MibPerSec());
        r.measured_sec += test->measured_sec;
        r.storage.push_back(std::move(*test));
      }
      if (seq) {
        cache_words = fsload::DropCaches("file", {path});
        auto mibs = SequentialRead(engines, clock, path, info.data_start, info.data_bytes, direct);
        if (!mibs.ok()) return mibs.status();
        ph->seq_mibs.push_back(*mibs);
      }
    }
    return Status::Ok();
  };

  Phase before, after;
  before.name = "before";
  after.name = "after";
  before.extents = MeasureTargetExtents(path).extents;

  fs::DefragOptions d;
  d.path = path;
  const std::string& m = o.GetString("method");
  d.method = m == "online" ? fs::DefragMethod::kOnline
                           : (m == "copy" ? fs::DefragMethod::kCopy : fs::DefragMethod::kAuto);
  d.stop = stop;
  d.clock = &clock;
  std::string attempts, final_method;
  auto defragment = [&]() -> Status {
    auto defrag = fs::DefragFile(d, *fsinfo, Progress);
    if (!defrag.ok()) return defrag.status();
    if (defrag->new_lock) held = std::move(defrag->new_lock);
    for (const auto& a : defrag->attempts) {
      attempts += (attempts.empty() ? "" : "; ") + a.method + ": " + a.outcome + " (" +
                  std::to_string(a.before) + " -> " + std::to_string(a.after) + " extents, " +
                  std::to_string(a.seconds).substr(0, 5) + " s)";
    }
    final_method = defrag->final_method;
    after.extents = MeasureTargetExtents(path).extents;
    return Status::Ok();
  };
  auto refragment = [&]() -> Status {
    auto again = FragmentTestFile(path, o.GetInt("extents"), fragment_method, stop);
    if (!again.ok()) return again.status();
    if (again->new_lock) held = std::move(again->new_lock);
    SB_RETURN_IF_ERROR(FragmentShortfall(path, o.GetInt("extents"), *again));
    before.extents = MeasureTargetExtents(path).extents;
    return Status::Ok();
  };
  // ABBA: the file changes state between trials as the order asks (fragmented first).
  bool fragmented_now = true;
  const std::vector<experiment::Condition> order = experiment::AbbaOrder(rounds);
  for (size_t k = 0; k < order.size(); ++k) {
    const bool want_before = order[k] == experiment::Condition::kBefore;
    if (want_before != fragmented_now) {
      if (Status s = want_before ? refragment() : defragment(); !s.ok()) return Fail(s);
      fragmented_now = want_before;
    }
    if (Status s = run_phase(want_before ? &before : &after, static_cast<int>(k / 2)); !s.ok()) {
      return Fail(s);
    }
  }
  r.ended_at = WallClockIsoUtc();

  std::printf("\n%s\n", report::FormatStorageTable(r.storage).c_str());
  std::printf("fragtest %s (%s): before %lld extents, after %lld (defrag: %s)\n",
              EscapeForTerminal(path).c_str(), fsinfo->type.c_str(),
              static_cast<long long>(before.extents), static_cast<long long>(after.extents),
              final_method.empty() ? "no method lowered the count" : final_method.c_str());
  std::printf("  %-34s %12s %12s  %s\n",
              ("median of " + std::to_string(rounds) + " rounds").c_str(), "before", "after",
              "after/before of the means [95% bootstrap interval]");
  auto row = [&](const std::string& name, const std::vector<double>& b,
                 const std::vector<double>& a, const std::string& key) {
    const double mb = Median(b), ma = Median(a);
    // As storebench compare judges two groups: the ratio of the means, its interval from
    // resampling the trials, and no effect claimed when the interval holds 1.
    const experiment::BeforeAfterRatio ratio = experiment::CompareBeforeAfter(b, a);
    char interval[96] = "";
    if (ratio.has_interval) {
      std::snprintf(interval, sizeof interval, " [%.3f, %.3f]", ratio.low, ratio.high);
    }
    std::printf("  %-34s %12.1f %12.1f  %.3f%s: %s\n", name.c_str(), mb, ma, ratio.ratio, interval,
                ratio.verdict.c_str());
    r.figures.emplace_back("before." + key, mb);
    r.figures.emplace_back("after." + key, ma);
    r.figures.emplace_back("ratio." + key, ratio.ratio);
    if (ratio.has_interval) {
      r.figures.emplace_back("ratio_low." + key, ratio.low);
      r.figures.emplace_back("ratio_high." + key, ratio.high);
    }
    r.choices["fragtest.verdict." + key] = ratio.verdict;
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
      (final_method.empty() ? std::string("no method lowered the count") : "by " + final_method) +
      "; attempts: " + attempts;
  r.choices["fragtest.order"] =
      "ABBA: round 1 before then after, round 2 after then before, ...; the file fragmented or "
      "defragmented again between trials as the order needs";
  r.choices["fragtest.page_cache"] = std::string("the file's pages dropped before each trial (") +
                                     (direct ? "O_DIRECT trials" : "buffered trials") +
                                     "); last: " + cache_words;
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
  const std::string json_path = ResultPath(o.GetString("json"), "-fragtest.json");
  if (Status s = report::WriteResultFile(json_path, r); !s.ok()) return Fail(s);
  Progress("result written to " + json_path);
  return kExitOk;
}

}  // namespace sb::cli
