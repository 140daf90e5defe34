// The index phase of a load: a workload's index script (secondary and full-text indexes, foreign
// keys, triggers) split into steps, the steps run on up to --index_threads connections at once,
// each step metered (metrics::LoadMeter) so the driver shows which step of how many is running,
// for how long, and an ETA.
//
// A table's statements stay on one connection, in script order (MariaDB rebuilds a table per
// ALTER; two ALTERs of one table at once would only wait for each other), except where the back
// end builds several indexes of one table at once (Capabilities::concurrent_index_builds,
// PostgreSQL): there each CREATE INDEX is a step of its own, so the largest table's indexes, the
// longest part of the phase, sort side by side. A table's later steps wait for its earlier
// phases only, not for the other tables' (IndexStepSchedule): primary keys attached to an index
// built that way (ALTER TABLE ... ADD CONSTRAINT ... USING INDEX) after the table's indexes, its
// statistics (VACUUM ANALYZE t) after those, and foreign keys that come in statements of their
// own after all of these, on their table and on the tables they reference, so the referenced
// primary keys exist (a schema may add them after the data, as pgbench -i does) and the check's
// plan has the tables' statistics. Each statement runs on its own (autocommit), so a foreign key
// holds its locks only while it validates, once.
#ifndef STOREBENCH_WORKLOAD_INDEX_BUILD_H_
#define STOREBENCH_WORKLOAD_INDEX_BUILD_H_

#include <string>
#include <string_view>
#include <vector>

#include "storebench/db.h"
#include "storebench/status.h"
#include "storebench/workload.h"

namespace sb::workload {

struct IndexScript {
  // "SET ..." statements before the first other statement: run on every index connection
  // (MariaDB's SET foreign_key_checks = 0).
  std::vector<std::string> session;
  struct Step {
    std::string table;  // as the script spells it
    std::vector<std::string> statements;
    std::vector<std::string> index_names;  // for the progress line; may be empty
    // When the step runs: steps of one phase run (in parallel) after every step of the phases
    // before it.
    enum class Phase {
      kIndexes,      // builds indexes (CREATE INDEX, ALTER TABLE ... ADD PRIMARY KEY (...))
      kKeys,         // only ALTER TABLEs that make indexes already built keys (USING INDEX)
      kStatistics,   // VACUUM [ANALYZE] t or ANALYZE t, one table named
      kForeignKeys,  // only ALTER TABLEs that add foreign keys and no index
    };
    Phase phase = Phase::kIndexes;
    // The tables its ALTER TABLEs name after REFERENCES, lower-cased.
    std::vector<std::string> references;
  };
  // One per table and phase, in the order they first appear; with step_per_create_index, one
  // per CREATE INDEX statement besides.
  std::vector<Step> steps;
  // Everything else, in script order, run after the steps on one connection: statements that
  // are not "CREATE [UNIQUE|FULLTEXT] INDEX ... ON t" or "ALTER TABLE t ...", and from the first
  // CREATE FUNCTION/PROCEDURE/TRIGGER on the whole rest of the script (their bodies hold ';').
  std::string rest;
};

// Splits a script as above. Recognizes statements by their first line; a table statement ends
// at the first line ending in ';'. Comment lines ("--") outside statements are dropped. A
// VACUUM or ANALYZE naming one table is that table's statistics step; one naming none or several
// ("ANALYZE;", MySQL's "ANALYZE TABLE a, b") stays in the rest.
// step_per_create_index: each "CREATE [UNIQUE] INDEX" is a step of its own (pass the back end's
// Capabilities::concurrent_index_builds); a table's ALTER TABLEs still share one step.
IndexScript SplitIndexScript(std::string_view sql, bool step_per_create_index = false);

// "SET a = 1; SET b = 'x';" (comment lines allowed) -> "a = 1, b = 'x'": the settings of a
// session script as one line to show and record.
std::string SessionSettingsText(std::string_view sql);

// True when `later` may start only once `earlier` is done (rows: their tables' rows): `earlier`
// is of an earlier phase, on later's table or, when later is a foreign-key step, on a table it
// references; or both are foreign-key steps and `earlier`'s table, one later references, has
// fewer rows (both lock that table: its own check, the cheaper, goes first instead of queueing
// behind the larger one's; from more rows to fewer only, so the waits never go round in a
// circle).
bool WaitsFor(const IndexScript::Step& later, int64_t later_rows, const IndexScript::Step& earlier,
              int64_t earlier_rows);

// The order in which steps are offered to start (indexes into steps; weights: the rows of each
// step's table): by the rows of the heaviest table whose steps wait for it, its own included and
// through any chain of waits (so a small table's key comes before the indexes of tables no
// large one waits for), then by its own table's rows, then by phase; ties in script order.
std::vector<size_t> IndexStepPriority(const std::vector<const IndexScript::Step*>& steps,
                                      const std::vector<int64_t>& weights);

// Which steps may start, as steps start and finish. A step may start when every step it
// WaitsFor is done; and when no running step shares a table with it, unless
// both build indexes (two CREATE INDEX on one table take locks that do not conflict; a key,
// VACUUM or foreign key would only wait for the other's lock, holding a connection). Among the
// steps that may start, the first in the order given (IndexStepPriority's).
class IndexStepSchedule {
 public:
  // rows: each step's table's rows (WaitsFor).
  IndexStepSchedule(std::vector<const IndexScript::Step*> steps, std::vector<int64_t> rows);
  // The step to start now, or -1 when none may (all started, or waiting for running ones).
  int Next() const;
  void Start(int i) { state_[i] = State::kRunning; }
  void Done(int i) { state_[i] = State::kDone; }
  bool AllDone() const;

 private:
  enum class State { kWaiting, kRunning, kDone };
  bool MayStart(size_t i) const;
  std::vector<const IndexScript::Step*> steps_;
  std::vector<int64_t> rows_;
  std::vector<std::vector<std::string>> tables_;  // lower-cased: its own, then its references
  std::vector<State> state_;
};

struct IndexBuildOptions {
  // Connections building at once (capped by the step count; 1 when the back end has a single
  // writer, as SQLite).
  int threads = 1;
  // Run on every index connection before its first step, after the script's own session
  // statements: the load session's settings (PostgreSQL maintenance_work_mem). May be empty.
  std::string session_sql;
};

// Runs `script` on new connections of `backend`. Steps start as IndexStepSchedule allows, in
// IndexStepPriority's order (weight: the table's rows in ctx.meter, when it metered that table).
// Declares each step and the rest in ctx.meter and marks them started and done. Stops between
// statements on ctx.stop; the first error ends the build once the statements already running have
// finished.
Status BuildIndexes(db::DbBackend& backend, const IndexScript& script,
                    const IndexBuildOptions& options, const LoadContext& ctx);

}  // namespace sb::workload

#endif  // STOREBENCH_WORKLOAD_INDEX_BUILD_H_
