// io fragtest's result from its outcome: the before/after table's lines (per figure the medians
// and, as storebench compare judges two groups, the after/before ratio of the means with its
// bootstrap interval, experiment/before_after.h) and the result document's figures and choices.
#ifndef STOREBENCH_SESSION_FRAGTEST_RESULT_H_
#define STOREBENCH_SESSION_FRAGTEST_RESULT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "backend/fs/defrag.h"
#include "backend/fs/fragment.h"
#include "experiment/before_after.h"
#include "metrics/run_result.h"
#include "workload/fs/fragtest.h"
#include "workload/storage/access_spec.h"

namespace sb::session {

// What io fragtest ran with, beside its outcome.
struct FragtestSettings {
  std::string path;  // the target: the environment records its file system
  std::string engine;
  int workers = 1, outstanding = 1;  // per trial
  int64_t run_nanos = 0, ramp_nanos = 0;
  bool direct = true;
  int rounds = 0;
  bool seq_read = false;
  int64_t extents = 0;  // --extents: the count fragmenting aims at
  fs::FragmentMethod fragment_method = fs::FragmentMethod::kAuto;
  uint64_t data_bytes = 0;  // the test range: the test file's data area
};

// One line of the before/after table: a figure's medians and its ratio.
struct FragtestLine {
  std::string name;  // "Random-8k-70%Read IOPS"
  std::string key;   // the figures' and verdict's suffix: "Random-8k-70%Read.iops_median"
  double before = 0, after = 0;  // medians of the rounds
  experiment::BeforeAfterRatio ratio;
};

struct FragtestReport {
  // workload, figures, headline, loop model, choices and environment; the caller adds what only
  // the run knows (times, measured_sec, the trials' storage tests, config).
  metrics::RunResult result;
  std::vector<FragtestLine> lines;  // each specification's IOPS and MiB/s, then the sequential read
};

FragtestReport BuildFragtestReport(const fsload::FragtestOutcome& outcome,
                                   const std::vector<storage::AccessSpec>& specs,
                                   const FragtestSettings& settings);

// The defragmentation's attempts in one line: "method: outcome (A -> B extents, S s); ...".
std::string DescribeDefragAttempts(const fs::DefragResult& defrag);

}  // namespace sb::session

#endif  // STOREBENCH_SESSION_FRAGTEST_RESULT_H_
