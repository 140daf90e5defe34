// The workload interface: *what* to do next. The driver decides *when* (pacing, think time) and
// measures *how long*; workloads never read the clock (they get step durations from OpContext).
//
// Lifecycle: the CLI builds a Workload, it declares its options into the OptionSet, the options
// are parsed, Configure() reads them; then Load() (load command) or CheckReady() + NewSession()
// per worker (run command) + Verify().
//
// Threading: NewSession and TerminalWaitNanos are called by every worker's thread at the same
// time (they may only read what Configure set, or guard what they change); the other methods
// one call at a time. A Session belongs to one worker thread.
//
// Errors: as Status. InvalidArgument for the user's options; FailedPrecondition for a database
// that is not ready for the command (not loaded, another size); a database call's own kDbError
// status as it came, so the driver's retry policy sees its ErrorCategory.
//
// A new workload: docs/contributing.md walks through the files and the one registration.
#ifndef STOREBENCH_INCLUDE_STOREBENCH_WORKLOAD_H_
#define STOREBENCH_INCLUDE_STOREBENCH_WORKLOAD_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/clock.h"
#include "base/function_ref.h"
#include "base/random.h"
#include "base/small_list.h"
#include "config/options.h"
#include "metrics/headline.h"
#include "metrics/load_meter.h"
#include "storebench/db.h"
#include "storebench/status.h"

namespace sb::workload {

// The names of what a workload measures. Type 0 is always the unit of work (DVD Store: "order");
// its latency is the sum of the unit's timed steps. Step types follow.
struct Shape {
  std::string unit_name;      // "order"
  std::string headline_name;  // units per minute under the workload's name: "opm"
  // Every headline metric, the first being headline_name's (units per minute). Baselines and
  // verdicts may name any of them.
  std::vector<metrics::HeadlineSpec> headlines;
  std::vector<std::string> step_types;  // "login", "newcust", "browse", ...
  std::vector<std::string> counters;    // workload counters, e.g. "rollbacks"
  int rollback_counter = -1;            // index into counters, or -1
  // Default run and warm-up times as the workload's users expect them (parsed as options:
  // DVD Store 3 runs until stopped after a 1-minute warm-up; sysbench runs 10 s, no warm-up).
  std::string default_run_time = "0";
  std::string default_warmup_time = "1";
  std::string default_log_freq = "10";  // seconds between status lines (sysbench: 0, none)
  // The workload's users are sysbench's: its option names (--db-driver, --pgsql-*, ...) and its
  // prepare/run/cleanup verbs. A bare number of its --warmup-time counts seconds, as sysbench
  // counts it, where DS3's warmup_time counts minutes.
  bool sysbench_style = false;
  // The console of the tool the workload imitates, by name (report/console/console_style.h):
  // "dvdstore" (DVD Store 3's status and Final lines), "sysbench" (its interval lines and final
  // report), "charbench" (Swingbench charbench's lines and end summary) or "hammerdb" (DVD
  // Store's lines, and HammerDB's result lines from the run's figures).
  std::string console = "dvdstore";
  // A unit is one step of one type (Order Entry's transactions): the op_log names the unit by
  // its step type ("NCR") rather than unit_name.
  bool unit_named_by_step = false;
};

// True when a COMMIT failed because the connection was lost: the server may have committed
// before the connection went (a server shut down right after writing the commit record), so the
// transaction's outcome is unknown to the client. Measured: a MariaDB restart during a TPC-C run
// left sum(D_NEXT_O_ID) one above the client's committed New-Orders. Workloads count such units
// with CountNow and cross-checks allow them (ServerComparison::in_doubt).
inline bool CommitInDoubt(const Status& commit) {
  return !commit.ok() && commit.category() == ErrorCategory::kConnectionLost;
}

struct StepOutcome {
  Status status;
  int64_t elapsed_nanos = 0;  // wall time of the step, all attempts included
};

// What a unit of work recorded through its OpContext, in the order the session recorded it. The
// driver reads it when the unit returns and clears it before the next one.
struct UnitRecord {
  using Item = std::pair<int, int64_t>;
  int64_t nanos = 0;          // the unit's response time (RecordStep's add_to_unit, AddToUnitTime)
  bool read_clock = false;    // a timed step or a pause read the clock
  int64_t last_read = 0;      // then: its last reading (the end of the last step or pause)
  SmallList<Item, 8> steps;   // (step type, nanos): RecordStep
  SmallList<Item, 8> counts;  // (counter, delta): Count, recorded with the unit
  SmallList<Item, 4> counts_now;  // (counter, delta): CountNow, recorded whatever the outcome
  void Clear() {
    nanos = 0;
    read_clock = false;
    steps.clear();
    counts.clear();
    counts_now.clear();
  }
};

// Provided by the driver to a session for the duration of one unit of work.
//
// What a session calls per operation is not virtual: the steps, counts and response time go
// into the context's own UnitRecord, and Timed reads the clock inline (MonotonicNanos) and runs
// the session's lambda inline; only a failed call (Retry) and the rare calls (Pause, Message)
// are virtual. A virtual call for each of them cost a point select about 100 of the driver's
// instructions (callgrind, docs/driver-cost.md).
class OpContext {
 public:
  // `clock` times the steps; `worker_index` is the worker's (Message, worker_index()).
  OpContext(const Clock& clock, int worker_index)
      : clock_(clock), monotonic_(clock.is_monotonic()), worker_index_(worker_index) {}
  virtual ~OpContext() = default;
  OpContext(const OpContext&) = delete;
  OpContext& operator=(const OpContext&) = delete;

  // Runs `fn` (returning Status) as one database call, retried by the driver's retry policy
  // (DVD Store: up to 10 tries, a random 0–999 ms pause after a deadlock or busy error; a message
  // per retry). `fn` must leave no transaction open when it fails. Returns the final status and
  // the wall time of all attempts: one clock reading before the first try and one after the
  // last. Records nothing: the session decides with RecordStep (DVD Store counts only the last
  // attempt of the new-customer loop, and the price lookup not at all).
  template <typename F>
  StepOutcome Timed(F&& fn) {
    const int64_t start = Now();
    Status s = fn();
    // The retries are out of line: the usual first-try success then needs none of their
    // registers (callgrind, docs/driver-cost.md).
    if (!s.ok()) [[unlikely]] {
      s = Retry(FunctionRef<Status()>(fn), std::move(s));
    }
    const int64_t end = Now();
    unit_.last_read = end;
    unit_.read_clock = true;
    return {std::move(s), end - start};
  }
  // Timed + RecordStep: the usual case.
  template <typename F>
  StepOutcome Step(int step_type, F&& fn) {
    StepOutcome out = Timed(std::forward<F>(fn));
    if (out.status.ok()) RecordStep(step_type, out.elapsed_nanos, /*add_to_unit=*/true);
    return out;
  }
  // Records one sample of `step_type` (an index into Shape::step_types) and, when
  // `add_to_unit`, adds it to the unit's response time.
  void RecordStep(int step_type, int64_t nanos, bool add_to_unit) {
    unit_.steps.push_back({step_type, nanos});
    if (add_to_unit) unit_.nanos += nanos;
  }
  // Adds nanoseconds to the unit's response time without a sample (bug-compatible accounting).
  void AddToUnitTime(int64_t nanos) { unit_.nanos += nanos; }
  // Adds to a workload counter (index into Shape::counters). Counted with the unit: a unit
  // abandoned on a lost connection takes its counts with it.
  void Count(int counter, int64_t delta) {
    if (delta != 0) unit_.counts.push_back({counter, delta});  // adding 0 changes nothing
  }
  // Adds to a workload counter whatever becomes of the unit: for what stays true when the unit
  // is abandoned, such as a commit whose answer the lost connection took with it (see
  // CommitInDoubt), or statements the server counted although the unit failed.
  void CountNow(int counter, int64_t delta) {
    if (delta != 0) unit_.counts_now.push_back({counter, delta});
  }
  // Sleeps `nanos` on the driver's clock inside a unit (a think time between statements),
  // returning early when the run ends; returns the time slept. Records nothing: the session
  // decides whether the sleep counts in a response time. The default (a context without a
  // sleeping clock) does not sleep.
  virtual int64_t Pause(int64_t /*nanos*/) { return 0; }
  // A message to the user's console (stderr), prefixed with the worker ("Thread 3: ..."). The
  // default drops it.
  virtual void Message(const std::string& /*text*/) {}
  int worker_index() const { return worker_index_; }
  // The terminal this unit runs for when the workload drives terminals (Workload::terminals()
  // > 0), else -1.
  virtual int64_t terminal() const { return -1; }
  // When the workload drives terminals: how long this unit's terminal had been due before a
  // worker (a connection) was free to take it; 0 when one was waiting for it, and otherwise.
  virtual int64_t queued_nanos() const { return 0; }

  // What the unit has recorded so far; BeginUnit clears it (the driver calls it before each
  // unit).
  const UnitRecord& unit() const { return unit_; }
  void BeginUnit() { unit_.Clear(); }

 protected:
  // Timed's failure path: `first` is the first try's failed status; returns the last try's.
  // The default tries once.
  virtual Status Retry(FunctionRef<Status()> /*fn*/, Status first) { return first; }
  int64_t Now() const { return monotonic_ ? MonotonicNanos() : clock_.NowNanos(); }
  const Clock& clock() const { return clock_; }
  // A reading of the clock inside the unit that is not a timed step's (a pause's end).
  void NoteClockRead(int64_t now) {
    unit_.last_read = now;
    unit_.read_clock = true;
  }

 private:
  const Clock& clock_;
  const bool monotonic_;  // clock_ is MonotonicNanos (read inline)
  const int worker_index_;
  UnitRecord unit_;
};

// One worker's view of the workload; owns that worker's connection. Used by one thread.
class Session {
 public:
  virtual ~Session() = default;
  // Performs one unit of work. OK: the unit completed (a rolled-back order is a completed unit
  // that counts a rollback). Non-OK: the worker must stop (the message says why).
  virtual Status RunUnit(OpContext& ctx) = 0;
};

// Per-type totals the driver hands back for the workload's own figures.
struct TypeTotals {
  uint64_t count = 0;
  int64_t sum_nanos = 0;
  int64_t p90_nanos = 0;  // 90th percentile (the histogram's, error <= 1 %)
};
struct Totals {
  std::vector<TypeTotals> types;  // index 0 = unit, then step types
  std::vector<int64_t> counters;  // workload counters
};

class Workload;

// Figures the driver measures about the measured window as a whole.
struct WindowFacts {
  double elapsed_sec = 0;
  int64_t unit_lastn_max_msec = 0;  // max unit response time of the last 100 units
  int64_t unit_sampled_msec = 0;    // mean unit response time of the last status interval
  // The instances whose totals `window` merges (a plan's aggregate), this one among them, for
  // figures that depend on each instance's own settings (TPC-C-like: its terminals); empty for
  // one instance's figures.
  std::vector<const Workload*> merged;
};

struct LoadContext {
  int threads = 1;        // parallel generator/loader threads
  int index_threads = 1;  // connections building indexes after the data (workload/index_build.h)
  bool force = false;     // replace an existing database of this workload
  std::string csv_dir;    // when set, also write the generated CSV files here
  uint64_t seed = 0;
  // Progress messages for the user (stderr).
  std::function<void(const std::string&)> progress;
  // When not null, receives the number of rows loaded.
  int64_t* rows_loaded = nullptr;
  // When not null, the loader declares its tables here and counts rows and bytes as they are
  // written (the driver shows progress from it).
  metrics::LoadMeter* meter = nullptr;
  // When not null, a stop request (SIGINT/SIGTERM): loaders check it between batches and return
  // Cancelled, leaving the database marked as not finished.
  const std::atomic<bool>* stop = nullptr;
  bool stop_requested() const { return stop != nullptr && stop->load(std::memory_order_relaxed); }
  // What a loader returns when it stops on request.
  static Status Stopped() {
    return Status::Cancelled(
        "load stopped by a signal; the database is not finished: load it again with --force");
  }
};

struct Check {
  std::string name;
  bool passed = false;
  std::string detail;
};

// One comparison of the server cross-check: a client count against the database's figure for the
// same span.
struct ServerComparison {
  std::string name;  // "committed_orders_vs_new_orders_rows"
  int64_t client = 0;
  int64_t server = 0;
  // true: the two must be equal; false: the server's figure also counts other work (the
  // driver's own transactions, other clients), so it need only be at least the client's.
  bool exact = true;
  std::string detail;  // what the two numbers are
  // Units whose commit the client could not confirm (CommitInDoubt): an exact comparison
  // passes when the server's figure is the client's or up to this many above it.
  int64_t in_doubt = 0;
};

// What the database says about a span of the run, for Workload::CompareWithServer.
struct ServerView {
  std::map<std::string, int64_t> probe_delta;    // Snapshot() after minus before
  std::map<std::string, int64_t> counter_delta;  // server counters by meaning, after − before
  // "statements.<kind>" counts failed statements too (Capabilities::
  // statement_counters_include_failed).
  bool statements_include_failed = false;
};

class Workload {
 public:
  virtual ~Workload() = default;
  // The name it is registered and selected by (--workload=NAME), recorded in results.
  virtual std::string name() const = 0;
  // What it measures (unit, steps, counters, headlines); the same object for the workload's
  // life, valid from construction (options are declared and results laid out from it).
  virtual const Shape& shape() const = 0;
  // Declares this workload's options (with their defaults and help) into `options`. Each option
  // is declared here once: the command line, plan files and --help all read this declaration.
  virtual void DeclareOptions(config::OptionSet* options) const = 0;
  // Reads the parsed options; an inconsistent combination is InvalidArgument.
  virtual Status Configure(const config::OptionSet& options) = 0;
  // Choices a result depends on (e.g. restock semantics), recorded in the result.
  virtual std::map<std::string, std::string> Choices() const = 0;
  // Selects the SQL dialect of the back end in use (DbBackend::dialect()), before any database
  // work.
  virtual void UseDialect(const std::string& dialect) {}
  // Called right after UseDialect: an option the back end cannot honour (stored procedures on a
  // back end without them, ...) is InvalidArgument, before any database work.
  virtual Status CheckCapabilities(const db::Capabilities& /*caps*/) { return Status::Ok(); }
  // Specification-style driving: the number of terminals the instance's workers serve (each
  // unit runs for one terminal, OpContext::terminal()); 0: each worker is its own closed or
  // open loop (the default).
  virtual int64_t terminals() const { return 0; }
  // Terminal `t` has just completed a unit (`first`: the run begins): chooses its next unit and
  // returns how long the terminal waits before it starts (the completed unit's think time plus
  // the next one's keying time). Called from several threads at once, for distinct terminals.
  virtual int64_t TerminalWaitNanos(int64_t terminal, bool first) { return 0; }
  // Tries per database call before a worker gives up (DVD Store 2: the first error ends it).
  virtual int max_failures() const { return 10; }
  // Background workers beside the run's workers (TPC-C's deferred Delivery): each opens its own
  // connection and gets a session from NewSession with a worker index from n_threads up. The
  // driver calls that session's RunUnit over and over until the run ends, with no pacing; each
  // call does a piece of background work or waits briefly (a tenth of a second at most) for some.
  // Its steps and counters are recorded; its calls are not units of the run (no unit count,
  // latency or per-worker share), and it takes no part in units_per_thread or units_total.
  virtual int background_workers() const { return 0; }
  // Warnings about the configuration, printed before a run and kept in its result.
  virtual std::vector<std::string> Warnings() const { return {}; }
  // Options whose value the run learned after parsing (TPC-C-like's warehouse count, read from
  // the database): the result's config block records these values, what ran.
  virtual std::map<std::string, std::string> RanOptions() const { return {}; }
  // Asked every second during a run, from the controller thread: an output the workload writes
  // while it runs (TPC-C-like's --delivery_log) that could not be written (a full disk). An
  // error ends the run at once, exit 1 naming the file. Thread-safe.
  virtual Status OutputError() const { return Status::Ok(); }
  // What a load created, for the load command's summary line ("DVD Store 3 db_size=S").
  virtual std::string Describe() const { return name(); }

  // Creates the schema and loads generated data. Refuses to replace an existing database unless
  // ctx.force, and never touches a database this workload did not create.
  virtual Status Load(db::DbBackend& backend, const LoadContext& ctx) = 0;
  // What Load would write, without writing anything (`oltp load --dry_run`): the plan as text for
  // the user, and the bytes it needs on the database's storage and, when ctx.csv_dir is set, for
  // the CSV files. Uses the dialect UseDialect chose. The default: this workload has no plan.
  struct LoadPlan {
    std::string text;
    int64_t server_bytes = 0;
    int64_t csv_bytes = 0;
  };
  // What a run can change in the database, in `dialect`'s names (db::RunWrites), for restores;
  // the default says nothing, and a restore then compares every table.
  virtual std::optional<db::RunWrites> WhatRunsWrite(const std::string& /*dialect*/) const {
    return std::nullopt;
  }
  virtual Result<LoadPlan> PlanLoad(const LoadContext& /*ctx*/) const {
    return Status::InvalidArgument("load --dry_run: the " + name() +
                                   " workload has no load plan to show (DVD Store has)");
  }
  // Removes what Load created (sysbench's cleanup), reporting each table through `progress`;
  // leaves alone a database this workload did not create. Unimplemented by default.
  virtual Status Cleanup(db::DbBackend& /*backend*/,
                         const std::function<void(const std::string&)>& /*progress*/) {
    return Status::InvalidArgument("the " + name() + " workload has no cleanup");
  }
  // Checks that the database holds this workload at the configured size (FailedPrecondition
  // naming the problem otherwise).
  virtual Status CheckReady(db::Connection& conn) = 0;
  // A new session for worker `worker` on its own connection, with its own random stream. Called
  // from each worker's thread, several at once, and again after a reconnect.
  virtual Result<std::unique_ptr<Session>> NewSession(std::unique_ptr<db::Connection> conn,
                                                      uint64_t seed, int worker) = 0;
  // Database facts before a run that Verify compares against (e.g. ORDERS row count); also the
  // server cross-check's readings at the window's start and end (ServerView::probe_delta).
  virtual Result<std::map<std::string, int64_t>> Snapshot(db::Connection& conn) = 0;
  // The server cross-check: compares the client's totals over a span (`span`) with what the
  // database says about the same span (`server`): the change of this workload's own Snapshot()
  // and the server counters' deltas by meaning (db::ServerCounter). Comparisons whose figures are
  // missing (e.g. no server counters on SQLite) are left out.
  virtual std::vector<ServerComparison> CompareWithServer(const Totals& span,
                                                          const ServerView& server) const {
    return {};
  }
  // Figures from what the database says about a span (`server`: the server cross-check's
  // readings at the measured window's start and end; `seconds`: the measured window's length),
  // appended to the result's figures (a TPC-C-like run's NOPM from sum(D_NEXT_O_ID) and TPM
  // from the server's commit counters). Figures whose readings are missing are left out.
  virtual std::vector<std::pair<std::string, double>> ServerFigures(const Totals& span,
                                                                    const ServerView& server,
                                                                    double seconds) const {
    return {};
  }
  // Consistency checks after a run. `before` is Snapshot() from before the run (empty when
  // verify runs on its own); `whole_run` are the client's totals over the whole run (null when
  // verify runs on its own). A failed check is a Check with passed false; a non-OK Status means
  // the checks could not be made.
  virtual Result<std::vector<Check>> Verify(db::Connection& conn,
                                            const std::map<std::string, int64_t>& before,
                                            const Totals* whole_run) = 0;
  // The workload's figures in canonical order (DVD Store: the Final line's fields).
  // `window` covers the measured window; `since_start` the whole run (for bug-compatible
  // accounting).
  virtual std::vector<std::pair<std::string, double>> Figures(const Totals& window,
                                                              const Totals& since_start,
                                                              const WindowFacts& facts) const = 0;
};

}  // namespace sb::workload

#endif  // STOREBENCH_INCLUDE_STOREBENCH_WORKLOAD_H_
