// Under mpirun, what each rank alone knows about a run and rank 0 needs for the whole run's
// result (docs/scale-out.md): the restores of the databases it owned (--restore) and its
// workers (started, failed, stalled, each one's share). Sent with the rank's end report
// (session/scale_out_result.h); rank 0 adds the other ranks' to its own.
#ifndef STOREBENCH_SESSION_RANK_NOTES_H_
#define STOREBENCH_SESSION_RANK_NOTES_H_

#include <string>
#include <vector>

#include "metrics/run_result.h"
#include "session/db_instances.h"

namespace sb::session {

// This rank's note: the restores it made (of the `setups` it owned) and the workers of each
// instance in its `result` (the result itself for a run of one instance).
std::string RankNote(const std::vector<DbSetup>& setups, const metrics::RunResult& result);

// Rank 0: adds every other rank's note (`notes` in rank order, rank 0's own first and skipped)
// to the run: their restores to `setups` (which DescribeRun records) and their workers to
// each instance's and the aggregate's result. A note that cannot be read is skipped.
void AddRankNotes(const std::vector<std::string>& notes, std::vector<DbSetup>* setups,
                  metrics::RunResult* result);

}  // namespace sb::session

#endif  // STOREBENCH_SESSION_RANK_NOTES_H_
