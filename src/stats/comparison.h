// `storebench compare`: groups of runs (by label), each metric's median and spread per group, and
// each group against the first with the ratio of means and a hierarchical bootstrap interval
// (stats/bootstrap.h). Plain data, its JSON document ("kind": "storebench comparison"), the
// console table and the CSV. docs/compare.md describes the method and the fields.
#ifndef STOREBENCH_STATS_COMPARISON_H_
#define STOREBENCH_STATS_COMPARISON_H_

#include <cstdint>
#include <string>
#include <vector>

#include "metrics/run_result.h"
#include "stats/bootstrap.h"
#include "storebench/status.h"

namespace sb::report {

inline constexpr char kComparisonKind[] = "storebench comparison";
inline constexpr int kComparisonSchemaVersion = 1;

// One run handed to the comparison: its result and, when it measured power, its mean watts over
// the measured window (NaN otherwise).
struct CompareInput {
  std::string file;
  metrics::RunResult run;
  double power_mean_w = 0;
  bool has_power = false;
};

struct CompareGroup {
  std::string label;
  std::vector<CompareInput> runs;
};

struct CompareOptions {
  int resamples = 10000;
  uint64_t seed = 1;
  double confidence = 0.95;
  // Compare although workload, size or windows differ (each difference is still recorded).
  bool force = false;
  // "first": every group as a percentage of the first; "weakest": of the weakest group per
  // metric (the lowest, or the highest for lower-is-better metrics).
  std::string normalize = "first";
};

// One metric in one group: over its runs.
struct GroupFigures {
  std::string label;
  int runs = 0;
  std::vector<double> values;  // each run's figure, in file order (NaN: the run lacks it)
  double median = 0, min = 0, max = 0, mean = 0, stddev = 0;
  double normalized_pct = 0;  // mean as % of the reference group's mean
};

// One group against the reference (the first group).
struct PairFigures {
  std::string a, b;  // labels
  double ratio = 0;  // mean(b) / mean(a)
  bool has_interval = false;
  double low = 0, high = 0;
  std::string no_interval;  // why there is no interval, when has_interval is false
  // "higher", "lower" (the interval excludes 1.0) or "no difference shown".
  std::string verdict;
  bool better = false;  // the verdict is an improvement for this metric's direction
};

struct MetricComparison {
  std::string name;   // "opm", "p99_ms.purchase", "opm_per_watt", "wall_sec"
  std::string words;  // what it is, one phrase
  bool lower_is_better = false;
  std::vector<GroupFigures> groups;
  std::vector<PairFigures> pairs;
  std::string reference;  // the normalization's reference group
};

struct Comparison {
  std::vector<std::string> labels;
  std::vector<std::vector<std::string>> files;  // per group
  std::string workload;
  std::vector<std::string> mismatches;  // fields that differ (only with force)
  CompareOptions options;
  std::vector<MetricComparison> metrics;
};

// Builds the comparison. Fails with InvalidArgument when fewer than two groups are given, a group
// is empty, or (without force) two results differ in workload, size (config db_size, tables,
// table_size, max_size), run time, warm-up, windows or storage specifications: the message names
// the field, both values and both files.
Result<Comparison> Compare(const std::vector<CompareGroup>& groups, const CompareOptions& options);

// Whether lower values of the metric named `name` are better (latencies, times, watts).
bool LowerIsBetter(const std::string& name);

// Whether a metric is in the console's summary: the headline metrics, power and the figures per
// watt, a command's wall time, each storage specification's IOPS and MiB/s, and the 99th
// percentile of the first operation type (the unit); the rest (every percentile of every type)
// is printed with --verbose.
bool InSummary(const Comparison& c, const MetricComparison& m);

// The console text. Summary (the default; one screen): per summary metric, each group's median
// and each pair's ratio with its interval and verdict, then how many metrics --verbose adds.
// Verbose: per metric, each group's median, min–max and normalized %, then each pair's ratio.
std::string FormatComparison(const Comparison& c, bool verbose = false);
// CSV: metric,group,runs,median,min,max,mean,stddev,normalized_pct,ratio_to_first,ci_low,ci_high,
// verdict (one row per metric and group; the first group's ratio is 1).
std::string ComparisonCsv(const Comparison& c);
// Its JSON document: report/files/comparison_json.h.

}  // namespace sb::report

#endif  // STOREBENCH_STATS_COMPARISON_H_
