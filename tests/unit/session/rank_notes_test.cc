// What each rank sends rank 0 at the end of a scaled-out run (its restores, its workers) and how
// rank 0 adds it to the whole run's result, on constructed results.
#include "session/rank_notes.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace sb::session {
namespace {

metrics::RunResult Workers(int64_t started, std::vector<uint64_t> units) {
  metrics::RunResult r;
  r.workers_started = started;
  for (uint64_t u : units) r.threads.push_back({u, 0.5});
  return r;
}

TEST(RankNotesTest, RankZeroAddsTheOtherRanksRestoresAndWorkers) {
  // Two instances; rank 0 restored and ran the first, rank 1 the second (rank_split=instances).
  std::vector<DbSetup> on_rank0(2), on_rank1(2);
  on_rank0[0].restore_method = "file copy";
  on_rank0[0].restore_seconds = 1.5;
  on_rank1[1].restore_method = "file copy (reflink)";
  on_rank1[1].restore_seconds = 0.25;
  metrics::RunResult whole, part1;
  whole.instances = {Workers(2, {10, 11}), Workers(0, {})};
  part1.instances = {Workers(0, {}), Workers(3, {7, 8, 9})};
  part1.instances[1].workers_failed = 1;
  const std::vector<std::string> notes = {RankNote(on_rank0, whole), RankNote(on_rank1, part1)};
  AddRankNotes(notes, &on_rank0, &whole);
  EXPECT_EQ(on_rank0[1].restore_method, "file copy (reflink)");
  EXPECT_DOUBLE_EQ(on_rank0[1].restore_seconds, 0.25);
  EXPECT_DOUBLE_EQ(on_rank0[0].restore_seconds, 1.5);  // its own, not counted twice
  EXPECT_EQ(whole.instances[1].workers_started, 3);
  EXPECT_EQ(whole.instances[1].workers_failed, 1);
  ASSERT_EQ(whole.instances[1].threads.size(), 3u);
  EXPECT_EQ(whole.instances[1].threads[2].units, 9u);
  // The aggregate: every instance's workers, in instance order.
  EXPECT_EQ(whole.workers_started, 5);
  EXPECT_EQ(whole.workers_failed, 1);
  ASSERT_EQ(whole.threads.size(), 5u);
  EXPECT_EQ(whole.threads[0].units, 10u);
  EXPECT_EQ(whole.threads[4].units, 9u);
}

TEST(RankNotesTest, OneInstanceSharedByRanksAndALostRank) {
  // rank_split=threads with one instance: each rank ran its share of its threads.
  std::vector<DbSetup> setups(1);
  metrics::RunResult whole = Workers(2, {4, 5}), part1 = Workers(2, {6, 7});
  const std::vector<std::string> notes = {RankNote(setups, whole), RankNote(setups, part1), ""};
  AddRankNotes(notes, &setups, &whole);  // rank 2 was lost: no note
  EXPECT_EQ(whole.workers_started, 4);
  ASSERT_EQ(whole.threads.size(), 4u);
  EXPECT_EQ(whole.threads[3].units, 7u);
  EXPECT_LT(setups[0].restore_seconds, 0);  // nobody restored it
  // A damaged note is skipped, not a crash.
  AddRankNotes({"", "{\"workers\": [{\"threads\": [[1]]}]}", "not json"}, &setups, &whole);
  EXPECT_EQ(whole.workers_started, 4);
}

}  // namespace
}  // namespace sb::session
