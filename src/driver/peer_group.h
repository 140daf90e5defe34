// The controller's view of the other processes of a scaled-out run (several client processes,
// possibly on several hosts, started together by mpirun; see docs/scale-out.md). Each process
// runs its own share of the workers under its own Controller; the controller calls these at
// fixed points of its loop so that the group starts together, ends together and rank 0 sees
// the whole run. Every process makes the same calls in the same order.
//
// A run of one process has no peer group (ControllerOptions::peers is null) and the controller
// behaves exactly as without this interface. The implementation over MPI is dist::Group.
#ifndef STOREBENCH_DRIVER_PEER_GROUP_H_
#define STOREBENCH_DRIVER_PEER_GROUP_H_

#include <vector>

#include "driver/instance.h"
#include "metrics/recorder.h"
#include "storebench/status.h"

namespace sb::driver {

class PeerGroup {
 public:
  virtual ~PeerGroup() = default;
  // After this process's connect phase (`local`: OK when all its workers are ready). Returns
  // OK when every process is ready, else the first failure with the process named.
  virtual Status AllReady(const Status& local) = 0;
  // The common start: returns when every process may start (a barrier). The caller reads its
  // clock for Start right after.
  virtual void StartTogether() = 0;
  // Decided together, so the window ends at the same instant everywhere: true when any process
  // passes `any` (its time is up, a signal, an open loop too far behind, the warm-up pause) or
  // every process passes `all` (all its workers finished their work). A process that stopped
  // answering makes it true: the run ends.
  virtual bool Agree(bool any, bool all) = 0;
  // `per_instance` holds this process's cumulative snapshots (one per instance). On the
  // coordinator they are replaced by the exact merge over every process (histograms bucket by
  // bucket, counters summed); elsewhere they stay this process's own. `point` tells which
  // snapshots the group keeps per process for its per-process figures.
  virtual void Merge(SnapshotPoint point, std::vector<metrics::RecorderSnapshot>* per_instance) = 0;
};

}  // namespace sb::driver

#endif  // STOREBENCH_DRIVER_PEER_GROUP_H_
