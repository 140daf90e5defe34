#include "workload/fs/fragtest.h"

#include <algorithm>
#include <utility>

#include "workload/fs/target_extents.h"

namespace sb::fsload {
namespace {

Status RunPhase(const FragtestOptions& o, FragtestTrials& trials, FragtestPhase* ph) {
  ph->iops.assign(o.specs, {});
  ph->mibs.assign(o.specs, {});
  for (int round = 0; round < o.rounds; ++round) {
    for (size_t i = 0; i < o.specs; ++i) {
      if (o.stop != nullptr && o.stop->load()) {
        return Status::Cancelled("io fragtest stopped by a signal");
      }
      auto test = trials.RunSpec(ph->name, round, i);
      if (!test.ok()) return test.status();
      ph->iops[i].push_back(test->iops);
      ph->mibs[i].push_back(test->mib_per_sec);
    }
    if (o.seq_read) {
      auto mibs = trials.SequentialRead();
      if (!mibs.ok()) return mibs.status();
      ph->seq_mibs.push_back(*mibs);
    }
  }
  return Status::Ok();
}

}  // namespace

Result<FragtestOutcome> RunFragtest(const FragtestOptions& o, const fs::FileSystemInfo& fsinfo,
                                    FragtestTrials& trials, std::unique_ptr<FileLock>* lock) {
  FragtestOutcome out;
  auto fragmented = FragmentTestFile(o.path, o.extents, o.fragment_method, o.stop, o.progress);
  if (!fragmented.ok()) return fragmented.status();
  out.fragmented = std::move(fragmented).value();
  if (o.on_fragmented) o.on_fragmented(out.fragmented);
  if (out.fragmented.new_lock) *lock = std::move(out.fragmented.new_lock);
  if (Status s = FragmentShortfall(o.path, o.extents, out.fragmented); !s.ok()) return s;

  out.before.name = "before";
  out.after.name = "after";
  out.before.extents = MeasureTargetExtents(o.path).extents;
  if (Status s = RunPhase(o, trials, &out.before); !s.ok()) return s;

  fs::DefragOptions d;
  d.path = o.path;
  d.method = o.defrag_method;
  d.stop = o.stop;
  d.clock = o.clock;
  auto defrag = fs::DefragFile(d, fsinfo, o.progress);
  if (!defrag.ok()) return defrag.status();
  out.defrag = std::move(defrag).value();
  if (out.defrag.new_lock) *lock = std::move(out.defrag.new_lock);
  out.after.extents = MeasureTargetExtents(o.path).extents;
  if (Status s = RunPhase(o, trials, &out.after); !s.ok()) return s;
  return out;
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace sb::fsload
