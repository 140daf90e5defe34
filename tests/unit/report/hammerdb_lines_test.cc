// HammerDB's lines under a TPC-C-like run's summary (report/console/hammerdb_lines.h) from
// constructed figures: the TEST RESULT line with the server's or the client's count, the
// response-time constraints (in line and deferred Delivery), the mix against its minimums and
// the Delivery skips, each only when its figures are there.
#include "report/console/hammerdb_lines.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace sb::report {
namespace {

using Figures = std::vector<std::pair<std::string, double>>;
using Lines = std::vector<std::string>;

TEST(HammerDbLinesTest, TestResultWithTheServersTransactionCount) {
  EXPECT_EQ(HammerDbResultLines({{"nopm_dnext", 1234.4}, {"tpm_server", 5678.6}}, "PostgreSQL"),
            (Lines{"TEST RESULT : System achieved 1234 NOPM from 5679 PostgreSQL TPM"}));
}

TEST(HammerDbLinesTest, WithoutAServerCounterTheClientCountIsSaidToBeOne) {
  EXPECT_EQ(HammerDbResultLines({{"tpm_client", 99.7}, {"nopm_dnext", 10}}, "SQLite"),
            (Lines{"TEST RESULT : System achieved 10 NOPM from 99 SQLite TPM (client count: "
                   "SQLite has no server transaction counter)"}));
}

TEST(HammerDbLinesTest, NoLinesWithoutTheirFigures) {
  EXPECT_TRUE(HammerDbResultLines({}, "MariaDB").empty());
  EXPECT_TRUE(HammerDbResultLines({{"tpm_server", 100}, {"opm", 3}}, "MariaDB").empty());
  // A mix without transactions, and skips without a skipped delivery, say nothing.
  EXPECT_TRUE(HammerDbResultLines({{"mix_minimums_met", 0},
                                   {"transactions", 0},
                                   {"delivery_skips_within_limit", 1},
                                   {"deliveries_with_skips", 0}},
                                  "MariaDB")
                  .empty());
}

Figures Constraints(double met) {
  return {{"response_time_constraints_met", met},
          {"rt_new_order_p90_msec", 1200},
          {"rt_payment_p90_msec", 800},
          {"rt_order_status_p90_msec", 300},
          {"rt_delivery_p90_msec", 60000},
          {"rt_stock_level_p90_msec", 2500},
          {"efficiency_pct", 97.3},
          {"ceiling_tpmc_per_warehouse", 12.86}};
}

TEST(HammerDbLinesTest, ConstraintsInLineAndTheEfficiency) {
  Figures f = Constraints(1);
  f.push_back({"nopm_dnext", 120});
  f.push_back({"tpm_server", 300});
  EXPECT_EQ(HammerDbResultLines(f, "MariaDB"),
            (Lines{"TEST RESULT : System achieved 120 NOPM from 300 MariaDB TPM",
                   "response-time constraints (90th percentile, TPC-C clause 5.2.5.7): new_order "
                   "1.200 s <= 5 s; payment 0.800 s <= 5 s; order_status 0.300 s <= 5 s; delivery "
                   "60.000 s <= 80 s; stock_level 2.500 s <= 20 s; PASS",
                   "efficiency: 97.3 % of the 12.86 New-Orders per minute per warehouse's worth "
                   "(10) of terminals that this mix's keying and think times allow"}));
}

TEST(HammerDbLinesTest, DeferredDeliveryIsHeldToTheQueueAndTheExecutionLimits) {
  Figures f = Constraints(0);
  f.push_back({"rt_delivery_deferred_p90_msec", 85000});
  const Lines lines = HammerDbResultLines(f, "PostgreSQL");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0],
            "response-time constraints (90th percentile, TPC-C clause 5.2.5.7): new_order 1.200 s "
            "<= 5 s; payment 0.800 s <= 5 s; order_status 0.300 s <= 5 s; delivery 60.000 s <= "
            "5 s; stock_level 2.500 s <= 20 s; delivery_deferred 85.000 s <= 80 s; FAIL");
}

TEST(HammerDbLinesTest, TheMixAgainstItsMinimums) {
  const Figures f = {{"mix_minimums_met", 1},       {"transactions", 1000},
                     {"mix_new_order_pct", 44.5},   {"mix_payment_pct", 43.1},
                     {"mix_order_status_pct", 4.1}, {"mix_delivery_pct", 4.2},
                     {"mix_stock_level_pct", 4.1}};
  EXPECT_EQ(HammerDbResultLines(f, "SQLite"),
            (Lines{"transaction mix (TPC-C clause 5.2.3 minimums): new_order 44.50 %; payment "
                   "43.10 % >= 43 %; order_status 4.10 % >= 4 %; delivery 4.20 % >= 4 %; "
                   "stock_level 4.10 % >= 4 %; PASS"}));
  Figures short_of_payments = f;
  short_of_payments[0].second = 0;
  short_of_payments[3].second = 41.9;
  const Lines lines = HammerDbResultLines(short_of_payments, "SQLite");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find(" payment 41.90 % >= 43 %;"), std::string::npos) << lines[0];
  EXPECT_EQ(lines[0].substr(lines[0].size() - 5), " FAIL");
}

TEST(HammerDbLinesTest, DeliverySkipsWithinOverOrExpected) {
  const Figures over = {{"delivery_skips_within_limit", 0},
                        {"deliveries_with_skips", 7},
                        {"delivery_skip_pct", 1.75}};
  EXPECT_EQ(HammerDbResultLines(over, "MariaDB"),
            (Lines{"deliveries with skipped districts: 7 (1.75 % of those executed; OVER the "
                   "specification's 1 % limit, clause 2.7.4)"}));
  Figures within = over;
  within[0].second = 1;
  within[2].second = 0.5;
  EXPECT_EQ(HammerDbResultLines(within, "MariaDB"),
            (Lines{"deliveries with skipped districts: 7 (0.50 % of those executed; within the "
                   "specification's 1 % limit, clause 2.7.4)"}));
  Figures expected = over;
  expected.push_back({"delivery_skips_expected", 1});
  const Lines lines = HammerDbResultLines(expected, "null");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].rfind("deliveries with skipped districts: 7 (1.75 % of those executed; "
                           "expected on a back end that keeps no data",
                           0),
            0u)
      << lines[0];
}

}  // namespace
}  // namespace sb::report
