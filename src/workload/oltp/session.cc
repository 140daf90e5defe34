// One worker's sysbench-style transactions.
#include <bit>
#include <memory>
#include <utility>
#include <vector>

#include "workload/named_sql.h"
#include "workload/oltp/oltp_workload.h"

namespace sb::oltp {
namespace {

struct TableStatements {
  std::unique_ptr<db::Statement> point_select, simple_range, sum_range, order_range, distinct_range,
      index_update, non_index_update, del, insert, insert_auto;
};

class OltpSession final : public workload::Session {
 public:
  OltpSession(std::unique_ptr<db::Connection> conn, const OltpOptions& opts,
              std::map<std::string, std::string> sql, uint64_t seed)
      : conn_(std::move(conn)),
        opts_(opts),
        sql_(std::move(sql)),
        rng_(seed),
        keys_(opts.keys, opts.table_size),
        tables_(static_cast<size_t>(opts.tables)),
        shape_(ShapeOf(opts)) {}

  Status Prepare() {
    for (int64_t t = 1; t <= opts_.tables; ++t) {
      TableStatements& s = tables_[t - 1];
      const std::string name = "sbtest" + std::to_string(t);
      auto prep = [&](const char* q, std::unique_ptr<db::Statement>* out) -> Status {
        std::string text = sql_.at(q);
        workload::ReplaceAll(text, "{table}", name);
        auto stmt = conn_->Prepare(text);
        if (!stmt.ok()) return stmt.status();
        *out = std::move(stmt).value();
        return Status::Ok();
      };
      SB_RETURN_IF_ERROR(prep("point_select", &s.point_select));
      SB_RETURN_IF_ERROR(prep("simple_range", &s.simple_range));
      SB_RETURN_IF_ERROR(prep("sum_range", &s.sum_range));
      SB_RETURN_IF_ERROR(prep("order_range", &s.order_range));
      SB_RETURN_IF_ERROR(prep("distinct_range", &s.distinct_range));
      SB_RETURN_IF_ERROR(prep("index_update", &s.index_update));
      SB_RETURN_IF_ERROR(prep("non_index_update", &s.non_index_update));
      SB_RETURN_IF_ERROR(prep("delete", &s.del));
      SB_RETURN_IF_ERROR(prep("insert", &s.insert));
      SB_RETURN_IF_ERROR(prep("insert_auto", &s.insert_auto));
    }
    return Status::Ok();
  }

  // The point select runs in RunUnit itself (one call fewer per operation), the transaction
  // out of line.
  Status RunUnit(workload::OpContext& ctx) override {
    if (opts_.test != TestType::kPointSelect) return RunTransaction(ctx);
    return RunPointSelect(ctx);
  }

 private:
  // Out of line: inlined into RunUnit beside the point select, its plan and counts made a point
  // select save and restore its registers too (callgrind, docs/driver-cost.md).
  [[gnu::noinline]] Status RunTransaction(workload::OpContext& ctx) {
    // Draw everything first so a retried transaction repeats exactly the same statements.
    MakePlan(&plan_);
    const Plan& plan = plan_;
    Counts counts;
    Sent sent;  // every attempt's statements: a retry sends them again
    // The transaction is the unit and its only step: timed once, recorded once (as the unit),
    // not again as a step of the same value.
    workload::StepOutcome out = ctx.Timed([&] {
      // Reads, writes and other keep every attempt's completed statements, as sysbench counts
      // each query it ran, a restarted event's included; the rows only the last attempt's
      // (a rolled-back attempt changed none).
      counts.inserted = counts.deleted = 0;
      Status s = Execute(plan, &counts, &sent);
      if (!s.ok() && !opts_.skip_trx) conn_->Rollback().IgnoreError();
      return s;
    });
    // Only the kinds this unit sent, and only non-zero counts: each Count is a virtual call.
    // Counted now, not with the unit: the server counted these statements whatever becomes of
    // the unit. A transaction that failed its tenth attempt (the worker gives up and the unit
    // is dropped) had sent ten BEGINs the server counted; counted with the unit they were lost,
    // and PostgreSQL's BEGIN count came out 10 above the client's.
    for (unsigned kinds = sent.kinds; kinds != 0; kinds &= kinds - 1) {
      const int k = std::countr_zero(kinds);
      ctx.CountNow(kSentBase + k, sent.sent[k]);
      if (sent.failed[k] > 0) ctx.CountNow(kFailedBase + k, sent.failed[k]);
    }
    if (!out.status.ok()) {
      // The unit is dropped, but sysbench counts the queries a failed event ran.
      for (const auto& [counter, n] :
           {std::pair{kReads, counts.reads}, std::pair{kWrites, counts.writes},
            std::pair{kOther, counts.other}}) {
        if (n != 0) ctx.CountNow(counter, n);
      }
      return out.status;
    }
    ctx.AddToUnitTime(out.elapsed_nanos);
    auto count = [&ctx](int counter, int64_t n) {
      if (n != 0) ctx.Count(counter, n);
    };
    count(kReads, counts.reads);
    count(kWrites, counts.writes);
    count(kOther, counts.other);
    count(kRowsInserted, counts.inserted);
    count(kRowsDeleted, counts.deleted);
    return Status::Ok();
  }

  // sysbench's oltp_point_select event (its own script there too): one key, one statement, no
  // transaction, with exactly the general path's draws, statements and counts. The general
  // plan's bookkeeping (eight vectors, the statement kinds, five counters) cost about 250
  // instructions per unit, more than the rest of the driver's work per operation (callgrind,
  // docs/driver-cost.md).
  [[gnu::always_inline]] Status RunPointSelect(workload::OpContext& ctx) {
    const int64_t table = rng_.Uniform(1, opts_.tables);
    const int64_t id = Key();
    db::Statement& stmt = *tables_[table - 1].point_select;
    int64_t sent = 0, failed = 0;  // every attempt's statement: a retry sends it again
    workload::StepOutcome out = ctx.Timed([&] {
      ++sent;
      stmt.BindInt(1, id);
      Status s = ExecuteAndDrain(stmt);
      if (!s.ok()) {
        ++failed;
        if (!opts_.skip_trx) conn_->Rollback().IgnoreError();
      }
      return s;
    });
    if (!out.status.ok()) [[unlikely]] {
      // As in RunTransaction: the server saw them whatever becomes of the unit.
      ctx.CountNow(kSentBase + kSelect, sent);
      ctx.CountNow(kFailedBase + kSelect, failed);
      if (sent > failed) ctx.CountNow(kReads, sent - failed);
      return out.status;
    }
    // The unit is complete: nothing after this can drop it, so its sent statements (more
    // than one after a retry, with the failed ones) are counted with it.
    ctx.Count(kSentBase + kSelect, sent);
    ctx.Count(kFailedBase + kSelect, failed);
    ctx.AddToUnitTime(out.elapsed_nanos);
    ctx.Count(kReads, sent - failed);  // every attempt's completed select, as sysbench counts
    return Status::Ok();
  }

  struct Plan {
    int64_t table = 1;
    std::vector<int64_t> points, ranges, index_ids, non_index_ids, delete_ids;
    std::vector<std::string> c_values;  // for non-index updates, then delete-inserts
    std::vector<int64_t> insert_k;
    std::vector<std::string> insert_pad;
  };
  struct Counts {
    int64_t reads = 0, writes = 0, other = 0, inserted = 0, deleted = 0;
  };
  // What every unit of the test draws and sends, fixed by the options (worked out once, not
  // per unit).
  struct UnitShape {
    int64_t points = 0, ranges = 0, index_updates = 0, non_index_updates = 0, delete_inserts = 0;
    bool trx = false;     // BEGIN ... COMMIT around the statements
    bool writes = false;  // the transaction writes (BEGIN, not a read-only one)
  };
  static UnitShape ShapeOf(const OltpOptions& o) {
    const TestType t = o.test;
    const bool reads = t == TestType::kReadOnly || t == TestType::kReadWrite;
    const bool writes = t == TestType::kWriteOnly || t == TestType::kReadWrite;
    UnitShape u;
    u.points = t == TestType::kPointSelect ? 1 : reads ? o.point_selects : 0;
    if (reads && o.range_selects) {
      u.ranges = o.simple_ranges + o.sum_ranges + o.order_ranges + o.distinct_ranges;
    }
    u.index_updates = writes || t == TestType::kUpdateIndex ? o.index_updates : 0;
    u.non_index_updates = writes || t == TestType::kUpdateNonIndex ? o.non_index_updates : 0;
    u.delete_inserts = writes ? o.delete_inserts : 0;
    u.trx = !o.skip_trx && (reads || writes);
    u.writes = t != TestType::kReadOnly && t != TestType::kPointSelect;
    return u;
  }
  // Statements sent, by kind, and of those the ones that failed.
  struct Sent {
    unsigned kinds = 0;  // bit k: sent[k] > 0
    int64_t sent[kNumKinds] = {};
    int64_t failed[kNumKinds] = {};
    Status Note(StatementKind k, Status s) {
      kinds |= 1u << k;
      ++sent[k];
      if (!s.ok()) ++failed[k];
      return s;
    }
  };

  [[gnu::always_inline]] int64_t Key() { return keys_.Next(rng_); }

  // Refills `p` (its vectors keep their capacity from one unit to the next).
  void MakePlan(Plan* plan) {
    Plan& p = *plan;
    p.points.clear();
    p.ranges.clear();
    p.index_ids.clear();
    p.non_index_ids.clear();
    p.delete_ids.clear();
    p.c_values.clear();
    p.insert_k.clear();
    p.insert_pad.clear();
    p.table = rng_.Uniform(1, opts_.tables);
    const UnitShape& u = shape_;
    for (int64_t i = 0; i < u.points; ++i) p.points.push_back(Key());
    for (int64_t i = 0; i < u.ranges; ++i) p.ranges.push_back(Key());
    for (int64_t i = 0; i < u.index_updates; ++i) p.index_ids.push_back(Key());
    for (int64_t i = 0; i < u.non_index_updates; ++i) {
      p.non_index_ids.push_back(Key());
      p.c_values.push_back(RandomDigitGroups(rng_, 10));
    }
    for (int64_t i = 0; i < u.delete_inserts; ++i) {
      p.delete_ids.push_back(Key());
      p.insert_k.push_back(Key());
      p.c_values.push_back(RandomDigitGroups(rng_, 10));
      p.insert_pad.push_back(RandomDigitGroups(rng_, 5));
    }
    if (opts_.test == TestType::kDelete) p.delete_ids.push_back(Key());
    if (opts_.test == TestType::kInsert) {
      p.insert_k.push_back(Key());
      p.c_values.push_back(RandomDigitGroups(rng_, 10));
      p.insert_pad.push_back(RandomDigitGroups(rng_, 5));
    }
  }

  // The rows are received in full but not looked at, as sysbench does.
  static Status Drain(db::Statement& s) { return s.DiscardRows(); }
  static Status ExecuteAndDrain(db::Statement& s) {
    SB_RETURN_IF_ERROR(s.Execute());
    return Drain(s);
  }

  Status Execute(const Plan& p, Counts* n, Sent* sent) {
    TableStatements& s = tables_[p.table - 1];
    const bool trx = shape_.trx;
    if (trx) {
      SB_RETURN_IF_ERROR(sent->Note(kBegin, conn_->Begin(shape_.writes)));
      ++n->other;
    }
    for (int64_t id : p.points) {
      s.point_select->BindInt(1, id);
      SB_RETURN_IF_ERROR(sent->Note(kSelect, ExecuteAndDrain(*s.point_select)));
      ++n->reads;
    }
    size_t r = 0;
    auto ranges = [&](int64_t count, db::Statement& stmt) -> Status {
      for (int64_t i = 0; i < count && r < p.ranges.size(); ++i, ++r) {
        stmt.BindInt(1, p.ranges[r]);
        stmt.BindInt(2, p.ranges[r] + opts_.range_size - 1);
        SB_RETURN_IF_ERROR(sent->Note(kSelect, ExecuteAndDrain(stmt)));
        ++n->reads;
      }
      return Status::Ok();
    };
    if (!p.ranges.empty()) {
      SB_RETURN_IF_ERROR(ranges(opts_.simple_ranges, *s.simple_range));
      SB_RETURN_IF_ERROR(ranges(opts_.sum_ranges, *s.sum_range));
      SB_RETURN_IF_ERROR(ranges(opts_.order_ranges, *s.order_range));
      SB_RETURN_IF_ERROR(ranges(opts_.distinct_ranges, *s.distinct_range));
    }
    for (int64_t id : p.index_ids) {
      s.index_update->BindInt(1, id);
      SB_RETURN_IF_ERROR(sent->Note(kUpdate, s.index_update->Execute()));
      ++n->writes;
    }
    size_t c = 0;
    for (int64_t id : p.non_index_ids) {
      s.non_index_update->BindText(1, p.c_values[c++]);
      s.non_index_update->BindInt(2, id);
      SB_RETURN_IF_ERROR(sent->Note(kUpdate, s.non_index_update->Execute()));
      ++n->writes;
    }
    for (size_t i = 0; i < p.delete_ids.size(); ++i) {
      s.del->BindInt(1, p.delete_ids[i]);
      SB_RETURN_IF_ERROR(sent->Note(kDelete, s.del->Execute()));
      n->deleted += s.del->RowsAffected();
      ++n->writes;
      if (opts_.test == TestType::kDelete) break;
      // sysbench re-inserts the deleted id with new values.
      s.insert->BindInt(1, p.delete_ids[i]);
      s.insert->BindInt(2, p.insert_k[i]);
      s.insert->BindText(3, p.c_values[c++]);
      s.insert->BindText(4, p.insert_pad[i]);
      SB_RETURN_IF_ERROR(sent->Note(kInsert, s.insert->Execute()));
      n->inserted += s.insert->RowsAffected();
      ++n->writes;
    }
    if (opts_.test == TestType::kInsert) {
      s.insert_auto->BindInt(1, p.insert_k[0]);
      s.insert_auto->BindText(2, p.c_values[c]);
      s.insert_auto->BindText(3, p.insert_pad[0]);
      SB_RETURN_IF_ERROR(sent->Note(kInsert, s.insert_auto->Execute()));
      n->inserted += s.insert_auto->RowsAffected();
      ++n->writes;
    }
    if (trx) {
      SB_RETURN_IF_ERROR(sent->Note(kCommit, conn_->Commit()));
      ++n->other;
    }
    return Status::Ok();
  }

  std::unique_ptr<db::Connection> conn_;
  OltpOptions opts_;
  std::map<std::string, std::string> sql_;
  Random rng_;
  KeyDist keys_;
  std::vector<TableStatements> tables_;
  UnitShape shape_;
  Plan plan_;  // the current unit's
};

}  // namespace

Result<std::unique_ptr<workload::Session>> OltpWorkload::NewSession(
    std::unique_ptr<db::Connection> conn, uint64_t seed, int worker) {
  auto sql = Sql();
  if (!sql.ok()) return sql.status();
  auto s = std::make_unique<OltpSession>(std::move(conn), opts_, std::move(sql).value(), seed);
  SB_RETURN_IF_ERROR(s->Prepare());
  return std::unique_ptr<workload::Session>(std::move(s));
}

}  // namespace sb::oltp
