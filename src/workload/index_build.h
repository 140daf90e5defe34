// The index phase of a load: a workload's index script (secondary and full-text indexes, foreign
// keys, triggers) split into steps, the steps run on up to --index_threads connections at once,
// each step metered (metrics::LoadMeter) so the driver shows which step of how many is running,
// for how long, and an ETA.
//
// A table's statements stay on one connection, in script order (MariaDB rebuilds a table per
// ALTER; two ALTERs of one table at once would only wait for each other), except where the back
// end builds several indexes of one table at once (Capabilities::concurrent_index_builds,
// PostgreSQL): there each CREATE INDEX is a step of its own, so the largest table's indexes, the
// longest part of the phase, sort side by side. Primary keys attached to an index built that way
// (ALTER TABLE ... ADD CONSTRAINT ... USING INDEX) run after every index, and foreign keys that
// come in statements of their own (PostgreSQL) after those, so the referenced primary keys exist
// (a schema may add them after the data, as pgbench -i does). Each statement runs on its own
// (autocommit), so a foreign key holds its locks only while it validates, once.
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
      kForeignKeys,  // only ALTER TABLEs that add foreign keys and no index
    };
    Phase phase = Phase::kIndexes;
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
// at the first line ending in ';'. Comment lines ("--") outside statements are dropped.
// step_per_create_index: each "CREATE [UNIQUE] INDEX" is a step of its own (pass the back end's
// Capabilities::concurrent_index_builds); a table's ALTER TABLEs still share one step.
IndexScript SplitIndexScript(std::string_view sql, bool step_per_create_index = false);

// "SET a = 1; SET b = 'x';" (comment lines allowed) -> "a = 1, b = 'x'": the settings of a
// session script as one line to show and record.
std::string SessionSettingsText(std::string_view sql);

struct IndexBuildOptions {
  // Connections building at once (capped by the step count; 1 when the back end has a single
  // writer, as SQLite).
  int threads = 1;
  // Run on every index connection before its first step, after the script's own session
  // statements: the load session's settings (PostgreSQL maintenance_work_mem). May be empty.
  std::string session_sql;
};

// Runs `script` on new connections of `backend`. Steps start heaviest first (weight: the
// table's rows in ctx.meter, when it metered that table). Declares each step and the rest in
// ctx.meter and marks them started and done. Stops between statements on ctx.stop; the first
// error ends the build once the statements already running have finished.
Status BuildIndexes(db::DbBackend& backend, const IndexScript& script,
                    const IndexBuildOptions& options, const LoadContext& ctx);

}  // namespace sb::workload

#endif  // STOREBENCH_WORKLOAD_INDEX_BUILD_H_
