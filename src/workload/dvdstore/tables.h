// The DVD Store tables and their columns, named in one place: the loader's bulk writers, the CSV
// writers and the schema checks take their names from here; the SQL files in sql/<dialect>/
// spell the same names.
#ifndef STOREBENCH_WORKLOAD_DVDSTORE_TABLES_H_
#define STOREBENCH_WORKLOAD_DVDSTORE_TABLES_H_

#include <string>
#include <string_view>
#include <vector>

namespace sb::dvdstore {

enum class Table {
  kCategories = 0,
  kCustomers,
  kOrders,
  kOrderlines,
  kCustHist,
  kProducts,
  kInventory,
  kMembership,
  kReviews,
  kReviewsHelpfulness,
  kReorder,  // created empty; written only by the restock trigger
};
constexpr int kNumTables = 11;

// Lower-case table name as used in SQL and CSV file names ("customers", "cust_hist", ...).
std::string_view TableName(Table t);
// Column names in CSV/table order (DS2 products have no membership_item column).
std::vector<std::string> TableColumns(Table t, bool ds2);
// The table's name as `dialect`'s schema spells it: TableName, unless the dialect's
// identifiers.sql spells it otherwise (DVD Store 3 spells its tables in upper case, which
// PostgreSQL and SQLite fold or compare without case, and MariaDB/MySQL on Linux keep: "mysql"
// gets "CUSTOMERS", the others "customers").
std::string SqlTableName(Table t, std::string_view dialect);
// TableColumns as `dialect`'s schema names them (identifiers.sql: DVD Store's MySQL schema
// spells the helpfulness key REVIEWS_HELPFULNESS_ID, the other databases'
// REVIEW_HELPFULNESS_ID).
std::vector<std::string> SqlColumns(Table t, bool ds2, std::string_view dialect);
// The tables that exist in this mode (DS2: no membership, reviews, reviews_helpfulness).
std::vector<Table> TablesFor(bool ds2);
// The file `load --csv_dir` writes a table's rows into, inside that directory ("customers.csv").
std::string CsvFileName(Table t);

// storebench_meta's "schema_version" of the DVD Store tables this build creates. 2: DVD Store 3's
// names and types (upper-case table names and ZIP INT on MariaDB/MySQL, REVIEWS_HELPFULNESS_ID),
// foreign-key names unique per database. Databases without it were loaded by an earlier
// storebench and are refused by run and verify.
inline constexpr const char* kSchemaVersion = "2";

}  // namespace sb::dvdstore

#endif  // STOREBENCH_WORKLOAD_DVDSTORE_TABLES_H_
