// The plan of io run: its tests, settings and targets (io_run_plan.h).
#include "session/io_run_plan.h"

#include <algorithm>
#include <thread>
#include <utility>

#include "base/clock.h"
#include "base/input_file.h"
#include "base/limits.h"
#include "base/units.h"
#include "session/io_targets.h"
#include "workload/fs/target_extents.h"
#include "workload/storage/test_file.h"

namespace sb::session {
namespace {

// Reads and checks an Iometer configuration file; every error names the file and line.
Result<storage::IcfImport> ReadIcf(const std::string& path, bool direct) {
  // Non-blocking and only a regular file (a FIFO would block), at most the ICF limit.
  auto text = ReadInputFile(path, "the ICF file", limits::kMaxIcfBytes);
  if (!text.ok()) return text.status();
  auto icf = storage::ParseIcf(*text, path);
  if (!icf.ok()) return icf.status();
  SB_RETURN_IF_ERROR(storage::ValidateIcfSpecs(*icf, direct));
  return icf;
}

// The run settings an ICF gives, in the form of a preset (absent ones keep storebench's defaults).
storage::Preset IcfPreset(const storage::IcfImport& icf) {
  storage::Preset p;
  p.name = "icf";
  p.specs = icf.specs;
  if (icf.outstanding) p.outstanding = icf.outstanding->value;
  if (icf.workers) {
    p.workers = icf.workers_number_of_cpus
                    ? static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))
                    : icf.workers->value;
  }
  if (icf.max_size_sectors) p.max_size_sectors = icf.max_size_sectors->value;
  if (icf.ramp_nanos) p.ramp_nanos = icf.ramp_nanos->value;
  if (icf.run_nanos) p.run_nanos = icf.run_nanos->value;
  return p;
}

// What came from the ICF and what the command line overrode, for the console and the result.
std::string IcfNote(const storage::IcfImport& icf, const config::OptionSet& o) {
  std::string note = icf.file + " (Iometer " + icf.version + "): specifications ";
  for (size_t i = 0; i < icf.specs.size(); ++i) {
    note += (i ? ", '" : "'") + icf.specs[i].name + "'";
  }
  note += " (" + icf.selection + ")";
  auto add = [&](const std::string& what, int line, const std::string& option) {
    note += "; " + what + " (line " + std::to_string(line);
    if (o.IsSet(option)) note += ", overridden by --" + option;
    note += ")";
  };
  if (icf.run_nanos) {
    add("run time " + FormatDuration(icf.run_nanos->value), icf.run_nanos->line, "run_time");
  }
  if (icf.ramp_nanos) {
    add("ramp " + FormatDuration(icf.ramp_nanos->value), icf.ramp_nanos->line, "ramp_time");
  }
  if (icf.workers) {
    add(icf.workers_number_of_cpus ? std::string("workers = NUMBER_OF_CPUS")
                                   : std::to_string(icf.workers->value) + " disk worker(s)",
        icf.workers->line, "workers");
  }
  if (icf.outstanding) {
    add(std::to_string(icf.outstanding->value) + " outstanding I/Os per target",
        icf.outstanding->line, "outstanding");
  }
  if (icf.fixed_seed) {
    add("fixed seed " + std::to_string(icf.fixed_seed->value) + " (the run seed)",
        icf.fixed_seed->line, "seed");
  }
  if (icf.max_size_sectors) {
    add("maximum disk size " + std::to_string(icf.max_size_sectors->value) + " sectors",
        icf.max_size_sectors->line, "max_size");
  }
  if (icf.start_sector) {
    add("starting sector " + std::to_string(icf.start_sector->value), icf.start_sector->line,
        "start_sector");
  }
  if (icf.pattern) {
    add(std::string("data pattern ") + storage::DataPatternName(icf.pattern->value),
        icf.pattern->line, "pattern");
  }
  if (!icf.targets.empty()) {
    note += "; its targets (";
    for (size_t i = 0; i < icf.targets.size(); ++i) note += (i ? ", " : "") + icf.targets[i];
    note += ") are not used: --target names the targets";
  }
  return note;
}

}  // namespace

Result<IoRunPlan> PlanIoRun(const config::OptionSet& o) {
  IoRunPlan plan;
  auto targets = TargetPaths(o);
  if (!targets.ok()) return targets.status();
  plan.targets = std::move(targets).value();
  const storage::AlignMode align =
      o.GetString("align") == "size" ? storage::AlignMode::kSize : storage::AlignMode::kSector;
  const std::string& preset_name = o.GetString("preset");
  const std::string& spec_text = o.GetString("spec");
  const std::string& icf_path = o.GetString("icf");
  if (!preset_name.empty() + !spec_text.empty() + !icf_path.empty() != 1) {
    return Status::InvalidArgument("give exactly one of --preset, --spec and --icf");
  }
  // --align chooses between the two alignments of the built-in presets; spec lines and ICF
  // lines carry their own, so it would change nothing there.
  if (o.IsSet("align") && preset_name.empty()) {
    return Status::InvalidArgument(
        "--align applies to --preset only; with --spec write align=size (or align=<bytes>) in "
        "the specification, and an ICF's lines give their own alignment");
  }
  const bool direct = o.GetBool("direct");
  if (!preset_name.empty()) {
    auto p = storage::FindPreset(preset_name, align);
    if (!p.ok()) return p.status();
    plan.preset = *p;
  } else if (!spec_text.empty()) {
    auto s = storage::ParseSpecText(spec_text);
    if (!s.ok()) return s.status();
    plan.preset.name = "spec";
    plan.preset.specs = {*s};
    plan.preset.run_nanos = 30LL * kNanosPerSecond;
  } else {
    auto i = ReadIcf(icf_path, direct);
    if (!i.ok()) return i.status();
    plan.icf = std::move(i).value();
    plan.preset = IcfPreset(*plan.icf);
    plan.icf_note = IcfNote(*plan.icf, o);
  }
  for (const auto& s : plan.preset.specs) {
    SB_RETURN_IF_ERROR(storage::ValidateSpec(s, direct));
  }
  return plan;
}

Result<driver::IoRunConfig> IoRunSettings(const config::OptionSet& o, const IoRunPlan& plan) {
  const storage::Preset& preset = plan.preset;
  const std::optional<storage::IcfImport>& icf = plan.icf;
  driver::IoRunConfig c;
  c.engine = o.GetString("engine");
  c.workers = static_cast<int>(o.IsSet("workers") ? o.GetInt("workers") : preset.workers);
  c.outstanding =
      static_cast<int>(o.IsSet("outstanding") ? o.GetInt("outstanding") : preset.outstanding);
  c.run_nanos = o.IsSet("run_time") || preset.run_nanos == 0 ? o.GetDurationNanos("run_time")
                                                             : preset.run_nanos;
  c.ramp_nanos = o.IsSet("ramp_time") ? o.GetDurationNanos("ramp_time") : preset.ramp_nanos;
  if (c.run_nanos <= 0) return Status::InvalidArgument("run_time must be positive");
  if (c.workers < 1 || c.outstanding < 1 || c.outstanding > 65536) {
    return Status::InvalidArgument("workers must be >= 1 and outstanding in 1..65536");
  }
  if (o.GetInt("submit_batch") < 0 || o.GetInt("submit_batch") > 65536) {
    return Status::InvalidArgument("submit_batch must be in 0..65536 (0 = all free slots)");
  }
  c.submit_batch = static_cast<int>(o.GetInt("submit_batch"));
  c.rate_iops = o.GetDouble("rate");
  c.poisson = o.GetString("arrival") == "poisson";
  c.max_lag_nanos = o.GetDurationNanos("max_lag");
  if (c.rate_iops > 0) {
    for (const auto& spec : preset.specs) {
      for (const auto& line : spec.lines) {
        if (line.delay_ms > 0 || line.burst > 1) {
          return Status::InvalidArgument(
              "--rate sets the pace of every I/O, and '" + spec.name +
              "' has a burst delay or burst length that sets one of its own; use one of them");
        }
      }
    }
  }
  c.direct = o.GetBool("direct");
  c.seed = static_cast<uint64_t>(o.GetInt("seed"));
  if (icf && icf->fixed_seed && !o.IsSet("seed")) c.seed = icf->fixed_seed->value;
  c.pattern = storage::ParseDataPattern(o.GetString("pattern")).value();
  if (icf && icf->pattern && !o.IsSet("pattern")) c.pattern = icf->pattern->value;
  return c;
}

Result<std::vector<std::unique_ptr<FileLock>>> OpenRunTargets(const config::OptionSet& o,
                                                              const IoRunPlan& plan, bool lock,
                                                              driver::IoRunConfig* c,
                                                              std::vector<std::string>* warnings) {
  const std::optional<storage::IcfImport>& icf = plan.icf;
  // Every worker runs on every target, each with the same start sector and maximum size (Iometer
  // applies a worker's disk settings to each of its targets); a smaller target is used whole.
  const uint64_t start_sector = icf && icf->start_sector && !o.IsSet("start_sector")
                                    ? icf->start_sector->value
                                    : static_cast<uint64_t>(o.GetInt("start_sector"));
  const uint64_t start = start_sector * storage::kSectorBytes;
  uint64_t wanted = plan.preset.max_size_sectors * storage::kSectorBytes;
  if (!o.GetString("max_size").empty()) {
    auto r = ParseMaxSize(o.GetString("max_size"));
    if (!r.ok()) return r.status();
    wanted = *r;
  }
  bool writes = false;
  for (const auto& s : plan.preset.specs) writes = writes || s.HasWrites();
  // Locked before they are inspected: a target being prepared looks unfinished until it is.
  std::vector<std::unique_ptr<FileLock>> locks;
  for (const std::string& path : plan.targets) {
    if (!lock) break;
    auto l = LockTarget(path, writes && c->engine != "null", /*create=*/false);
    if (!l.ok()) return l.status();
    locks.push_back(std::move(l).value());
  }
  std::vector<storage::TargetInfo> infos;
  for (const std::string& path : plan.targets) {
    auto info = storage::InspectTarget(path);
    if (!info.ok()) return info.status();
    std::string warning;
    auto range = TestRange(*info, start, wanted, &warning);
    if (!warning.empty()) warnings->push_back(std::move(warning));
    if (!range.ok()) return range.status();
    const fsload::TargetExtents ext = fsload::MeasureTargetExtents(path);
    range->extents = ext.extents;
    range->extents_note = ext.note;
    range->filesystem = ext.filesystem;
    c->targets.push_back(*range);
    infos.push_back(*info);
  }

  if (writes && o.GetBool("readonly")) {
    return Status::InvalidArgument("--readonly: the specifications include writes");
  }
  if (writes && c->engine != "null") {
    for (const auto& info : infos) {
      SB_RETURN_IF_ERROR(storage::CheckWritable(info, o.GetBool("force_destroy")));
    }
  }
  c->allow_write = writes;
  return locks;
}

}  // namespace sb::session
