// Any storebench output file read back for `storebench compare` and `storebench report`: a run's
// result document, a consolidation search file or a comparison. Each refusal is one sentence
// that names the file and what is wrong with it (not JSON, truncated, not storebench's, a newer
// schema_version), so the commands can exit 2 with it.
#ifndef STOREBENCH_REPORT_FILES_RESULT_FILE_H_
#define STOREBENCH_REPORT_FILES_RESULT_FILE_H_

#include <limits>
#include <string>
#include <vector>

#include "metrics/run_result.h"
#include "report/files/consolidation_search.h"
#include "stats/comparison.h"
#include "storebench/status.h"

namespace sb::report {

enum class FileKind { kRun, kSearch, kComparison };

// A run's power (--power), reduced to what compare and the report use; `present` is false when
// the run measured none.
struct PowerSummary {
  bool present = false;
  double mean_w = std::numeric_limits<double>::quiet_NaN();  // over the measured window
  std::string source;                             // the meters, as the result describes them
  std::vector<std::pair<double, double>> points;  // (t_sec, watts summed over the sources)
};

struct ResultFile {
  std::string path;
  FileKind kind = FileKind::kRun;
  metrics::RunResult run;  // kRun
  PowerSummary power;      // kRun
  Search search;           // kSearch
  Comparison comparison;   // kComparison
};

// Reads `path`. Fails with InvalidArgument ("'x.json' is truncated: ...", "... is not a
// storebench result file ...", "... has schema_version 3, newer than ...") and NotFound for a
// missing file; every message starts with the quoted path.
Result<ResultFile> ReadAnyResultFile(const std::string& path);
// The same for a file's text already read; `path` only names it in the messages (the fuzz
// target, tests/fuzz/result_file_fuzz.cc, reads its inputs through this).
Result<ResultFile> ReadResultText(const std::string& text, const std::string& path);

// What compare and the report use of a run's power (metrics::PowerResult, read with the result):
// `mean_w` is the avg_w of the window labelled "measured" (NaN without one), `source` the sources'
// descriptions (their specs where empty), `points` the per-second sum over the sources (NaN where
// one had no reading).
PowerSummary SummarizePower(const metrics::PowerResult& power);

}  // namespace sb::report

#endif  // STOREBENCH_REPORT_FILES_RESULT_FILE_H_
