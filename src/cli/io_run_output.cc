// The outputs of io run (io_run_output.h).
#include "cli/io_run_output.h"

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "base/output_file.h"
#include "base/strings.h"
#include "base/units.h"
#include "cli/app.h"
#include "cli/power_cli.h"
#include "cli/result_document.h"
#include "metrics/headline.h"
#include "metrics/windows.h"
#include "power/summary.h"
#include "report/files/json_report.h"
#include "report/files/storage_report.h"
#include "workload/storage/test_file.h"

namespace sb::cli {
namespace {

// "2000", "0.5", "1e+08": a rate as given.
std::string RateText(double rate) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", rate);
  return buf;
}

// The options as they ran: a preset or an ICF file sets workers, outstanding I/Os, run time and
// ramp where the command line did not, and the recorded configuration said the options'
// defaults instead (outstanding 1 for the vmtn preset's 64-deep run).
std::string RanConfigJson(const config::OptionSet& o, const driver::IoRunConfig& c) {
  config::OptionSet ran = o;
  const std::pair<const char*, std::string> values[] = {
      {"workers", std::to_string(c.workers)},
      {"outstanding", std::to_string(c.outstanding)},
      {"run_time", FormatDuration(c.run_nanos)},
      {"ramp_time", FormatDuration(c.ramp_nanos)}};
  for (const auto& [name, value] : values) {
    if (ran.Has(name)) ran.Set(name, value, "the run").IgnoreError();
  }
  return ran.ToJson();
}

}  // namespace

std::string IoRunSettingsText(const config::OptionSet& o, const driver::IoRunConfig& c) {
  const bool direct = o.GetBool("direct");
  const std::string& preset_name = o.GetString("preset");
  std::string ranges;
  for (const auto& t : c.targets) {
    ranges += (ranges.empty() ? "" : "; ") + t.path + ": " + std::to_string(t.range_bytes) +
              " B (" + std::to_string(t.range_bytes / 512) + " sectors) at byte " +
              std::to_string(t.range_start);
  }
  return "engine " + c.engine + ", " + std::to_string(c.workers) + " worker(s) x " +
         std::to_string(c.targets.size()) + " target(s) x " + std::to_string(c.outstanding) +
         " outstanding I/Os, submit batch " +
         (c.submit_batch == 0 ? std::string("all free") : std::to_string(c.submit_batch)) + ", " +
         (direct ? "O_DIRECT" : "buffered") + ", align " +
         (preset_name.empty() ? std::string("as the spec lines say") : o.GetString("align")) +
         (c.rate_iops > 0 ? ", open loop at " + RateText(c.rate_iops) + " I/Os per second" : "") +
         ", test range " + ranges + ", ramp " + FormatDuration(c.ramp_nanos) + ", run " +
         FormatDuration(c.run_nanos) + ", pattern " + storage::DataPatternName(c.pattern) +
         ", seed " + std::to_string(c.seed);
}

void PrintIoRunHeader(const session::IoRunPlan& plan, const std::string& settings) {
  std::string target_text;
  for (const auto& t : plan.targets) target_text += (target_text.empty() ? "" : ", ") + t;
  std::printf("storebench io %s on %s\n  %s\n", plan.preset.name.c_str(),
              EscapeForTerminal(target_text).c_str(), EscapeForTerminal(settings).c_str());
  if (!plan.preset.description.empty()) {
    std::printf("  preset: %s\n", plan.preset.description.c_str());
  }
  if (plan.icf) std::printf("  icf: %s\n", EscapeForTerminal(plan.icf_note).c_str());
  std::fflush(stdout);
}

metrics::PowerResult StoragePower(const power::PowerRecording& rec,
                                  const std::vector<metrics::StorageTest>& tests,
                                  const std::vector<TestTimes>& times) {
  const int64_t origin = times.empty() ? 0 : times[0].t0;
  const auto sec = [origin](int64_t at) { return static_cast<double>(at - origin) / 1e9; };
  std::vector<power::PowerWindowSpec> windows;
  for (size_t i = 0; i < tests.size() && i < times.size(); ++i) {
    const metrics::StorageTest& t = tests[i];
    windows.push_back({t.name,
                       sec(times[i].reset_at),
                       sec(times[i].end_at),
                       {{"iops", t.Iops()}, {"mib_per_sec", t.MibPerSec()}}});
    const double shift = sec(times[i].t0);
    for (const metrics::WindowResult& w : t.windows) {
      windows.push_back({t.name + " " + w.label, shift + w.start_sec,
                         shift + std::min(w.end_sec, sec(times[i].end_at) - shift), w.headlines});
    }
  }
  return power::SummarizePower(rec, origin, windows, metrics::StorageHeadlines());
}

void PrintIoRunReport(const metrics::RunResult& r) {
  std::printf("\n%s\n", report::FormatStorageTable(r.storage).c_str());
  for (const auto& t : r.storage) std::printf("%s", report::FormatStorageDetails(t).c_str());
  std::printf("%s", FormatPowerSummary(r, metrics::StorageHeadlines()).c_str());
  std::fflush(stdout);

  for (const auto& t : r.storage) {
    for (const auto& w : t.windows) {
      double iops = 0, mib = 0;
      for (const auto& [name, value] : w.headlines) {
        if (name == "iops") iops = value;
        if (name == "mib_per_sec") mib = value;
      }
      std::printf(
          "  %s window %s: %.1f IOPS, %.2f MiB/s, per second min %.0f / median %.0f, "
          "p99 %.3f ms%s\n",
          EscapeForTerminal(t.name).c_str(), w.label.c_str(), iops, mib, w.per_sec_min,
          w.per_sec_median, w.latency.empty() ? 0.0 : w.latency[0].p99_ms,
          w.complete ? "" : " (the test did not cover the whole window)");
    }
    for (const auto& b : t.baselines) {
      std::printf("  %s baseline %s: %s (measured %g)\n", EscapeForTerminal(t.name).c_str(),
                  b.passed ? "PASS" : "FAIL", b.words.c_str(), b.measured);
    }
  }
  std::fflush(stdout);
}

void DescribeIoRun(const config::OptionSet& o, const session::IoRunPlan& plan,
                   const driver::IoRunConfig& c, const std::string& settings,
                   metrics::RunResult* r) {
  for (size_t b = 0; b < c.baselines.size(); ++b) {
    std::vector<metrics::BaselineResult> per;
    std::vector<std::string> names;
    for (const auto& t : r->storage) {
      if (b < t.baselines.size()) {
        per.push_back(t.baselines[b]);
        names.push_back(t.name);
      }
    }
    r->baselines.push_back(metrics::CombineBaselines(per, names, c.baselines[b], "specification"));
  }
  r->headline_name = "iops";
  r->headline_value = r->storage.empty() ? 0 : r->storage[0].Iops();
  if (!r->storage.empty()) {
    r->headlines = {{"iops", r->storage[0].Iops()}, {"mib_per_sec", r->storage[0].MibPerSec()}};
  }
  r->loop_model = "closed loop: " + std::to_string(c.workers) + " worker(s), each keeping " +
                  std::to_string(c.outstanding) + " I/Os outstanding on each of " +
                  std::to_string(c.targets.size()) +
                  " target(s) (Iometer model); response time from submission to reaping";
  if (c.rate_iops > 0) {
    char buf[400];
    std::snprintf(buf, sizeof buf,
                  "open loop: %g I/Os per second requested (%s arrivals) over %d worker(s), each "
                  "with up to %d I/Os outstanding on each of %zu target(s); response time from "
                  "each I/O's scheduled start to its reaping (waiting for a free slot included)",
                  c.rate_iops, c.poisson ? "Poisson" : "evenly spaced", c.workers, c.outstanding,
                  c.targets.size());
    r->loop_model = buf;
  }
  r->config_json = RanConfigJson(o, c);
  r->label = o.GetString("label");
  r->environment = CollectEnvironment(plan.targets[0]);
  r->choices["storage.settings"] = settings;
  r->choices["storage.cpu"] =
      "system-wide /proc/stat over the measured window; inside a VM this is the guest's view "
      "(hypervisor work is missing; steal shows time taken by the host)";
  r->choices["storage.headline"] = "IOPS of the first specification";
  if (plan.preset.name == "vmtn") {
    r->choices["storage.vmtn_unconfirmed"] =
        "outstanding I/Os, workers, test-range size and ramp are documented defaults, not "
        "confirmed values of the original OpenPerformanceTest.icf of the VMware Communities "
        "'Open unofficial storage performance thread' (docs/storage.md)";
  }
  if (plan.icf) r->choices["storage.icf"] = plan.icf_note;
  for (const auto& t : r->storage) {
    r->driver_cpu_sec += t.driver_cpu_sec;
  }
  uint64_t ios = 0;
  for (const auto& t : r->storage) ios += t.totals.ios();
  r->driver_cpu_sec_per_op = ios > 0 ? r->driver_cpu_sec / static_cast<double>(ios) : 0;
  r->driver_cpu_share = r->measured_sec > 0 ? r->driver_cpu_sec / r->measured_sec : 0;
}

int WriteIoRunFiles(const config::OptionSet& o, const session::IoRunPlan& plan,
                    const IoRunRecord& rec, int rc) {
  const metrics::RunResult& r = rec.result;
  if (auto written = WriteResultDocument(o.GetString("json"), "-io.json", r); !written.ok()) {
    return Fail(written.status());
  }
  auto write_text = [&](const std::string& path, const std::string& text) {
    if (Status s = WriteOutputFile(path, text, "the output"); !s.ok()) {
      rc = Fail(s);
      return;
    }
    Progress("written " + path);
  };
  const auto host = r.environment.find("host");
  const std::string host_name = host != r.environment.end() ? host->second : "localhost";
  const std::optional<storage::IcfImport>& icf = plan.icf;
  if (!o.GetString("csv").empty()) {
    write_text(o.GetString("csv"),
               report::IometerResultsCsv(r.storage,
                                         icf && !icf->description.empty() && !o.IsSet("description")
                                             ? icf->description
                                             : o.GetString("description"),
                                         host_name, rec.start_stamp, rec.stamps));
  }
  if (!o.GetString("series_csv").empty()) {
    std::vector<double> offsets;
    offsets.reserve(rec.times.size());
    for (const TestTimes& t : rec.times) {
      offsets.push_back(static_cast<double>(t.t0 - rec.times[0].t0) / 1e9);
    }
    write_text(o.GetString("series_csv"), report::StorageSeriesCsv(r.storage, &r.power, offsets));
  }
  return rc;
}

int IoRunExitCode(const metrics::RunResult& r, int rc) {
  for (const auto& t : r.storage) {
    if (t.totals.read_errors + t.totals.write_errors > 0 && rc == kExitOk) rc = kExitFailure;
  }
  for (const auto& b : r.baselines) {
    if (!b.passed && rc == kExitOk) {
      std::fprintf(stderr, "storebench: baseline failed: %s\n", b.words.c_str());
      rc = kExitFailure;
    }
  }
  return rc;
}

}  // namespace sb::cli
