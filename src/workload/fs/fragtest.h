// `io fragtest`'s schedule, the fragmentation guide's before/after test (docs/storage.md,
// "Fragmentation"): the test file is fragmented to a count; then trials run in the order the
// caller gives (ABBA across rounds: experiment/before_after.h), each running the access
// specifications (and a sequential read of the whole data area) once, on the file fragmented
// ("before") or defragmented ("after"); the file is defragmented or fragmented again between
// trials as the order needs, and its pages are dropped from the page cache before each trial, so
// that neither run order nor cached pages pass for a fragmentation effect.
//
// Trials alternate specifications within a trial (spec 1, spec 2, ...), so slow drifts of a
// shared machine spread over all of them; the median of the rounds is the figure.
// Nothing here reads a clock: the trials are run and timed by the driver
// (driver/fragtest_trials.h), as `io read` and `io copy` are.
#ifndef STOREBENCH_WORKLOAD_FS_FRAGTEST_H_
#define STOREBENCH_WORKLOAD_FS_FRAGTEST_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backend/fs/defrag.h"
#include "backend/fs/extent_map.h"
#include "backend/fs/fragment.h"
#include "base/clock.h"
#include "base/file_lock.h"
#include "storebench/status.h"

namespace sb::fsload {

// The figures of one phase ("before", "after" defragmenting).
struct FragtestPhase {
  std::string name;  // "before", "after"
  int64_t extents = 0;
  std::vector<std::vector<double>> iops;  // [spec][round]
  std::vector<std::vector<double>> mibs;  // [spec][round]
  std::vector<double> seq_mibs;           // [round]
};

// One trial's figures.
struct FragtestTrial {
  double iops = 0;
  double mib_per_sec = 0;
};

// The trials the schedule asks for, run and timed by the driver.
class FragtestTrials {
 public:
  virtual ~FragtestTrials() = default;
  // Specification `spec` in round `round` (from 0) of the phase named `phase`.
  virtual Result<FragtestTrial> RunSpec(const std::string& phase, int round, size_t spec) = 0;
  // One sequential pass over the data area; MiB/s.
  virtual Result<double> SequentialRead() = 0;
};

struct FragtestOptions {
  std::string path;     // a storebench test file, locked exclusively by the caller
  int64_t extents = 0;  // the count to fragment it to
  fs::FragmentMethod fragment_method = fs::FragmentMethod::kAuto;
  fs::DefragMethod defrag_method = fs::DefragMethod::kAuto;
  int rounds = 1;
  // The trials in run order, true for a trial "before" (fragmented); two per round. Empty: every
  // round before, then every round after.
  std::vector<bool> order;
  size_t specs = 0;  // access specifications per round
  bool seq_read = false;
  const std::atomic<bool>* stop = nullptr;  // checked before every trial
  const Clock* clock = nullptr;             // times the defragmenting attempts
  std::function<void(const std::string&)> progress;
  // Once the file is fragmented, before the count is checked (the command prints the outcome).
  std::function<void(const fs::FragmentResult&)> on_fragmented;
};

struct FragtestOutcome {
  fs::FragmentResult fragmented;  // the first fragmenting
  fs::DefragResult defrag;        // the last defragmenting, with every defragmenting's attempts
  FragtestPhase before, after;    // extents: as measured before the phase's last trial
  std::string page_cache;         // what the last drop of the file's pages did, in words
};

// Fragments, then runs the trials in `options.order`, defragmenting or fragmenting again between
// them as the order needs. When fragmenting or defragmenting replaced the file, `*lock` becomes
// the lock on the new one.
Result<FragtestOutcome> RunFragtest(const FragtestOptions& options,
                                    const fs::FileSystemInfo& fsinfo, FragtestTrials& trials,
                                    std::unique_ptr<FileLock>* lock);

// The median of `v` (0 when empty): a phase's figure.
double Median(std::vector<double> v);

}  // namespace sb::fsload

#endif  // STOREBENCH_WORKLOAD_FS_FRAGTEST_H_
