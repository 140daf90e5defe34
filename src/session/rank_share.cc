#include "session/rank_share.h"

namespace sb::session {

Result<int64_t> ShareOf(const std::string& split, int rank, int ranks, int64_t total,
                        const std::string& what, int instance, int instances) {
  const int64_t k = ranks;
  if (split == "instances") {
    if (instances < k) {
      return Status::InvalidArgument(
          "mpirun started " + std::to_string(k) + " ranks for " + std::to_string(instances) +
          " instance(s): with --rank_split=instances every rank needs at least one; use fewer "
          "ranks or --rank_split=threads");
    }
    return instance % k == rank ? total : 0;
  }
  if (total < k) {
    return Status::InvalidArgument("mpirun started " + std::to_string(k) + " ranks for " +
                                   std::to_string(total) + " " + what +
                                   ": every rank needs at least one; use fewer ranks");
  }
  return total / k + (rank < total % k ? 1 : 0);
}

}  // namespace sb::session
