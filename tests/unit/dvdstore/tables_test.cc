// The names the loader and the row counts give DVD Store's tables and columns per dialect
// (sql/<dialect>/identifiers.sql where the dialect's schema spells them otherwise).
#include "workload/dvdstore/tables.h"

#include <gtest/gtest.h>

namespace sb::dvdstore {
namespace {

TEST(TablesTest, MysqlSpellsTablesInUpperCaseAsDvdStoresSchema) {
  EXPECT_EQ(SqlTableName(Table::kCustomers, "mysql"), "CUSTOMERS");
  EXPECT_EQ(SqlTableName(Table::kReviewsHelpfulness, "mysql"), "REVIEWS_HELPFULNESS");
  EXPECT_EQ(SqlTableName(Table::kCustHist, "mysql"), "CUST_HIST");
  for (const char* dialect : {"sqlite", "postgres"}) {
    EXPECT_EQ(SqlTableName(Table::kCustomers, dialect), "customers") << dialect;
    EXPECT_EQ(SqlTableName(Table::kCustHist, dialect), "cust_hist") << dialect;
  }
  // Every table has a spelling on every dialect.
  for (int i = 0; i < kNumTables; ++i) {
    for (const char* dialect : {"sqlite", "postgres", "mysql"}) {
      EXPECT_FALSE(SqlTableName(static_cast<Table>(i), dialect).empty());
    }
  }
}

TEST(TablesTest, MysqlNamesTheHelpfulnessKeyAsDvdStoresSchema) {
  const std::vector<std::string> mysql = SqlColumns(Table::kReviewsHelpfulness, false, "mysql");
  const std::vector<std::string> others = TableColumns(Table::kReviewsHelpfulness, false);
  ASSERT_EQ(mysql.size(), others.size());
  EXPECT_EQ(mysql[0], "reviews_helpfulness_id");
  EXPECT_EQ(others[0], "review_helpfulness_id");
  for (size_t i = 1; i < mysql.size(); ++i) EXPECT_EQ(mysql[i], others[i]);
  for (const char* dialect : {"sqlite", "postgres"}) {
    EXPECT_EQ(SqlColumns(Table::kReviewsHelpfulness, false, dialect), others) << dialect;
  }
  EXPECT_EQ(SqlColumns(Table::kCustomers, true, "mysql"), TableColumns(Table::kCustomers, true));
}

}  // namespace
}  // namespace sb::dvdstore
