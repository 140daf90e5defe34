// storebench ab: two storebench command lines run alternately, A B A B ..., each run labelled and
// written to its own result file, then compared (docs/compare.md). Interleaving keeps drift on
// the host (caches, thermal state, other tenants) from looking like a difference between A and B.
#include <unistd.h>
#include <wordexp.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/output_file.h"
#include "base/units.h"
#include "cli/app.h"
#include "cli/command_options.h"
#include "report/files/comparison_json.h"
#include "session/output_paths.h"
#include "stats/comparison.h"

namespace sb::cli {

namespace {

// The words of a command line, as a shell would split them (quotes, escapes), without running
// command substitutions. The first word "storebench" means this program.
Result<std::vector<std::string>> SplitCommand(const std::string& line, const char* which) {
  wordexp_t we{};
  const int rc = ::wordexp(line.c_str(), &we, WRDE_NOCMD);
  if (rc != 0) {
    if (rc != WRDE_NOSPACE) ::wordfree(&we);
    return Status::InvalidArgument(std::string("--") + which + ": cannot split '" + line +
                                   "' into words (unbalanced quotes, or $(...), which is not run)");
  }
  std::vector<std::string> words(we.we_wordv, we.we_wordv + we.we_wordc);
  ::wordfree(&we);
  if (words.empty()) return Status::InvalidArgument(std::string("--") + which + " is empty");
  const std::string& first = words[0];
  if (first != "storebench" &&
      (first.size() < 11 || first.compare(first.size() - 11, 11, "/storebench") != 0)) {
    return Status::InvalidArgument(std::string("--") + which +
                                   " must be a storebench command line (it starts with '" + first +
                                   "')");
  }
  char self[4096];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (first == "storebench" && n > 0) words[0].assign(self, static_cast<size_t>(n));
  if (words.size() < 2) {
    return Status::InvalidArgument(std::string("--") + which + " names no storebench command");
  }
  const std::string& cmd = words[1];
  if (cmd == "compare" || cmd == "ab" || cmd == "report" || cmd == "consolidate") {
    return Status::InvalidArgument(std::string("--") + which + ": 'storebench " + cmd +
                                   "' is not a single run");
  }
  return words;
}

// `words` with --label and --json inserted after the command's verb (before an exec's "--").
std::vector<std::string> WithOutputs(std::vector<std::string> words, const std::string& label,
                                     const std::string& json) {
  size_t at = 2;  // storebench run|exec ...
  if (words[1] == "oltp" || words[1] == "io") at = std::min<size_t>(3, words.size());
  words.insert(words.begin() + static_cast<std::ptrdiff_t>(at),
               {"--label=" + label, "--json=" + json});
  return words;
}

}  // namespace

int RunAbCommand(const std::vector<std::string>& args) {
  if (AsksForHelp(args)) {
    std::fputs(AbHelp().c_str(), stdout);
    return kExitOk;
  }
  auto parsed = ParseAbArgs(args);
  if (!parsed.ok()) return Fail(parsed.status());
  const std::string &a_line = parsed->a, &b_line = parsed->b, &between = parsed->between,
                    &labels_text = parsed->labels;
  std::string dir = parsed->dir, json_path = parsed->json;
  const std::string& csv_path = parsed->csv;
  const int rounds = parsed->rounds;
  const report::CompareOptions& options = parsed->options;
  if (a_line.empty() || b_line.empty()) {
    std::fputs(AbHelp().c_str(), stderr);
    return kExitBadInput;
  }
  const size_t comma = labels_text.find(',');
  if (comma == std::string::npos || comma == 0 || comma + 1 == labels_text.size() ||
      labels_text.substr(0, comma) == labels_text.substr(comma + 1)) {
    return Fail(
        Status::InvalidArgument("--labels must be two different labels, e.g. ft-off,ft-on"));
  }
  const std::string labels[2] = {labels_text.substr(0, comma), labels_text.substr(comma + 1)};
  auto a_words = SplitCommand(a_line, "a");
  if (!a_words.ok()) return Fail(a_words.status());
  auto b_words = SplitCommand(b_line, "b");
  if (!b_words.ok()) return Fail(b_words.status());
  if (dir.empty()) dir = "results/ab-" + WallClockLocal(/*compact=*/true);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Fail(Status::InvalidArgument("cannot create '" + dir + "': " + ec.message()));
  if (json_path.empty()) json_path = dir + "/compare.json";
  // The comparison's outputs are checked before the first run, not after the last; the runs'
  // own result files are inputs they must not replace.
  {
    std::vector<PathUse> runs;
    for (int round = 1; round <= rounds; ++round) {
      for (const char* side : {"a", "b"}) {
        runs.push_back(
            {"a run's result", dir + "/" + side + "-round" + std::to_string(round) + ".json"});
      }
    }
    if (Status s = CheckOutputPaths(runs, {{"--json", json_path}, {"--csv", csv_path}}); !s.ok()) {
      return Fail(s);
    }
  }

  std::vector<std::string> files;
  bool first_run = true;
  SteadyClock clock;
  for (int round = 1; round <= rounds; ++round) {
    for (int side = 0; side < 2; ++side) {
      if (!between.empty() && !first_run) {
        ::setenv("STOREBENCH_AB_NEXT", labels[side].c_str(), 1);
        ::setenv("STOREBENCH_AB_ROUND", std::to_string(round).c_str(), 1);
        Progress("ab: between runs: " + between);
        auto o = ExecTimed({"/bin/sh", "-c", between}, clock);
        if (!o.ok()) return Fail(o.status());
        if (o->stop_signal != 0) {
          Progress("ab: interrupted; results so far are in " + dir);
          return kExitInterrupted;
        }
        if (o->exit_status != 0) {
          return Fail(Status::InvalidArgument("ab: --between exited with status " +
                                              std::to_string(o->exit_status) + "; stopping"));
        }
      }
      first_run = false;
      const std::string file =
          dir + "/" + (side == 0 ? "a" : "b") + "-round" + std::to_string(round) + ".json";
      std::filesystem::remove(file, ec);
      const auto words = WithOutputs(side == 0 ? *a_words : *b_words, labels[side], file);
      Progress("ab: round " + std::to_string(round) + " of " + std::to_string(rounds) + ", " +
               labels[side]);
      auto o = ExecTimed(words, clock);
      if (!o.ok()) return Fail(o.status());
      if (o->stop_signal != 0 || o->signal != 0 || o->exit_status == kExitInterrupted) {
        Progress("ab: interrupted; results so far are in " + dir);
        return kExitInterrupted;
      }
      if (!std::filesystem::exists(file)) {
        return Fail(Status::InvalidArgument(
            "ab: " + labels[side] + " (round " + std::to_string(round) + ") exited with status " +
            std::to_string(o->exit_status) + " and wrote no result; stopping"));
      }
      if (o->exit_status != 0) {
        Progress("ab: " + labels[side] + " (round " + std::to_string(round) +
                 ") exited with status " + std::to_string(o->exit_status) +
                 "; its result is compared all the same");
      }
      files.push_back(file);
    }
  }
  auto c = CompareFiles(files, options);
  if (!c.ok()) return Fail(c.status());
  std::printf("%s", report::FormatComparison(*c, parsed->verbose).c_str());
  if (Status s = WriteOutputFile(json_path, report::ComparisonToJson(*c), "the comparison");
      !s.ok()) {
    return Fail(s);
  }
  std::fprintf(stderr, "comparison written to %s\n", json_path.c_str());
  if (!csv_path.empty()) {
    if (Status s = WriteOutputFile(csv_path, report::ComparisonCsv(*c), "--csv"); !s.ok()) {
      return Fail(s);
    }
  }
  return kExitOk;
}

}  // namespace sb::cli
