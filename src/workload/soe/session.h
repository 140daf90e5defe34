// One Order Entry user's session (internal to the soe workload): picks a transaction by weight,
// draws its inputs (tx_inputs.h) and runs it either as client SQL, the steps of Swingbench's
// PL/SQL package (version 2, docs/soe.md) sent statement by statement (session.cc), or as one
// call of the stored procedure that does the same steps on the server (procedure_calls.cc).
#ifndef STOREBENCH_WORKLOAD_SOE_SESSION_H_
#define STOREBENCH_WORKLOAD_SOE_SESSION_H_

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "workload/soe/soe_workload.h"
#include "workload/soe/tx_inputs.h"

namespace sb::soe {

class SoeSession final : public workload::Session {
 public:
  // `seed` drives the transaction mix and inputs; think times come from a stream of their own,
  // so the rows a run leaves do not depend on the delays.
  SoeSession(std::unique_ptr<db::Connection> conn, SoeOptions opts, TxMix mix, uint64_t seed,
             std::shared_ptr<std::vector<std::atomic<int64_t>>> user_units);

  // Prepares every statement of `sql` (queries.sql, or calls.sql in procedures mode).
  Status Prepare(const std::map<std::string, std::string>& sql);
  Status RunUnit(workload::OpContext& ctx) override;

 private:
  db::Statement& S(const char* name) { return *stmts_.at(name); }

  // The intra-transaction think range the variant sleeps: (0, 0) when the package's guard
  // (both bounds non-zero) says none.
  std::pair<int64_t, int64_t> ThinkRange() const;
  // Think time between a transaction's statements (client mode); adds to slept_.
  void Think();
  bool jdbc() const { return opts_.variant == SoeVariant::kJdbc; }
  // Runs a query and reads all its rows through `row` (may be null).
  Status Query(db::Statement& s, const std::function<void(db::Statement&)>& row);
  Status Write(db::Statement& s, Counter kind);
  Result<int64_t> NextId(const char* name);
  Status Begin();
  Status Commit();
  // Rows a committed transaction adds (counted at its commit).
  void AddsRow(Counter c) { ++pending_rows_[c]; }
  // A logon: one row in LOGON (when in.logon_row), committed on its own; package 2.1 reads the
  // customer first.
  Status Logon(int64_t customer, const TxInputs& in);
  Status InsertAddress(int64_t address, int64_t customer, const TxInputs& in);

  Status Run(int tx, const TxInputs& in);
  Status NewCustomer(const TxInputs& in);
  Status UpdateCustomerDetails(const TxInputs& in);
  Status BrowseProducts(const TxInputs& in);
  Status NewOrder(const TxInputs& in);
  Status ProcessOrders(const TxInputs& in);
  Status BrowseAndUpdateOrders(const TxInputs& in);
  Status SimpleQuery(const char* name, int64_t key);
  // Procedures mode: one call (procedure_calls.cc).
  Status CallProcedure(int tx, const TxInputs& in);

  std::unique_ptr<db::Connection> conn_;
  SoeOptions opts_;
  TxMix mix_;
  Random rng_;        // the mix and the transactions' inputs
  Random think_rng_;  // think times
  std::map<std::string, std::unique_ptr<db::Statement>> stmts_;
  workload::OpContext* ctx_ = nullptr;
  int64_t slept_ = 0;
  bool in_txn_ = false;
  std::map<Counter, int64_t> counts_;
  std::map<Counter, int64_t> pending_rows_;
  // Rows of this unit whose commit lost its connection, by in-doubt counter (CountNow'ed).
  std::map<Counter, int64_t> in_doubt_;
  std::shared_ptr<std::vector<std::atomic<int64_t>>> user_units_;  // pooled users, else null
};

}  // namespace sb::soe

#endif  // STOREBENCH_WORKLOAD_SOE_SESSION_H_
