// storebench compare: result files grouped by label (recorded with --label at run time) or by
// NAME=glob arguments, compared with report::Compare (docs/compare.md).
#include <glob.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "base/units.h"
#include "cli/app.h"
#include "cli/output_paths.h"
#include "report/comparison.h"
#include "report/result_file.h"

namespace sb::cli {

namespace {

constexpr const char* kCompareUsage =
    "usage: storebench compare RESULT.json... [options]       (grouped by each run's --label)\n"
    "       storebench compare A='a/*.json' B='b/*.json' [options]\n"
    "\n"
    "  --json FILE        write the comparison document (storebench report reads it)\n"
    "  --csv FILE         write one row per metric and group\n"
    "  --normalize first|weakest   percentages of the first group (default) or of the weakest\n"
    "  --resamples N      bootstrap resamples (default 10000)\n"
    "  --seed N           bootstrap seed (default 1)\n"
    "  --force            compare results whose workload, size, run time or windows differ\n";

Status WriteText(const std::string& path, const std::string& text, const char* what) {
  std::ofstream out(path, std::ios::trunc | std::ios::binary);
  out << text;
  out.flush();
  if (!out) return Status::IoError(std::string("cannot write the ") + what + " '" + path + "'");
  return Status::Ok();
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
    return Status::InvalidArgument("'" + file + "' is not a run's result (compare reads runs)");
  }
  report::CompareInput in;
  in.file = file;
  in.run = std::move(f->run);
  in.has_power = f->power.present;
  in.power_mean_w = f->power.mean_w;
  g->runs.push_back(std::move(in));
  return Status::Ok();
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
  report::CompareOptions options;
  std::string json_path, csv_path;
  std::vector<std::string> positional;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      std::fputs(kCompareUsage, stdout);
      return kExitOk;
    }
    auto value = [&](const char* name, std::string* out) {
      const std::string flag = std::string("--") + name;
      if (a == flag && i + 1 < args.size()) {
        *out = args[++i];
        return true;
      }
      if (a.rfind(flag + "=", 0) == 0) {
        *out = a.substr(flag.size() + 1);
        return true;
      }
      return false;
    };
    std::string text;
    if (value("json", &json_path) || value("csv", &csv_path)) continue;
    if (value("normalize", &options.normalize)) {
      if (options.normalize != "first" && options.normalize != "weakest") {
        return Fail(Status::InvalidArgument("--normalize must be first or weakest"));
      }
      continue;
    }
    if (value("resamples", &text)) {
      auto n = ParseInt(text, "resamples");
      if (!n.ok() || *n < 100 || *n > 10000000) {
        return Fail(
            Status::InvalidArgument("--resamples must be a whole number from 100 to "
                                    "10000000"));
      }
      options.resamples = static_cast<int>(*n);
      continue;
    }
    if (value("seed", &text)) {
      auto n = ParseInt(text, "seed");
      if (!n.ok() || *n < 0) {
        return Fail(Status::InvalidArgument("--seed must be a non-negative whole number"));
      }
      options.seed = static_cast<uint64_t>(*n);
      continue;
    }
    if (a == "--force" || a == "--force=Y") {
      options.force = true;
      continue;
    }
    if (a.rfind("--", 0) == 0) {
      return Fail(Status::InvalidArgument("compare: unknown option '" + a + "'"));
    }
    positional.push_back(a);
  }
  if (positional.empty()) {
    std::fputs(kCompareUsage, stderr);
    return kExitBadInput;
  }
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
  std::printf("%s", report::FormatComparison(*c).c_str());
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
