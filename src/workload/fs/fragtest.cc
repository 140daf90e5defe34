#include "workload/fs/fragtest.h"

#include <algorithm>
#include <utility>

#include "workload/fs/page_cache.h"
#include "workload/fs/target_extents.h"

namespace sb::fsload {
namespace {

// One trial: every specification once, then the sequential read, each after the file's pages
// were dropped from the page cache (fragmenting, defragmenting and the last trial leave them).
Status RunTrial(const FragtestOptions& o, FragtestTrials& trials, int round, FragtestPhase* ph,
                std::string* page_cache) {
  ph->iops.resize(o.specs);
  ph->mibs.resize(o.specs);
  for (size_t i = 0; i < o.specs; ++i) {
    if (o.stop != nullptr && o.stop->load()) {
      return Status::Cancelled("io fragtest stopped by a signal");
    }
    *page_cache = DropCaches("file", {o.path});
    auto test = trials.RunSpec(ph->name, round, i);
    if (!test.ok()) return test.status();
    ph->iops[i].push_back(test->iops);
    ph->mibs[i].push_back(test->mib_per_sec);
  }
  if (o.seq_read) {
    *page_cache = DropCaches("file", {o.path});
    auto mibs = trials.SequentialRead();
    if (!mibs.ok()) return mibs.status();
    ph->seq_mibs.push_back(*mibs);
  }
  return Status::Ok();
}

Status Fragment(const FragtestOptions& o, std::unique_ptr<FileLock>* lock,
                fs::FragmentResult* out) {
  auto fragmented = FragmentTestFile(o.path, o.extents, o.fragment_method, o.stop, o.progress);
  if (!fragmented.ok()) return fragmented.status();
  *out = std::move(fragmented).value();
  if (o.on_fragmented) o.on_fragmented(*out);
  if (out->new_lock) *lock = std::move(out->new_lock);
  return FragmentShortfall(o.path, o.extents, *out);
}

Status Defragment(const FragtestOptions& o, const fs::FileSystemInfo& fsinfo,
                  std::unique_ptr<FileLock>* lock, fs::DefragResult* out) {
  fs::DefragOptions d;
  d.path = o.path;
  d.method = o.defrag_method;
  d.stop = o.stop;
  d.clock = o.clock;
  auto defrag = fs::DefragFile(d, fsinfo, o.progress);
  if (!defrag.ok()) return defrag.status();
  std::vector<fs::DefragAttempt> attempts = std::move(out->attempts);
  *out = std::move(defrag).value();
  attempts.insert(attempts.end(), out->attempts.begin(), out->attempts.end());
  out->attempts = std::move(attempts);
  if (out->new_lock) *lock = std::move(out->new_lock);
  return Status::Ok();
}

}  // namespace

Result<FragtestOutcome> RunFragtest(const FragtestOptions& o, const fs::FileSystemInfo& fsinfo,
                                    FragtestTrials& trials, std::unique_ptr<FileLock>* lock) {
  FragtestOutcome out;
  SB_RETURN_IF_ERROR(Fragment(o, lock, &out.fragmented));
  out.before.name = "before";
  out.after.name = "after";
  out.before.extents = MeasureTargetExtents(o.path).extents;
  std::vector<bool> order = o.order;
  if (order.empty()) {
    order.assign(static_cast<size_t>(o.rounds), true);
    order.resize(2 * static_cast<size_t>(o.rounds), false);
  }
  bool fragmented_now = true;
  int before_trials = 0, after_trials = 0;
  for (const bool before : order) {
    if (before != fragmented_now) {
      if (before) {
        fs::FragmentResult again;
        SB_RETURN_IF_ERROR(Fragment(o, lock, &again));
        out.before.extents = MeasureTargetExtents(o.path).extents;
      } else {
        SB_RETURN_IF_ERROR(Defragment(o, fsinfo, lock, &out.defrag));
        out.after.extents = MeasureTargetExtents(o.path).extents;
      }
      fragmented_now = before;
    }
    FragtestPhase* ph = before ? &out.before : &out.after;
    const int round = before ? before_trials++ : after_trials++;
    SB_RETURN_IF_ERROR(RunTrial(o, trials, round, ph, &out.page_cache));
  }
  return out;
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace sb::fsload
