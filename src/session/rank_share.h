// How the work of a run is divided: among the ranks of a scaled-out run (docs/scale-out.md) and
// among DVD Store 3's target list. Plain arithmetic, no group and no options.
#ifndef STOREBENCH_SESSION_RANK_SHARE_H_
#define STOREBENCH_SESSION_RANK_SHARE_H_

#include <cstdint>
#include <string>

#include "storebench/status.h"

namespace sb::session {

// Rank `rank` of `ranks`'s share of instance `instance`'s `total` threads (of `instances`
// instances). With split "threads" (--rank_split=threads) rank r of K gets ⌊total/K⌋ plus one
// when r is below total mod K; with "instances" rank r runs every instance i with i mod K = r
// whole, and 0 threads of the others. InvalidArgument (one sentence) when there are more ranks
// than threads or instances to divide. `what` names the threads ("threads", "workers").
Result<int64_t> ShareOf(const std::string& split, int rank, int ranks, int64_t total,
                        const std::string& what, int instance, int instances);

// DVD Store 3's target list: `total` threads spread round robin over `parts` targets (thread t
// drives target t mod parts); how many target `index` (from 0) gets.
inline int64_t RoundRobinShare(int64_t total, int64_t parts, int64_t index) {
  return (total - index + parts - 1) / parts;
}

// Under mpirun each rank writes its own --op_log: `path` with ".rank<k>" added (recorded in the
// result's choices).
inline std::string RankOpLogPath(const std::string& path, int rank) {
  return path + ".rank" + std::to_string(rank);
}

}  // namespace sb::session

#endif  // STOREBENCH_SESSION_RANK_SHARE_H_
