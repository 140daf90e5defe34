// storebench oltp load: the workload's tables generated and loaded in parallel, with a progress
// line (README.md), or with --dry_run only the plan.
#include <unistd.h>

#include <cstdio>
#include <memory>

#include "base/clock.h"
#include "cli/app.h"
#include "cli/command_paths.h"
#include "cli/db_run.h"
#include "cli/oltp_internal.h"
#include "cli/status_line.h"
#include "driver/load.h"
#include "report/console/load_progress.h"
#include "session/load_dry_run.h"

namespace sb::cli {
namespace {

// `oltp load --dry_run`: the plan, and exit 2 when the storage lacks the space; no lock is taken
// and nothing is created (SQLite's back end creates its file only on connecting).
int LoadDryRun(OltpContext& c) {
  auto backend = OltpOpenDb(c, /*create=*/true, 3000);
  if (!backend.ok()) return Fail(backend.status());
  workload::LoadContext ctx;
  ctx.force = c.options.GetBool("force");
  ctx.csv_dir = c.options.GetString("csv_dir");
  ctx.seed = static_cast<uint64_t>(c.options.GetInt("seed"));
  auto plan = session::PlanLoadDryRun(c.workload(), **backend, ctx);
  if (!plan.ok()) return Fail(plan.status());
  std::fputs(plan->text.c_str(), stdout);
  std::fflush(stdout);
  return plan->refusal.ok() ? kExitOk : Fail(plan->refusal);
}

}  // namespace

int OltpLoad(OltpContext& c) {
  if (c.options.GetBool("dry_run")) return LoadDryRun(c);
  // Before anything looks at the database: a load under way must not be replaced (--force) or
  // be told to be redone.
  auto lock = LockDatabase(c.registry, c.options.GetString("db"), "oltp load");
  if (!lock.ok()) return Fail(lock.status());
  auto backend = OltpOpenDb(c, /*create=*/true, 30000);
  if (!backend.ok()) return Fail(backend.status());
  workload::LoadContext ctx;
  ctx.threads = static_cast<int>(c.options.GetInt("load_threads"));
  ctx.index_threads = static_cast<int>(c.options.GetInt("index_threads"));
  ctx.force = c.options.GetBool("force");
  ctx.csv_dir = c.options.GetString("csv_dir");
  ctx.seed = static_cast<uint64_t>(c.options.GetInt("seed"));
  ctx.stop = InstallStopHandlers();
  // Rewritten each second on a terminal; a plain line every 10 s in a log.
  StatusLine line(stderr, isatty(STDERR_FILENO) == 1, 10);
  ctx.progress = [&line](const std::string& m) { line.Message(m); };
  driver::LoadProgress progress;
  progress.on_sample = [&line](const metrics::LoadSample& s) {
    // Always shown: the "data in" line and the index phase's last (ETA 0: every step done).
    line.Update(report::FormatLoadProgress(s),
                /*force=*/s.data_done && (!s.index_phase || s.eta_sec == 0));
  };
  SteadyClock clock;
  driver::LoadOutcome out = driver::RunLoad(c.workload(), **backend, ctx, clock, progress);
  line.End();
  if (!out.status.ok()) return FailDuringWork(out.status);
  backend->reset();  // no session of ours may stay open on a database being copied
  if (c.options.GetBool("pristine")) {
    auto copy = SavePristineCopy(c.registry, c.options.GetString("db"), &lock.value(), "oltp load");
    if (!copy.ok()) return Fail(copy.status());
    Progress(PristineWords(c.options.GetString("db"), *copy));
  }
  const double secs = out.seconds > 0 ? out.seconds : 1;
  std::printf(
      "loaded %s into %s: %lld rows in %.1f s (%.0f rows/s; %.1f MB of row text, %.1f MB/s)\n",
      c.workload().Describe().c_str(), c.options.GetString("db").c_str(),
      static_cast<long long>(out.rows), out.seconds, static_cast<double>(out.rows) / secs,
      static_cast<double>(out.bytes) / 1e6, static_cast<double>(out.bytes) / 1e6 / secs);
  return kExitOk;
}

}  // namespace sb::cli
