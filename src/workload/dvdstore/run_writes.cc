// DvdStoreWorkload::WhatRunsWrite: the tables a DVD Store run changes (its SQL in
// sql/<dialect>/: new customers, purchases with their lines and history,
// reviews and helpfulness ratings are inserted with ids above every loaded one; a purchase
// updates INVENTORY, whose restock trigger inserts into REORDER; MEMBERSHIP gains rows).
#include <algorithm>

#include "workload/dvdstore/dvdstore_workload.h"
#include "workload/dvdstore/tables.h"

namespace sb::dvdstore {
namespace {

// `table`'s column named `name` (lower case), as `dialect` spells it.
std::string Column(Table table, std::string_view name, std::string_view dialect) {
  const std::vector<std::string> plain = TableColumns(table, false);
  const std::vector<std::string> spelled = SqlColumns(table, false, dialect);
  const auto it = std::find(plain.begin(), plain.end(), name);
  return it == plain.end() ? std::string(name) : spelled[static_cast<size_t>(it - plain.begin())];
}

}  // namespace

std::optional<db::RunWrites> DvdStoreWorkload::WhatRunsWrite(const std::string& dialect) const {
  if (opts_.ds2_mode) return std::nullopt;  // not checked for DVD Store 2's tables
  db::RunWrites w;
  w.workload = name();
  const auto append = [&](Table t, std::string_view column) {
    w.appended.emplace_back(SqlTableName(t, dialect), Column(t, column, dialect));
  };
  append(Table::kCustomers, "customerid");
  append(Table::kOrders, "orderid");
  append(Table::kOrderlines, "orderid");
  append(Table::kCustHist, "orderid");
  append(Table::kReviews, "review_id");
  // Its first column: REVIEWS_HELPFULNESS_ID on MariaDB, REVIEW_HELPFULNESS_ID elsewhere.
  w.appended.emplace_back(SqlTableName(Table::kReviewsHelpfulness, dialect),
                          SqlColumns(Table::kReviewsHelpfulness, false, dialect).front());
  // Membership rows come for new and loaded customers alike (measured: a run of 1MB added rows
  // below the loaded largest id), so the table is refilled; it holds a tenth of the customers.
  w.rewritten = {SqlTableName(Table::kInventory, dialect),
                 SqlTableName(Table::kMembership, dialect), SqlTableName(Table::kReorder, dialect)};
  return w;
}

}  // namespace sb::dvdstore
