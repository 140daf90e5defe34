// The Order-Entry-like workload (--workload soe), after Swingbench's SOE benchmark as
// docs/soe.md describes it: its schema sized by --soe_scale, its nine transactions picked by
// integer weights, intra- and inter-transaction think times, a query timeout, and Swingbench
// XML configuration files (swingbench_config.h). One unit of work is one transaction; its step
// type is the transaction's short name (NCR, UCD, BP, OP, PO, BO, SQ, WQ, WA).
#ifndef STOREBENCH_WORKLOAD_SOE_SOE_WORKLOAD_H_
#define STOREBENCH_WORKLOAD_SOE_SOE_WORKLOAD_H_

#include <array>
#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "storebench/workload.h"
#include "workload/soe/soe_model.h"
#include "workload/soe/tx_inputs.h"

namespace sb::soe {

struct SoeOptions {
  SoeSize size;
  std::array<int64_t, kNumTx> weights{};
  Delays delays;
  int64_t query_timeout_sec = 0;  // 0: none
  // --sql_mode=procedures: each transaction is one call of its stored procedure
  // (sql/<dialect>/procedures.sql), as Swingbench's PL/SQL benchmark calls its ORDERENTRY package.
  bool procedures = false;
  // --soe_variant: whose steps and constants the transactions follow (tx_inputs.h).
  SoeVariant variant = SoeVariant::kPlsql21;
  // The back end keeps no rows (null://): a sequence's next value reads as 0.
  bool no_data = false;
  // --soe_users N > 0: Swingbench's connection pooling. N users share the --n_threads
  // connections (the pool): a user borrows one for each transaction and gives it back after,
  // and waits for one when every connection is busy. 0: each thread is a user with its own
  // connection for the whole run.
  int64_t users = 0;
  int64_t pool_size = 1;  // --n_threads: the pool's connections when users > 0
  // What the Swingbench config file asked for that storebench does not do, and its name.
  std::string config_not_honoured;
  std::string config_name;
};

// Workload counters (Shape::counters order): failed transactions, the statements the client
// ran by kind (Swingbench's DML figures), the rows it added, then failed transactions by type.
enum Counter {
  kFailed = 0,
  kSelects,
  kInserts,
  kUpdates,
  kDeletes,
  kCommits,
  kRollbacks,
  kNewOrders,
  kNewCustomers,
  kNewLogons,
  kPoolWaits,       // transactions whose user waited for a free pooled connection
  kPoolWaitMicros,  // the time they waited, in microseconds
  // Rows whose commit lost its connection (workload::CommitInDoubt): committed or not.
  kNewOrdersInDoubt,
  kNewCustomersInDoubt,
  kNewLogonsInDoubt,
  kFailedByTx,  // + tx
  kNumCounters = kFailedByTx + kNumTx
};
// Each row counter's in-doubt counter lies at the same distance (session.cc's InDoubtOf).
static_assert(kNewCustomersInDoubt - kNewOrdersInDoubt == kNewCustomers - kNewOrders &&
              kNewLogonsInDoubt - kNewOrdersInDoubt == kNewLogons - kNewOrders);

class SoeWorkload final : public workload::Workload {
 public:
  SoeWorkload();
  std::string name() const override { return "soe"; }
  const workload::Shape& shape() const override { return shape_; }
  void DeclareOptions(config::OptionSet* options) const override;
  Status Configure(const config::OptionSet& options) override;
  std::map<std::string, std::string> Choices() const override;
  std::vector<std::string> Warnings() const override;
  void UseDialect(const std::string& dialect) override { dialect_ = dialect; }
  std::string Describe() const override { return "Order Entry soe_scale=" + opts_.size.label(); }
  // The scale the run used: the database's (CheckReady reads it), not the option's default.
  std::map<std::string, std::string> RanOptions() const override {
    return {{"soe_scale", opts_.size.label()}};
  }

  Status CheckCapabilities(const db::Capabilities& caps) override;
  // With --soe_users: the users are the driver's terminals, served by the pool's connections.
  int64_t terminals() const override { return opts_.users; }
  // A user's inter-transaction delay, waited out before it borrows a connection.
  int64_t TerminalWaitNanos(int64_t terminal, bool first) override;

  Status Load(db::DbBackend& backend, const workload::LoadContext& ctx) override;
  Status CheckReady(db::Connection& conn) override;
  Result<std::unique_ptr<workload::Session>> NewSession(std::unique_ptr<db::Connection> conn,
                                                        uint64_t seed, int worker) override;
  Result<std::map<std::string, int64_t>> Snapshot(db::Connection& conn) override;
  // New orders, customers and logons against the tables' growth (equal); statements by kind
  // against the server's statement counters (at least: retried attempts count there too).
  std::vector<workload::ServerComparison> CompareWithServer(
      const workload::Totals& span, const workload::ServerView& server) const override;
  Result<std::vector<workload::Check>> Verify(db::Connection& conn,
                                              const std::map<std::string, int64_t>& before,
                                              const workload::Totals* whole_run) override;
  std::vector<std::pair<std::string, double>> Figures(
      const workload::Totals& window, const workload::Totals& since_start,
      const workload::WindowFacts& facts) const override;

  // --retries: tries per database call beyond the first (the driver's retry policy).
  int max_failures() const override { return static_cast<int>(retries_) + 1; }

  const SoeOptions& options() const { return opts_; }

 private:
  workload::Shape shape_;
  SoeOptions opts_;
  bool scale_given_ = false;
  bool timeout_given_ = false;
  std::string dialect_ = "sqlite";
  bool no_data_ = false;        // a back end that keeps no rows (null://)
  std::string variant_reason_;
  int64_t retries_ = 9;  // why --soe_variant is what it is (the result's choices)
  // The dialect whose SQL files the sessions prepare: dialect_, or "postgres" without data.
  std::string SqlDialect() const { return no_data_ ? "postgres" : dialect_; }
  uint64_t run_seed_ = 1;
  // With --soe_users: each user's stream of inter-transaction delays (a user is served by one
  // worker at a time), and the transactions each user completed.
  std::vector<Random> user_rngs_;
  std::shared_ptr<std::vector<std::atomic<int64_t>>> user_units_;
};

// The SQL files (sql/<dialect>/<file>, else sql/common/<file>: workload/sql_files.h), compiled
// in. NotFound when neither exists.
Result<std::string> SoeSqlScript(const std::string& dialect, const std::string& file);
Result<std::map<std::string, std::string>> SoeSqlQueries(const std::string& dialect,
                                                         const std::string& file);

// Generates and bulk loads the data (loader.cc).
Status LoadSoeData(db::DbBackend& backend, const SoeSize& size, const workload::LoadContext& ctx,
                   int64_t* rows_loaded);

// A session (session.cc). `sql` holds queries.sql's statements, or calls.sql's in procedures
// mode. `user_units` (pooled users only, else null): the transactions each user completed.
Result<std::unique_ptr<workload::Session>> NewSoeSession(
    std::unique_ptr<db::Connection> conn, const SoeOptions& opts,
    const std::map<std::string, std::string>& sql, uint64_t seed,
    std::shared_ptr<std::vector<std::atomic<int64_t>>> user_units);

}  // namespace sb::soe

#endif  // STOREBENCH_WORKLOAD_SOE_SOE_WORKLOAD_H_
