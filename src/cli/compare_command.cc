// storebench compare: result files grouped by label (recorded with --label at run time) or by
// NAME=glob arguments, compared with report::Compare (docs/compare.md).
#include <glob.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "base/output_file.h"
#include "base/units.h"
#include "cli/app.h"
#include "cli/command_options.h"
#include "report/files/comparison_json.h"
#include "report/files/result_file.h"
#include "report/files/search_comparison.h"
#include "session/output_paths.h"
#include "stats/comparison.h"

namespace sb::cli {

namespace {

Status WriteText(const std::string& path, const std::string& text, const char* what) {
  // Whole or not at all (base/output_file.h): a full disk leaves no file cut short.
  return WriteOutputFile(path, text, std::string("the ") + what);
}

Result<std::vector<std::string>> Glob(const std::string& pattern) {
  glob_t g{};
  const int rc = ::glob(pattern.c_str(), 0, nullptr, &g);
  std::vector<std::string> out;
  if (rc == 0) {
    for (size_t i = 0; i < g.gl_pathc; ++i) out.emplace_back(g.gl_pathv[i]);
  }
  ::globfree(&g);
  if (rc != 0 && rc != GLOB_NOMATCH) {
    return Status::InvalidArgument("cannot expand '" + pattern + "'");
  }
  return out;
}

Status AddRun(const std::string& file, report::CompareGroup* g) {
  auto f = report::ReadAnyResultFile(file);
  if (!f.ok()) return f.status();
  if (f->kind != report::FileKind::kRun) {
    return Status::InvalidArgument("'" + file +
                                   "' is not a run's result (compare reads runs, or two "
                                   "consolidation search files)");
  }
  report::CompareInput in;
  in.file = file;
  in.run = std::move(f->run);
  in.has_power = f->power.present;
  in.power_mean_w = f->power.mean_w;
  g->runs.push_back(std::move(in));
  return Status::Ok();
}

// "NAME=path" (a name before a '=' that comes before any '/'), else the path as its own name.
std::pair<std::string, std::string> NamedPath(const std::string& arg) {
  const size_t eq = arg.find('=');
  if (eq != std::string::npos && eq > 0 && arg.find('/') > eq) {
    return {arg.substr(0, eq), arg.substr(eq + 1)};
  }
  return {std::filesystem::path(arg).stem().string(), arg};
}

// Whether the first argument names a consolidation search file (then compare compares two).
bool FirstIsSearch(const std::vector<std::string>& positional) {
  auto f = report::ReadAnyResultFile(NamedPath(positional[0]).second);
  return f.ok() && f->kind == report::FileKind::kSearch;
}

// Two searches side by side (report/files/search_comparison.h).
int CompareSearchFiles(const CompareArgs& a) {
  if (a.inputs.size() != 2) {
    return Fail(Status::InvalidArgument(
        "compare reads two consolidation search files (A.json B.json), not " +
        std::to_string(a.inputs.size())));
  }
  report::Search searches[2];
  std::pair<std::string, std::string> named[2];
  for (int k = 0; k < 2; ++k) {
    named[k] = NamedPath(a.inputs[k]);
    auto f = report::ReadAnyResultFile(named[k].second);
    if (!f.ok()) return Fail(f.status());
    if (f->kind != report::FileKind::kSearch) {
      return Fail(Status::InvalidArgument("'" + named[k].second +
                                          "' is not a consolidation search file (compare reads "
                                          "two of them, or runs)"));
    }
    searches[k] = std::move(f->search);
  }
  if (named[0].first == named[1].first) {
    named[0].first = "A";
    named[1].first = "B";
  }
  std::vector<PathUse> read = {{"the input", named[0].second}, {"the input", named[1].second}};
  if (Status s = CheckOutputPaths(read, {{"--json", a.json}, {"--csv", a.csv}}); !s.ok()) {
    return Fail(s);
  }
  const report::SearchComparison c = report::CompareSearches(
      searches[0], named[0].first, named[0].second, searches[1], named[1].first, named[1].second);
  std::printf("%s", report::FormatSearchComparison(c).c_str());
  if (!a.json.empty()) {
    if (Status s = WriteText(a.json, report::SearchComparisonToJson(c), "comparison"); !s.ok()) {
      return Fail(s);
    }
    std::fprintf(stderr, "comparison written to %s\n", a.json.c_str());
  }
  if (!a.csv.empty()) {
    if (Status s = WriteText(a.csv, report::SearchComparisonCsv(c), "CSV"); !s.ok()) {
      return Fail(s);
    }
  }
  return kExitOk;
}

}  // namespace

Result<report::Comparison> CompareFiles(const std::vector<std::string>& positional,
                                        const report::CompareOptions& options) {
  std::vector<report::CompareGroup> groups;
  auto group_named = [&](const std::string& label) -> report::CompareGroup* {
    for (auto& g : groups) {
      if (g.label == label) return &g;
    }
    groups.push_back({label, {}});
    return &groups.back();
  };
  for (const std::string& arg : positional) {
    const size_t eq = arg.find('=');
    if (eq != std::string::npos && eq > 0 && arg.find('/') > eq) {
      const std::string label = arg.substr(0, eq);
      const std::string pattern = arg.substr(eq + 1);
      auto files = Glob(pattern);
      if (!files.ok()) return files.status();
      if (files->empty()) {
        std::string what = "group '" + label;
        what += "': '" + pattern + "' matches no file (an empty group)";
        return Status::InvalidArgument(what);
      }
      report::CompareGroup* g = group_named(label);
      for (const std::string& f : *files) SB_RETURN_IF_ERROR(AddRun(f, g));
      continue;
    }
    report::CompareGroup one;
    SB_RETURN_IF_ERROR(AddRun(arg, &one));
    if (one.runs[0].run.label.empty()) {
      return Status::InvalidArgument("'" + arg +
                                     "' has no label: run it with --label, or name the "
                                     "groups on the command line (A='a/*.json' B='b/*.json')");
    }
    group_named(one.runs[0].run.label)->runs.push_back(std::move(one.runs[0]));
  }
  return report::Compare(groups, options);
}

int RunCompareCommand(const std::vector<std::string>& args) {
  if (AsksForHelp(args)) {
    std::fputs(CompareHelp().c_str(), stdout);
    return kExitOk;
  }
  auto parsed = ParseCompareArgs(args);
  if (!parsed.ok()) return Fail(parsed.status());
  const report::CompareOptions& options = parsed->options;
  const std::string& json_path = parsed->json;
  const std::string& csv_path = parsed->csv;
  const std::vector<std::string>& positional = parsed->inputs;
  if (positional.empty()) {
    std::fputs(CompareHelp().c_str(), stderr);
    return kExitBadInput;
  }
  if (FirstIsSearch(positional)) return CompareSearchFiles(*parsed);
  auto c = CompareFiles(positional, options);
  if (!c.ok()) return Fail(c.status());
  // --json and --csv must not replace a compared result (they did), and must be writable.
  std::vector<PathUse> read;
  for (const auto& group : c->files) {
    for (const std::string& f : group) read.push_back({"the input", f});
  }
  if (Status s = CheckOutputPaths(read, {{"--json", json_path}, {"--csv", csv_path}}); !s.ok()) {
    return Fail(s);
  }
  std::printf("%s", report::FormatComparison(*c, parsed->verbose).c_str());
  if (!json_path.empty()) {
    if (Status s = WriteText(json_path, report::ComparisonToJson(*c), "comparison"); !s.ok()) {
      return Fail(s);
    }
    std::fprintf(stderr, "comparison written to %s\n", json_path.c_str());
  }
  if (!csv_path.empty()) {
    if (Status s = WriteText(csv_path, report::ComparisonCsv(*c), "CSV"); !s.ok()) return Fail(s);
  }
  return kExitOk;
}

}  // namespace sb::cli
