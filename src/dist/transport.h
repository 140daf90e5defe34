// Messages between the processes of a scaled-out run: the one thing dist::Group needs from
// MPI, so the group's protocol (deadlines, lost processes) is written once above it.
#ifndef STOREBENCH_DIST_TRANSPORT_H_
#define STOREBENCH_DIST_TRANSPORT_H_

#include <string>

namespace sb::dist {

class Transport {
 public:
  virtual ~Transport() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Queues `bytes` for process `to`; never blocks, also when `to` is gone.
  virtual void Send(int to, int tag, std::string bytes) = 0;
  // Never blocks: true, with the message in *out, when one from `from` with `tag` has arrived.
  // Messages between two processes with one tag arrive in the order they were sent.
  virtual bool TryReceive(int from, int tag, std::string* out) = 0;
};

}  // namespace sb::dist

#endif  // STOREBENCH_DIST_TRANSPORT_H_
