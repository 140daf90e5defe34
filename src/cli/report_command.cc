// storebench report: one self-contained HTML page from result files (docs/report.md).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/output_file.h"
#include "cli/app.h"
#include "cli/command_options.h"
#include "report/files/result_file.h"
#include "report/html/html_report.h"
#include "session/output_paths.h"

namespace sb::cli {

namespace {

// A search names its runs' files as it wrote them (relative to where it ran); when that path is
// gone, the file is looked for in the search's own "<stem>-runs" folder.
std::string FindRunFile(const std::string& search_path, const std::string& named) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(named, ec)) return named;
  const fs::path sp(search_path);
  const fs::path beside =
      sp.parent_path() / (sp.stem().string() + "-runs") / fs::path(named).filename();
  if (fs::exists(beside, ec)) return beside.string();
  return named;
}

}  // namespace

int RunReportCommand(const std::vector<std::string>& args) {
  if (AsksForHelp(args)) {
    std::fputs(ReportHelp().c_str(), stdout);
    return kExitOk;
  }
  auto parsed = ParseReportArgs(args);
  if (!parsed.ok()) return Fail(parsed.status());
  const std::string& output = parsed->output;
  const std::vector<std::string>& inputs = parsed->inputs;
  if (inputs.empty() || output.empty()) {
    std::fputs(ReportHelp().c_str(), stderr);
    return kExitBadInput;
  }
  // The page must not replace one of its inputs (a result named as -o was lost), and a path
  // that cannot be written is bad input found before anything is read.
  std::vector<PathUse> read;
  read.reserve(inputs.size());
  for (const std::string& path : inputs) read.push_back({"the input", path});
  if (Status s = CheckOutputPaths(read, {{"-o", output, /*creates_parents=*/false,
                                          /*replaces=*/true}});
      !s.ok()) {
    return Fail(s);
  }
  std::vector<report::ReportItem> items;
  for (const std::string& path : inputs) {
    auto f = report::ReadAnyResultFile(path);
    if (!f.ok()) return Fail(f.status());
    report::ReportItem item;
    item.file = std::move(f).value();
    if (item.file.kind == report::FileKind::kSearch) {
      // The median run at the peak (else at the highest count decided) is drawn; the verdicts
      // come from the search file. Reading every count's run would cost a second per few
      // runs of long series (bench/report_size.py) for figures the search already holds.
      const report::SearchCount* shown = nullptr;
      for (const report::SearchCount& c : item.file.search.counts) {
        if (c.median_run < 0) continue;
        if (c.count == item.file.search.peak ||
            (shown == nullptr ||
             (shown->count != item.file.search.peak && c.count > shown->count))) {
          shown = &c;
        }
      }
      for (const report::SearchCount& c : item.file.search.counts) {
        if (&c != shown) continue;
        const std::string run_path =
            FindRunFile(path, c.runs[static_cast<size_t>(c.median_run)].result_file);
        auto run = report::ReadAnyResultFile(run_path);
        if (!run.ok() || run->kind != report::FileKind::kRun) {
          item.notes.push_back(
              "The median run at " + std::to_string(c.count) + " instance(s) is not shown: " +
              (run.ok() ? "'" + run_path + "' is not a run's result" : run.status().message()));
          continue;
        }
        item.median_runs.emplace_back(c.count, std::move(run->run));
      }
    }
    items.push_back(std::move(item));
  }
  const std::string page = report::RenderHtmlReport(items, WallClockIsoUtc());
  // Whole or not at all, no temporary file left behind (base/output_file.h).
  if (Status s = WriteOutputFile(output, page, "the report"); !s.ok()) return Fail(s);
  std::fprintf(stderr, "report written to %s (%zu bytes)\n", output.c_str(), page.size());
  return kExitOk;
}

}  // namespace sb::cli
