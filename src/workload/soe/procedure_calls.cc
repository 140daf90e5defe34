// --sql_mode=procedures: each transaction is one call of its stored procedure
// (sql/<dialect>/procedures.sql), with the inputs the client mode draws (tx_inputs.h), as
// Swingbench's PL/SQL benchmark makes one call of its ORDERENTRY package per transaction. The
// procedure sleeps the think times itself and returns, as the package does, what it did: one row
// of selects, inserts, updates, deletes, commits, rollbacks, the milliseconds it slept, the
// logons and the rows it added (a customer or an order).
#include <string>
#include <vector>

#include "workload/soe/session.h"

namespace sb::soe {
namespace {

// A list of ids as the calls take it: "1,2,3" (calls.sql turns it into the dialect's array).
std::string IdList(const std::vector<int64_t>& ids) {
  std::string out;
  for (const int64_t id : ids) {
    if (!out.empty()) out += ',';
    out += std::to_string(id);
  }
  return out;
}

}  // namespace

Status SoeSession::CallProcedure(int tx, const TxInputs& in) {
  static constexpr const char* kCalls[kNumTx] = {"call_ncr", "call_ucd", "call_bp",
                                                 "call_op",  "call_po",  "call_bo",
                                                 "call_sq",  "call_wq",  "call_wa"};
  db::Statement& s = S(kCalls[tx]);
  int p = 1;
  auto text = [&](const std::string& v) { s.BindText(p++, v); };
  auto num = [&](int64_t v) { s.BindInt(p++, v); };
  // The logon's steps: 1 writes the LOGON row, 2 reads the customer first (package 2.1).
  const int64_t logon = (in.logon_row ? 1 : 0) | (opts_.variant == SoeVariant::kPlsql21 ? 2 : 0);
  switch (tx) {
    case kNcr:
      text(in.first);
      text(in.last);
      text(in.nls_language);
      text(in.nls_territory);
      num(in.credit_limit);
      text(in.email);
      num(in.account_mgr);
      num(in.dob_days);
      text(in.house);
      text(in.town);
      text(in.county);
      text(in.country);
      num(in.card_number);
      num(in.expiry_days);
      num(in.security_code);
      num(logon);
      break;
    case kUcd:
      text(in.first);
      text(in.last);
      text(in.house);
      text(in.town);
      text(in.county);
      text(in.country);
      break;
    case kBp:
      num(in.customer);
      text(IdList(in.products));
      num(logon);
      break;
    case kOp:
      num(in.customer);
      text(IdList(in.browse_warehouses));
      text(IdList(in.browse_categories));
      num(in.lines);
      num(in.delivery_cost);
      num(in.status);
      num(logon);
      break;
    case kPo:
      num(in.warehouse);
      num(in.status);
      num(in.row_limit);
      break;
    case kBo:
      num(in.customer);
      num(in.pick_order);
      num(in.pick_line);
      num(in.row_limit);
      num(logon);
      break;
    case kSq:
      num(in.sales_rep);
      break;
    default:  // kWq, kWa
      num(in.warehouse);
      break;
  }
  const auto [lo, hi] = ThinkRange();  // the package's guard decided here, once
  num(lo);
  num(hi);
  if (Status e = s.Execute(); !e.ok()) {
    // The call commits inside: a connection lost during it leaves what it adds in doubt (at
    // most a logon, and the customer or the order it makes).
    if (workload::CommitInDoubt(e)) {
      if (in.logon_row && (tx == kNcr || tx == kBp || tx == kOp || tx == kBo)) {
        ++in_doubt_[kNewLogonsInDoubt];
      }
      if (tx == kNcr) ++in_doubt_[kNewCustomersInDoubt];
      if (tx == kOp) ++in_doubt_[kNewOrdersInDoubt];
    }
    return e;
  }
  if (!s.Next()) {
    SB_RETURN_IF_ERROR(s.status());
    return Status::Internal(std::string(kCalls[tx]) + " returned no row");
  }
  int64_t v[9];
  for (int c = 0; c < 9; ++c) v[c] = s.GetInt(c);
  while (s.Next()) {
  }
  SB_RETURN_IF_ERROR(s.status());
  s.Reset();
  const Counter kinds[] = {kSelects, kInserts, kUpdates, kDeletes, kCommits, kRollbacks};
  for (int c = 0; c < 6; ++c) counts_[kinds[c]] += v[c];
  slept_ += v[6] * 1000000;
  counts_[kNewLogons] += v[7];
  if (tx == kNcr) counts_[kNewCustomers] += v[8];
  if (tx == kOp) counts_[kNewOrders] += v[8];
  return Status::Ok();
}

}  // namespace sb::soe
