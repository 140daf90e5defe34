#include "workload/dvdstore/tables.h"

#include <cctype>

namespace sb::dvdstore {

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
  std::string name(TableName(t));
  if (dialect == "mysql") {
    for (char& ch : name) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  }
  return name;
}

std::vector<std::string> SqlColumns(Table t, bool ds2, std::string_view dialect) {
  std::vector<std::string> columns = TableColumns(t, ds2);
  if (dialect == "mysql" && t == Table::kReviewsHelpfulness) columns[0] = "reviews_helpfulness_id";
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
