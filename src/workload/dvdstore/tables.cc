#include "workload/dvdstore/tables.h"

#include <map>
#include <utility>

#include "workload/dvdstore/sql_files.h"

namespace sb::dvdstore {
namespace {

// How `dialect`'s schema spells tables.h's names where it differs (sql/<dialect>/identifiers.sql);
// none when it has no such file.
std::map<std::string, std::string> Spellings(std::string_view dialect) {
  auto spellings = SqlTexts(std::string(dialect), "identifiers.sql");
  return spellings.ok() ? std::move(spellings).value() : std::map<std::string, std::string>{};
}

// The spelling of `key` ("customers", "reviews_helpfulness.review_helpfulness_id"), else `name`.
std::string Spelled(const std::map<std::string, std::string>& spellings, const std::string& key,
                    const std::string& name) {
  auto it = spellings.find(key);
  return it == spellings.end() ? name : it->second;
}

}  // namespace

std::string_view TableName(Table t) {
  switch (t) {
    case Table::kCategories:
      return "categories";
    case Table::kCustomers:
      return "customers";
    case Table::kOrders:
      return "orders";
    case Table::kOrderlines:
      return "orderlines";
    case Table::kCustHist:
      return "cust_hist";
    case Table::kProducts:
      return "products";
    case Table::kInventory:
      return "inventory";
    case Table::kMembership:
      return "membership";
    case Table::kReviews:
      return "reviews";
    case Table::kReviewsHelpfulness:
      return "reviews_helpfulness";
    case Table::kReorder:
      return "reorder";
  }
  return "";
}

std::vector<std::string> TableColumns(Table t, bool ds2) {
  switch (t) {
    case Table::kCategories:
      return {"category", "categoryname"};
    case Table::kCustomers:
      return {"customerid",     "firstname",  "lastname",
              "address1",       "address2",   "city",
              "state",          "zip",        "country",
              "region",         "email",      "phone",
              "creditcardtype", "creditcard", "creditcardexpiration",
              "username",       "password",   "age",
              "income",         "gender"};
    case Table::kOrders:
      return {"orderid", "orderdate", "customerid", "netamount", "tax", "totalamount"};
    case Table::kOrderlines:
      return {"orderlineid", "orderid", "prod_id", "quantity", "orderdate"};
    case Table::kCustHist:
      return {"customerid", "orderid", "prod_id"};
    case Table::kProducts:
      if (ds2) {
        return {"prod_id", "category", "title", "actor", "price", "special", "common_prod_id"};
      }
      return {"prod_id", "category", "title",          "actor",
              "price",   "special",  "common_prod_id", "membership_item"};
    case Table::kInventory:
      return {"prod_id", "quan_in_stock", "sales"};
    case Table::kMembership:
      return {"customerid", "membershiptype", "expiredate"};
    case Table::kReviews:
      return {"review_id",  "prod_id",        "review_date", "stars",
              "customerid", "review_summary", "review_text"};
    case Table::kReviewsHelpfulness:
      return {"review_helpfulness_id", "review_id", "customerid", "helpfulness"};
    case Table::kReorder:
      return {"prod_id",        "date_low",       "quan_low",
              "date_reordered", "quan_reordered", "date_expected"};
  }
  return {};
}

std::string SqlTableName(Table t, std::string_view dialect) {
  const std::string table(TableName(t));
  return Spelled(Spellings(dialect), table, table);
}

std::vector<std::string> SqlColumns(Table t, bool ds2, std::string_view dialect) {
  const std::map<std::string, std::string> spellings = Spellings(dialect);
  const std::string table(TableName(t));
  std::vector<std::string> columns = TableColumns(t, ds2);
  for (std::string& column : columns) column = Spelled(spellings, table + "." + column, column);
  return columns;
}

std::string CsvFileName(Table t) { return std::string(TableName(t)) + ".csv"; }

std::vector<Table> TablesFor(bool ds2) {
  std::vector<Table> tables;
  for (int i = 0; i < kNumTables; ++i) {
    const auto t = static_cast<Table>(i);
    if (ds2 &&
        (t == Table::kMembership || t == Table::kReviews || t == Table::kReviewsHelpfulness)) {
      continue;
    }
    tables.push_back(t);
  }
  return tables;
}

}  // namespace sb::dvdstore
