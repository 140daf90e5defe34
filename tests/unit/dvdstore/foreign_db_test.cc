// The size of a database built by DVD Store's scripts, read from its row counts.
#include "workload/dvdstore/foreign_db.h"

#include <gtest/gtest.h>

namespace sb::dvdstore {
namespace {

TEST(SizeFromCountsTest, StandardAndCustomSizes) {
  EXPECT_EQ(SizeFromCounts(20000, 10000, 12000).label, "S");
  EXPECT_EQ(SizeFromCounts(2000000, 100000, 1200000).label, "M");
  EXPECT_EQ(SizeFromCounts(2000, 1000, 1200).label, "1MB");
  EXPECT_EQ(SizeFromCounts(4000000, 20000, 2400000).label, "2GB");
}

TEST(SizeFromCountsTest, RunsAddCustomersAndOrders) {
  // After DVD Store runs without cleanup: more customers and orders, the same products.
  const DsSize s = SizeFromCounts(20317, 10000, 13002);
  EXPECT_EQ(s.label, "S");
  EXPECT_EQ(s.customers, 20000);
}

TEST(SizeFromCountsTest, CountsNoSizeFitsAreKept) {
  const DsSize s = SizeFromCounts(1234, 567, 890);
  EXPECT_EQ(s.label, "counted");
  EXPECT_EQ(s.customers, 1234);
  EXPECT_EQ(s.products, 567);
  EXPECT_EQ(s.orders_per_month, 890 / 12);
  // Fewer customers than the size whose product count matches: not that size.
  EXPECT_EQ(SizeFromCounts(19999, 10000, 12000).label, "counted");
}

}  // namespace
}  // namespace sb::dvdstore
