// The DVD Store 2/3-compatible workload (reference: DVD Store 3's source,
// github.com/dvdstore/ds3, and docs/dvdstore.md): schema and generated
// data, the order loop, verification and the Final-line figures.
#ifndef STOREBENCH_WORKLOAD_DVDSTORE_DVDSTORE_WORKLOAD_H_
#define STOREBENCH_WORKLOAD_DVDSTORE_DVDSTORE_WORKLOAD_H_

#include <map>
#include <memory>
#include <vector>

#include "storebench/workload.h"
#include "workload/dvdstore/foreign_db.h"
#include "workload/dvdstore/sizes.h"

namespace sb::workload {
class StoreMeta;
}

namespace sb::dvdstore {

// The order-loop parameters, under their DVD Store names (spec §6.1).
struct DsOptions {
  DsSize size;
  bool ds2_mode = false;
  bool bug_compat = false;  // reproduce spec §8.1 items 1, 2, 3 (numbers-changing quirks)
  int64_t pct_newcustomers = 20;
  int64_t pct_newmember = 1;
  int64_t n_searches = 3;
  int64_t search_batch_size = 5;
  int64_t search_depth = 500;
  int64_t n_reviews = 3;
  int64_t pct_newreviews = 5;
  int64_t pct_newhelpfulness = 10;
  int64_t n_line_items = 5;
  // --sql_mode=procedures: each step is one call of a stored procedure (procedures.sql)
  // instead of the driver's prepared statements (queries.sql).
  bool procedures = false;
  // --procedures_only=Y (load): install the stored procedures into an existing database only.
  bool procedures_only = false;
  // A database built by DVD Store's scripts: browse for these titles and actors (sampled from its
  // PRODUCTS rows) instead of storebench's word lists. Null for storebench's own databases.
  std::shared_ptr<const BrowseWords> browse_words;
};

// Step type indexes (Shape::step_types order) and counters.
enum Step {
  kLogin = 0,
  kNewCust,
  kNewMember,
  kBrowse,
  kReviewBrowse,
  kNewReview,
  kNewHelpfulness,
  kPurchase,
  kNumSteps
};
enum Counter {
  kRollbacks = 0,  // purchases rolled back, short of stock
  kPurchaseLines,  // lines of committed purchases
  kOrdersInDoubt,  // purchases whose commit lost its connection: committed or not
  kNumCounters
};

// Every DVD Store purchase may hold at most this many lines (the SQL Server and PostgreSQL
// procedures take ten product/quantity pairs; the drivers truncate longer carts).
constexpr int kMaxCartLines = 10;

class DvdStoreWorkload final : public workload::Workload {
 public:
  DvdStoreWorkload();
  std::string name() const override { return "dvdstore"; }
  const workload::Shape& shape() const override { return shape_; }
  void DeclareOptions(config::OptionSet* options) const override;
  Status Configure(const config::OptionSet& options) override;
  std::map<std::string, std::string> Choices() const override;

  Status Load(db::DbBackend& backend, const workload::LoadContext& ctx) override;
  Status CheckReady(db::Connection& conn) override;
  Result<std::unique_ptr<workload::Session>> NewSession(std::unique_ptr<db::Connection> conn,
                                                        uint64_t seed, int worker) override;
  Result<std::map<std::string, int64_t>> Snapshot(db::Connection& conn) override;
  // Committed orders against the new ORDERS rows (equal), and against the server's commits and
  // rollbacks (at least).
  std::vector<workload::ServerComparison> CompareWithServer(
      const workload::Totals& span, const workload::ServerView& server) const override;
  Result<std::vector<workload::Check>> Verify(db::Connection& conn,
                                              const std::map<std::string, int64_t>& before,
                                              const workload::Totals* whole_run) override;
  std::vector<std::pair<std::string, double>> Figures(
      const workload::Totals& window, const workload::Totals& since_start,
      const workload::WindowFacts& facts) const override;

  void UseDialect(const std::string& dialect) override { dialect_ = dialect; }
  // load --dry_run (dvdstore_plan.cc): the tables' rows and row text, and disk and time scaled
  // from a load measured on this project's test machine.
  Result<LoadPlan> PlanLoad(const workload::LoadContext& ctx) const override;
  // A run appends orders, their lines and history, customers, reviews and helpfulness ratings
  // (each above the loaded largest id), and changes inventory, membership and reorder
  // (run_writes.cc).
  std::optional<db::RunWrites> WhatRunsWrite(const std::string& dialect) const override;
  Status CheckCapabilities(const db::Capabilities& caps) override;
  int max_failures() const override { return opts_.ds2_mode ? 1 : 10; }  // spec §6.6
  std::string Describe() const override {
    if (opts_.procedures_only) return "the DVD Store stored procedures (--procedures_only)";
    return std::string("DVD Store ") + (opts_.ds2_mode ? "2" : "3") +
           " db_size=" + opts_.size.label;
  }

  const DsOptions& options() const { return opts_; }

 private:
  // Appends the full_text_title / full_text_actor checks (browse finds product 1).
  Status CheckFullText(db::Connection& conn, const std::string& product_words,
                       std::vector<workload::Check>* checks);

  // run/verify on a database built by DVD Store's scripts (foreign_db.h): its size, browse
  // words and differences; with --adopt, records it in storebench_meta (origin=ds3_scripts).
  Status UseForeignDb(db::Connection& conn, workload::StoreMeta& meta, bool adopted);
  // The product array of spec §5.9 for opts_.size.
  void BuildProductArray();

  workload::Shape shape_;
  DsOptions opts_;
  bool adopt_ = false;
  bool ds3_csv_layout_ = false;                   // --csv_layout=ds3 or ds3_windows
  bool ds3_csv_crlf_ = false;                     // --csv_layout=ds3_windows
  std::vector<std::string> foreign_differences_;  // empty: a database storebench loaded
  std::string foreign_counts_;
  std::map<std::string, std::string> foreign_choices_;  // ForeignDb::choices
  bool size_given_ = false;
  std::string dialect_ = "sqlite";
  std::shared_ptr<const std::vector<int32_t>> prod_array_;
};

// Creates a session (defined in session.cc).
std::unique_ptr<workload::Session> NewDvdStoreSession(
    std::unique_ptr<db::Connection> conn, const DsOptions& opts,
    std::shared_ptr<const std::vector<int32_t>> prod_array, std::map<std::string, std::string> sql,
    uint64_t seed, Status* status);

// Installs procedures.sql into a loaded database and records its fingerprint in
// storebench_meta (defined in procedures.cc). `drop_first`: drop the procedures of storebench's
// names first; callers ask for it only in a database that already held storebench's DVD Store
// tables (in a fresh load, a procedure of the same name that storebench did not create makes
// the install fail instead of being replaced). `meta_set` is the dialect's admin statement
// that writes one meta key.
Status InstallProcedures(db::Connection& conn, const std::string& dialect, bool ds2_mode,
                         const std::string& meta_set, bool drop_first);
// Drops the procedures a load installed (drop_procedures.sql); a no-op for dialects without.
Status DropProcedures(db::Connection& conn, const std::string& dialect);
// A fingerprint of the procedures this build installs for `dialect`; empty when the dialect has
// none. A database whose recorded fingerprint differs holds another version of them.
std::string ProceduresFingerprint(const std::string& dialect, bool ds2_mode);
// The statements of procedures mode: calls.sql, plus the client's untimed price lookup.
Result<std::map<std::string, std::string>> ProcedureCalls(const std::string& dialect);

// Loads generated data (defined in loader.cc).
Status LoadDvdStore(db::DbBackend& backend, const DsOptions& opts, const std::string& dialect,
                    const workload::LoadContext& ctx);
// How LoadDvdStore sends the data into `backend`, in words, for storebench_meta's load_session.
std::string DvdStoreLoadSession(const db::DbBackend& backend);

}  // namespace sb::dvdstore

#endif  // STOREBENCH_WORKLOAD_DVDSTORE_DVDSTORE_WORKLOAD_H_
