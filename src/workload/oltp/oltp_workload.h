// The sysbench-style OLTP workload (--workload oltp): tables sbtest1..N (id, k with a secondary
// index, c CHAR(120), pad CHAR(60)) and sysbench's transaction types with its per-transaction
// statement counts and options. One unit of work is one sysbench "event" (a transaction, or a
// single statement for point_select/update_*/insert/delete with --skip_trx).
#ifndef STOREBENCH_WORKLOAD_OLTP_OLTP_WORKLOAD_H_
#define STOREBENCH_WORKLOAD_OLTP_OLTP_WORKLOAD_H_

#include <map>
#include <string>

#include "storebench/workload.h"
#include "workload/oltp/key_dist.h"

namespace sb::oltp {

enum class TestType {
  kReadWrite,
  kReadOnly,
  kPointSelect,
  kWriteOnly,
  kUpdateIndex,
  kUpdateNonIndex,
  kInsert,
  kDelete
};

struct OltpOptions {
  TestType test = TestType::kReadWrite;
  std::string test_name = "read_write";
  int64_t tables = 1;
  int64_t table_size = 10000;
  int64_t range_size = 100;
  int64_t point_selects = 10;
  int64_t simple_ranges = 1, sum_ranges = 1, order_ranges = 1, distinct_ranges = 1;
  int64_t index_updates = 1, non_index_updates = 1, delete_inserts = 1;
  bool range_selects = true;
  bool skip_trx = false;
  KeyDistParams keys;
};

// Counters (Shape::counters order).
enum OltpCounter { kReads = 0, kWrites, kOther, kRowsInserted, kRowsDeleted, kNumOltpCounters };

// Statements by the kind a server counts them, every attempt of a retried transaction included:
// counters kSentBase + kind (sent to the server) and kFailedBase + kind (of those, failed), so
// the server cross-check compares what the server saw (a retried transaction's statements reach
// the server's counters too).
enum StatementKind { kSelect = 0, kInsert, kUpdate, kDelete, kBegin, kCommit, kNumKinds };
constexpr const char* kKindNames[kNumKinds] = {"select", "insert", "update",
                                               "delete", "begin",  "commit"};
constexpr int kSentBase = kNumOltpCounters;
constexpr int kFailedBase = kSentBase + kNumKinds;

class OltpWorkload final : public workload::Workload {
 public:
  OltpWorkload();
  std::string name() const override { return "oltp"; }
  const workload::Shape& shape() const override { return shape_; }
  void DeclareOptions(config::OptionSet* options) const override;
  Status Configure(const config::OptionSet& options) override;
  std::map<std::string, std::string> Choices() const override;
  void UseDialect(const std::string& dialect) override { dialect_ = dialect; }
  std::string Describe() const override;

  Status Load(db::DbBackend& backend, const workload::LoadContext& ctx) override;
  Status Cleanup(db::DbBackend& backend,
                 const std::function<void(const std::string&)>& progress) override;
  Status CheckReady(db::Connection& conn) override;
  Result<std::unique_ptr<workload::Session>> NewSession(std::unique_ptr<db::Connection> conn,
                                                        uint64_t seed, int worker) override;
  Result<std::map<std::string, int64_t>> Snapshot(db::Connection& conn) override;
  // Statements by kind (select, insert, update, delete, begin) against the server's statement
  // counters (equal), commits (at least), and the rows added against the tables' row count.
  std::vector<workload::ServerComparison> CompareWithServer(
      const workload::Totals& span, const workload::ServerView& server) const override;
  Result<std::vector<workload::Check>> Verify(db::Connection& conn,
                                              const std::map<std::string, int64_t>& before,
                                              const workload::Totals* whole_run) override;
  std::vector<std::pair<std::string, double>> Figures(
      const workload::Totals& window, const workload::Totals& since_start,
      const workload::WindowFacts& facts) const override;

  const OltpOptions& options() const { return opts_; }

 private:
  Result<std::map<std::string, std::string>> Sql() const;
  workload::Shape shape_;
  OltpOptions opts_;
  std::string dialect_ = "sqlite";
};

// sysbench's value formats: groups of 11 random digits joined by '-' (c: 10 groups, 119
// characters; pad: 5 groups, 59 characters).
std::string RandomDigitGroups(Random& rng, int groups);

// Statements one unit of `test` runs, by class, as sysbench counts them.
struct StatementCounts {
  int64_t reads = 0, writes = 0, other = 0;
};
StatementCounts CountsPerUnit(const OltpOptions& o);

// Statements one unit of `test` runs by their first keyword ("select", "insert", "update",
// "delete", "begin", "commit"), as a server counts them; kinds a unit never runs are 0.
std::map<std::string, int64_t> StatementsPerUnit(const OltpOptions& o);

}  // namespace sb::oltp

#endif  // STOREBENCH_WORKLOAD_OLTP_OLTP_WORKLOAD_H_
