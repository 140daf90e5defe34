// The processes ("ranks") of a scaled-out run: every rank is a client that runs its share of
// the workers; rank 0 coordinates (docs/scale-out.md). Group implements the controller's
// PeerGroup over a Transport (MPI in practice) and adds what the commands need around a run:
// the check that every rank runs the same version with the same options, the measured clock
// offsets, and the per-rank figures for the result.
//
// Every exchange is a gather to rank 0 followed, when needed, by rank 0's answer to all, with
// nonblocking messages and a deadline: a rank that does not answer in time (it died, its host
// is gone) is marked lost, the run ends on every other rank at the next exchange, and rank 0
// still writes a result, marked incomplete and naming the rank and its host. When the stop
// flag is set (SIGINT/SIGTERM: mpirun forwards a Ctrl-C to every rank as SIGTERM and kills
// them about a second later, OpenMPI 4.1 measured) the deadline shrinks to half a second so
// the result is written in time.
#ifndef STOREBENCH_DIST_GROUP_H_
#define STOREBENCH_DIST_GROUP_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dist/transport.h"
#include "driver/peer_group.h"
#include "metrics/recorder.h"
#include "storebench/status.h"

namespace sb::dist {

// One rank as rank 0 saw it, for the result's "scale_out.ranks".
struct RankReport {
  int rank = 0;
  std::string host;
  bool lost = false;
  std::string lost_reason;  // "stopped answering 2.1 s after Start"
  // Clock offset of this rank's wall clock from rank 0's (positive: ahead), measured by
  // round trips over MPI at the start and the end; the uncertainty is half the best round trip.
  double offset_start_ms = 0, uncertainty_start_ms = 0;
  double offset_end_ms = 0, uncertainty_end_ms = 0;
  bool offset_end_measured = false;
  // When this rank started, on rank 0's clock, relative to rank 0's Start (offset corrected).
  double start_skew_ms = 0;
  double driver_cpu_sec = 0;  // this rank's process CPU over the measured window
  int64_t threads = 0;        // the threads (workers) this rank ran
  // This rank's own measured window (from the reset to the end), its instances merged.
  metrics::RecorderSnapshot measured;
  // What this rank finished after the end instant (the work in flight when the window closed
  // for everyone, wind-down): reported apart, never in the measured figures, as IOR's
  // stonewalling does. Empty for a rank lost before the end.
  metrics::RecorderSnapshot after_end;
  // What the rank attached at the end (Finish's `note`): facts rank 0 does not have, such as
  // the restores of the databases it owned. Empty for a lost rank.
  std::string note;
};

class Group : public driver::PeerGroup {
 public:
  Group(std::unique_ptr<Transport> transport, int64_t timeout_nanos);

  int rank() const { return t_->rank(); }
  int size() const { return t_->size(); }
  bool coordinator() const { return rank() == 0; }
  void set_stop(const std::atomic<bool>* stop) { stop_ = stop; }
  void set_timeout_nanos(int64_t nanos) { timeout_nanos_ = nanos; }
  // How long rank 0 waits for every rank's connect phase (the run's connect timeout and more).
  void set_ready_timeout_nanos(int64_t nanos) { ready_timeout_nanos_ = nanos; }

  // Every rank sends `what` (its version and options, as text) to rank 0, which refuses
  // anything different from its own: InvalidArgument naming the first differing rank and host,
  // returned on every rank. Also learns every rank's host name.
  Status CheckSame(const std::string& what, const std::string& description);

  // Rank 0's `value` on every rank (rank 0 gets its own back): what rank 0 alone decides, such
  // as a seed drawn for the run. FailedPrecondition when rank 0 is lost.
  Result<std::string> FromRankZero(const std::string& value);

  // A step every rank takes on its own before the run (building its part of a plan, loading
  // its databases): `local` is how it went here. Returns OK when it went well on every rank,
  // else the first failure, the same on every rank: rank 0's own as it is, another rank's
  // prefixed with "rank k (host h): ". Also a barrier: no rank goes on before every rank is
  // done with the step.
  Status AllOk(const Status& local);
  // Before the run has started, a rank that fails on its own (a port taken on its host, a file
  // it cannot write) tells the others instead of leaving them waiting for it: rank 0's next
  // exchange ends with this failure, named with the rank and host, and rank 0 prints it (the
  // only console a user sees). Rank 0 tells every rank. Called by cli::Fail; at most once, and
  // not once a failure has been agreed (every rank knows it already) or the run has started.
  void TellFailure(const Status& s);

  // Rank 0's `mine` on every rank (the others' `mine` is ignored): how rank 0 leads a sequence
  // of runs (consolidate's next step). nullopt when rank 0 stopped answering or failed.
  std::optional<std::string> Share(const std::string& mine);
  // Before each run of a sequence (consolidate): forgets the previous run's snapshots, CPU
  // readings, start and offsets, so the run's figures and per-rank section are its own.
  void BeginRun();
  // Whether every rank already knows this process's command failed (an agreed verdict, or a
  // failure told or heard from rank 0): nothing more may be sent.
  bool failure_known() const { return failure_agreed_ || told_mine_ || told_[0].has_value(); }

  // driver::PeerGroup
  Status AllReady(const Status& local) override;
  void StartTogether() override;
  bool Agree(bool any, bool all) override;
  void Merge(driver::SnapshotPoint point,
             std::vector<metrics::RecorderSnapshot>* per_instance) override;

  // After the run (every rank, with the threads it ran and its `note`): the end clock
  // offsets. Rank 0 returns every rank's report.
  std::vector<RankReport> Finish(int64_t threads, const std::string& note = std::string());
  // A rank was lost (rank 0), or rank 0 was (the others).
  bool any_lost() const;
  // "rank 2 (host h) stopped answering ..." for every lost rank, "" when none.
  std::string LostSummary() const;

 private:
  // Rank 0: every other live rank's message with `tag` (empty optional: lost now or before).
  std::vector<std::optional<std::string>> Gather(int tag, const std::string& mine);
  // Rank 0 sends `msg` to every live rank; the others receive it (nullopt: rank 0 lost).
  std::optional<std::string> Broadcast(int tag, const std::string& msg);
  std::optional<std::string> ReceiveBy(int from, int tag, int64_t deadline,
                                       int64_t max_nap = 2'000'000);
  int64_t Deadline(int64_t timeout) const;
  void MarkLost(int rank, const std::string& why);
  void MeasureOffsets(bool at_end);
  std::string Host(int rank) const;
  // Rank 0: the first failure another rank told (TellFailure), named; OK when none.
  Status ToldFailure() const;
  // The verdict of a step every rank reports on (AllOk, AllReady), `missing` naming what a
  // silent rank did not report.
  Status Verdict(int tag, int verdict_tag, const Status& local, bool prefix_mine,
                 const std::string& missing);

  std::unique_ptr<Transport> t_;
  int64_t timeout_nanos_;
  int64_t ready_timeout_nanos_ = 0;
  int64_t stop_seen_ = 0;  // when the stop flag was first seen (monotonic nanos), 0: not yet
  const std::atomic<bool>* stop_ = nullptr;
  int64_t round_ = 0;  // every exchange is numbered; a message from another round is an error
  std::vector<std::string> hosts_;
  std::vector<RankReport> reports_;  // rank 0
  std::vector<bool> lost_;
  bool coordinator_lost_ = false;
  bool peer_lost_ = false;  // not rank 0: rank 0 said at the end that a rank was lost
  // Failures told before the run (TellFailure): by rank, empty when none. A rank that told one
  // leaves cleanly (it finalizes MPI), so it is not lost, only no longer sent to.
  std::vector<std::optional<Status>> told_;
  bool failure_agreed_ = false;  // a step's verdict was a failure: every rank knows it
  bool told_mine_ = false;
  int64_t start_wall_ = 0, start_mono_ = 0;
  // Rank 0: each rank's latest snapshots and CPU, and those at the reset.
  std::vector<std::vector<metrics::RecorderSnapshot>> last_, at_reset_, at_end_;
  std::vector<double> cpu_last_, cpu_at_reset_, cpu_at_end_;
};

}  // namespace sb::dist

#endif  // STOREBENCH_DIST_GROUP_H_
