// Specification-style driving (a workload with Workload::terminals() > 0, e.g. TPC-C with keying
// and think times): many terminals, each mostly waiting, served by the instance's workers (one
// connection each). A terminal is only a due time in a shared queue plus whatever state the
// workload keeps for it, so tens of thousands cost little memory and no threads.
//
// A worker takes the terminal due first, waits until it is due, runs its unit, and gives it back
// due again after the wait the workload asks for (think time, then the next keying time). Unit
// latency is measured from the terminal's due time, so a unit that waited for a free connection
// shows the wait; the lag (start − due) is recorded separately, as in the open loop.
#ifndef STOREBENCH_DRIVER_TERMINALS_H_
#define STOREBENCH_DRIVER_TERMINALS_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <queue>
#include <utility>
#include <vector>

#include "driver/pacer.h"
#include "storebench/workload.h"

namespace sb::driver {

// Terminals by due time. Thread-safe.
class TerminalQueue {
 public:
  // Terminals 0..count-1, each first due at start_nanos + workload.TerminalWaitNanos(t, true).
  TerminalQueue(workload::Workload& workload, int64_t count, int64_t start_nanos);
  // The terminal due first (the queue is never empty while no worker holds every terminal):
  // {terminal, due time}; {-1, 0} when every terminal is held.
  std::pair<int64_t, int64_t> Take();
  // Gives terminal `t` back, due at `due_nanos`.
  void Give(int64_t t, int64_t due_nanos);
  workload::Workload& workload() { return workload_; }

 private:
  using Entry = std::pair<int64_t, int64_t>;  // (due, terminal)
  workload::Workload& workload_;
  std::mutex mu_;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> due_;
};

// A worker's pacer over a shared queue: NextIntendedStart gives back the terminal of the
// previous unit (due after the workload's wait) and takes the next one; terminal() names it.
std::unique_ptr<Pacer> NewTerminalPacer(std::shared_ptr<TerminalQueue> queue);

}  // namespace sb::driver

#endif  // STOREBENCH_DRIVER_TERMINALS_H_
