// A TPC-C-like workload (reference: the TPC-C specification, revision 5.11; HammerDB's TPROC-C
// for the NOPM/TPM figures; docs/tpcc.md). Not a TPC benchmark: its results are not TPC results.
//
// Schema and data of clause 1.3 and 4.3, loaded per warehouse in parallel through the back end's
// bulk path; the five transactions of clauses 2.4-2.8 as client SQL, one transaction per unit
// of work, on a home warehouse per worker; the consistency conditions 1-4 of clause 3.3.2 as
// verify.
#ifndef STOREBENCH_WORKLOAD_TPCC_TPCC_WORKLOAD_H_
#define STOREBENCH_WORKLOAD_TPCC_TPCC_WORKLOAD_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "storebench/workload.h"
#include "workload/tpcc/delivery_log.h"
#include "workload/tpcc/delivery_queue.h"
#include "workload/tpcc/tpcc_random.h"

namespace sb::tpcc {

// Whose choices the run makes where the specification and HammerDB's TPROC-C differ
// (docs/tpcc.md, "Profiles": one row per choice, with HammerDB's source lines).
enum class Profile {
  kSpec,      // TPC-C revision 5.11 (the default)
  kHammerDb,  // HammerDB TPROC-C, so that NOPM can be compared with HammerDB's on one server
};

struct TpccOptions {
  int64_t warehouses = 1;
  Mix mix{MixKind::kDeck};  // a fresh mix, copied for each worker and terminal
  std::string mix_name = "deck";
  Profile profile = Profile::kSpec;
  // --profile=hammerdb on PostgreSQL: a New-Order with the unused item commits (HammerDB's
  // PostgreSQL NEWORD does); elsewhere it rolls back (the specification, HammerDB's MariaDB).
  bool unused_item_commits = false;
  // Customers with bad credit at load, in percent: 10 (clause 4.3.3.1) or HammerDB's 50.
  int bad_credit_pct = 10;
  // HammerDB's "use all warehouses": worker k of V picks, for each transaction, one of the
  // warehouses k+1, k+1+V, k+1+2V, ...; off: worker k's home warehouse is k mod W + 1.
  bool all_warehouses = false;
  int64_t threads = 1;    // workers of the run (for all_warehouses)
  uint64_t run_seed = 1;  // draws C-Run, shared by every worker
  // Tests: every unit runs this transaction type (a TxnType) instead of the mix; -1: the mix.
  int only_type = -1;
  // Specification-style driving (--keying_and_thinking): `terminals` terminals (default 10 per
  // warehouse) with keying and think times, served by the workers' connections.
  bool keying = false;
  int64_t terminals = 0;  // as given; 0 = 10 per warehouse
  // --sql_mode=procedures: each transaction is one call of a stored procedure
  // (sql/<dialect>/procedures.sql) that does what the client statements do.
  bool procedures = false;
  // --delivery=deferred (the default): Delivery queues its request; the delivery thread runs it
  // (clause 2.7.2). Inline with --delivery=inline, and by default with --profile=hammerdb.
  bool deferred_delivery = true;
  // --delivery_log: the deferred Deliveries' result file (clause 2.7.2.2); "" for none.
  std::string delivery_log;
};

// One terminal of specification-style driving: its home warehouse, its Stock-Level district,
// the transaction it is keying next, and its own random stream and deck. About 100 bytes.
struct TerminalState {
  explicit TerminalState(uint64_t seed, const Mix& mix) : rng(seed), mix(mix) {}
  Random rng;
  Mix mix;
  int64_t home = 1;
  int64_t district = 1;
  TxnType next = kNewOrder;
};

// The specification's keying time and mean think time of each transaction type, in seconds
// (clause 5.2.5.7), and a think time drawn from the truncated negative exponential (clause
// 5.2.5.4: -ln(r) * mean, r in (0, 1], cut at 10 * mean).
double KeyingSeconds(TxnType t);
double MeanThinkSeconds(TxnType t, Profile p = Profile::kSpec);
int64_t DrawThinkNanos(Random& rng, TxnType t, Profile p = Profile::kSpec);
// HammerDB's think time (docs/tpcc.md): the means of Order-Status and Delivery swapped (5 and
// 10 s), |round(ln(r) * mean)| whole seconds, no cap.

// The most New-Orders per minute per warehouse's worth (10) of terminals keying and thinking
// can issue with `mix`: 10 x 60 x share(New-Order) / mean(keying + think) over the mix, with
// no response time (12.86 for 45/43/4/4/4, 12.61 for 10/10/1/1/1 of 23).
double CeilingTpmcPerWarehouse(const Mix& mix, Profile p);

// The step type after the five transactions': a deferred Delivery's execution, timed from its
// queuing to its commit (--delivery=deferred).
constexpr int kDeferredDeliveryStep = kNumTxnTypes;

// Workload counters (Shape::counters order).
enum Counter {
  kRollbacks = 0,        // New-Orders rolled back by their unused item (clause 2.4.2.3)
  kOrderLines,           // lines of committed New-Orders
  kRemoteLines,          // of which supplied by another warehouse
  kPaymentsByName,       // Payments that chose the customer by last name
  kRemotePayments,       // Payments of a customer of another warehouse
  kOrderStatusByName,    // Order-Status by last name
  kDeliveredOrders,      // orders Delivery delivered
  kSkippedDistricts,     // districts Delivery found without a new order
  kNewOrdersInDoubt,     // New-Orders whose COMMIT lost its connection: committed or not
  kDeliveriesWithSkips,  // Deliveries that skipped at least one district (clause 2.7.4)
  kNumCounters
};

class TpccWorkload final : public workload::Workload {
 public:
  TpccWorkload();
  std::string name() const override { return "tpcc"; }
  const workload::Shape& shape() const override { return shape_; }
  void DeclareOptions(config::OptionSet* options) const override;
  Status Configure(const config::OptionSet& options) override;
  std::map<std::string, std::string> Choices() const override;
  void UseDialect(const std::string& dialect) override { dialect_ = dialect; }
  Status CheckCapabilities(const db::Capabilities& caps) override;
  std::string Describe() const override {
    return "TPC-C-like, " + std::to_string(opts_.warehouses) + " warehouse" +
           (opts_.warehouses == 1 ? "" : "s");
  }

  Status Load(db::DbBackend& backend, const workload::LoadContext& ctx) override;
  Status CheckReady(db::Connection& conn) override;
  Result<std::unique_ptr<workload::Session>> NewSession(std::unique_ptr<db::Connection> conn,
                                                        uint64_t seed, int worker) override;
  // sum(D_NEXT_O_ID): HammerDB's NOPM probe.
  Result<std::map<std::string, int64_t>> Snapshot(db::Connection& conn) override;
  // Committed New-Orders against the change of sum(D_NEXT_O_ID) (equal, or above by at most the
  // New-Orders in doubt), and every transaction
  // against the server's commits + rollbacks (at least).
  std::vector<workload::ServerComparison> CompareWithServer(
      const workload::Totals& span, const workload::ServerView& server) const override;
  std::vector<std::pair<std::string, double>> ServerFigures(const workload::Totals& span,
                                                            const workload::ServerView& server,
                                                            double seconds) const override;
  Result<std::vector<workload::Check>> Verify(db::Connection& conn,
                                              const std::map<std::string, int64_t>& before,
                                              const workload::Totals* whole_run) override;
  std::vector<std::pair<std::string, double>> Figures(
      const workload::Totals& window, const workload::Totals& since_start,
      const workload::WindowFacts& facts) const override;

  int64_t terminals() const override {
    return opts_.keying ? static_cast<int64_t>(terminals_.size()) : 0;
  }
  int64_t TerminalWaitNanos(int64_t terminal, bool first) override;
  // --delivery=deferred: one delivery thread.
  int background_workers() const override { return opts_.deferred_delivery ? 1 : 0; }
  // More than 10 terminals (or workers) per warehouse (clause 4.2.2: 10 per warehouse).
  std::vector<std::string> Warnings() const override;
  // The warehouse count the run used (learned from the database when not given).
  Status OutputError() const override {
    return delivery_log_ ? delivery_log_->error() : Status::Ok();
  }
  std::map<std::string, std::string> RanOptions() const override {
    return {{"warehouses", std::to_string(opts_.warehouses)}};
  }

  const TpccOptions& options() const { return opts_; }
  // The New-Orders per minute this instance's terminals (or, without keying, its warehouses)
  // allow at most: the efficiency ceiling times the warehouses' worth.
  double CeilingNewOrdersPerMinute() const;
  // Deferred Deliveries still queued.
  double QueuedDeliveries() const;
  const std::vector<TerminalState>* terminal_states() const { return &terminals_; }
  const CConstants& run_constants() const { return run_c_; }

 private:
  // The instances a window's totals merge (facts.merged), or this one alone.
  std::vector<const TpccWorkload*> Merged(const workload::WindowFacts& facts) const;
  workload::Shape shape_;
  TpccOptions opts_;
  bool warehouses_given_ = false;
  bool sql_mode_given_ = false;
  // The database's bad-credit share as loaded (storebench_meta), -1 before CheckReady.
  int loaded_bad_credit_pct_ = -1;
  std::string dialect_ = "sqlite";
  // A back end that keeps no data (null://, Capabilities::keeps_data false): the run measures
  // the driver. Each transaction is one call (the procedures path, whose calls need no rows
  // back), with the PostgreSQL call texts, which never reach a database.
  bool no_data_ = false;
  // The dialect whose SQL files the sessions use: dialect_, or "postgres" with no_data_.
  std::string SqlDialect() const { return no_data_ ? "postgres" : dialect_; }
  CConstants run_c_;
  int64_t c_last_load_ = -1;
  // The run's state after the database checks: the C_LAST load constant, the deferred
  // Deliveries' queue and result file, the run constants.
  Status PrepareRun(int64_t c_last_load);
  // Makes the terminals of --keying_and_thinking for the current warehouse count.
  void MakeTerminals();
  // InvalidArgument when --keying_and_thinking has fewer terminals than connections.
  Status CheckTerminalCount() const;
  std::vector<TerminalState> terminals_;
  // --delivery=deferred: the queued Deliveries of the current run (made by CheckReady).
  std::shared_ptr<DeliveryQueue> deliveries_;
  // --delivery_log: the result file, opened (truncated) by CheckReady, before the run.
  std::shared_ptr<DeliveryLog> delivery_log_;
};

// The statements of `file` ("queries.sql", "admin.sql", ...) for `dialect`, or a whole script:
// sql/<dialect>/<file>, else sql/common/<file> (workload/sql_files.h); NotFound when neither.
Result<std::map<std::string, std::string>> TpccSql(const std::string& dialect,
                                                   const std::string& file);
Result<std::string> TpccScript(const std::string& dialect, const std::string& file);

// Loads the generated rows of `warehouses` warehouses (loader.cc).
Status LoadTpccData(db::DbBackend& backend, int64_t warehouses, int64_t c_last_load,
                    int bad_credit_pct, const workload::LoadContext& ctx);

// A session for worker `worker` (session.cc). With `deliveries` (--delivery=deferred), the
// terminals' Deliveries go into it, and a worker numbered from opts.threads up is the delivery
// thread, which runs them and, with `log`, writes each one's line to it.
Result<std::unique_ptr<workload::Session>> NewTpccSession(
    std::unique_ptr<db::Connection> conn, std::map<std::string, std::string> sql,
    const TpccOptions& opts, const CConstants& run_c, uint64_t seed, int worker,
    const std::vector<TerminalState>* terminals = nullptr,
    std::shared_ptr<DeliveryQueue> deliveries = nullptr,
    std::shared_ptr<DeliveryLog> log = nullptr);

}  // namespace sb::tpcc

#endif  // STOREBENCH_WORKLOAD_TPCC_TPCC_WORKLOAD_H_
