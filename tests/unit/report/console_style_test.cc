// Console styles chosen by name (report/console/console_style.h): the registry, DVD Store's
// closing with its from-Start line derived from the workload's step names, sysbench's lines on
// their own streams, and HammerDB's result lines from a result's figures alone.
#include "report/console/console_style.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "report/console/hammerdb_lines.h"

namespace sb::report {
namespace {

ConsoleRegistry Builtins() {
  ConsoleRegistry r;
  r.Register("dvdstore", NewDvdStoreConsole);
  r.Register("sysbench", NewSysbenchConsole);
  r.Register("charbench", NewCharbenchConsole);
  r.Register("hammerdb", NewHammerDbConsole);
  return r;
}

TEST(ConsoleRegistryTest, CreatesByNameAndNamesTheKnownOnesOtherwise) {
  const ConsoleRegistry r = Builtins();
  EXPECT_EQ(r.Names(), (std::vector<std::string>{"dvdstore", "sysbench", "charbench", "hammerdb"}));
  EXPECT_TRUE(r.Create("sysbench", ConsoleSettings()).ok());
  auto unknown = r.Create("tpcc", ConsoleSettings());
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(),
            "unknown console style 'tpcc' (known: dvdstore, sysbench, charbench, hammerdb)");
}

WholeRunCounts DvdStoreCounts(std::vector<std::string> steps) {
  WholeRunCounts w;
  w.step_types = std::move(steps);
  w.types.assign(1 + w.step_types.size(), 0);
  w.types.back() = 7;  // the last step: 7 calls
  w.counters = {2, 40};
  w.rollback_counter = 0;
  return w;
}

std::string Closing(const std::string& style, const WholeRunCounts& w) {
  auto s = Builtins().Create(style, ConsoleSettings());
  EXPECT_TRUE(s.ok());
  testing::internal::CaptureStdout();
  (*s)->Close(metrics::RunResult(), w, {});
  return testing::internal::GetCapturedStdout();
}

TEST(DvdStoreConsoleTest, PurchasesAndRollbacksFromStartForAWorkloadWithAPurchaseStep) {
  const std::string out = Closing("dvdstore", DvdStoreCounts({"login", "browse", "purchase"}));
  EXPECT_NE(out.find("all threads stopped, exiting\nn_purchase_from_start= 7 "
                     "n_rollbacks_from_start= 2\nRun over\n"),
            std::string::npos)
      << out;
}

TEST(DvdStoreConsoleTest, NoFromStartLineWithoutAPurchaseStep) {
  const std::string out = Closing("dvdstore", DvdStoreCounts({"new_order", "payment"}));
  EXPECT_EQ(out.find("n_purchase_from_start"), std::string::npos) << out;
  EXPECT_NE(out.find("all threads stopped, exiting\nRun over\n"), std::string::npos) << out;
}

TEST(SysbenchConsoleTest, ThreadsStartedOnStdoutAndRunLinesOnStderr) {
  auto s = Builtins().Create("sysbench", ConsoleSettings());
  ASSERT_TRUE(s.ok());
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  (*s)->OnStart();
  (*s)->Line("Thread 1: a message");
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "Thread 1: a message\n");
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "Threads started!\n\n");
}

TEST(HammerDbLinesTest, OnlyTheHammerDbStyleHasResultLines) {
  const std::vector<std::pair<std::string, double>> figures = {{"nopm_dnext", 120},
                                                               {"tpm_server", 300}};
  auto dvdstore = Builtins().Create("dvdstore", ConsoleSettings());
  auto hammerdb = Builtins().Create("hammerdb", ConsoleSettings());
  ASSERT_TRUE(dvdstore.ok() && hammerdb.ok());
  EXPECT_TRUE((*dvdstore)->ResultLines(figures, "SQLite").empty());
  EXPECT_EQ(
      (*hammerdb)->ResultLines(figures, "SQLite"),
      (std::vector<std::string>{"TEST RESULT : System achieved 120 NOPM from 300 SQLite TPM"}));
}

TEST(HammerDbLinesTest, ClientCountWithoutAServerCounter) {
  EXPECT_EQ(HammerDbResultLines({{"tpm_client", 99.7}, {"nopm_dnext", 40}}, "null"),
            (std::vector<std::string>{"TEST RESULT : System achieved 40 NOPM from 99 null TPM "
                                      "(client count: null has no server transaction counter)"}));
  EXPECT_TRUE(HammerDbResultLines({{"tpm_client", 99.7}}, "null").empty());
}

TEST(HammerDbLinesTest, ConstraintsWithKeyingAndADeferredDelivery) {
  const std::vector<std::pair<std::string, double>> figures = {
      {"rt_new_order_p90_msec", 1500},      {"rt_payment_p90_msec", 200},
      {"rt_order_status_p90_msec", 100},    {"rt_delivery_p90_msec", 6000},
      {"rt_stock_level_p90_msec", 900},     {"rt_delivery_deferred_p90_msec", 1000},
      {"response_time_constraints_met", 0}, {"efficiency_pct", 97.3},
      {"ceiling_tpmc_per_warehouse", 12.61}};
  const std::vector<std::string> lines = HammerDbResultLines(figures, "PostgreSQL");
  ASSERT_EQ(lines.size(), 2u);
  // Delivery's limit is the queuing's 5 s when deferred.
  EXPECT_EQ(lines[0],
            "response-time constraints (90th percentile, TPC-C clause 5.2.5.7): new_order 1.500 s "
            "<= 5 s; payment 0.200 s <= 5 s; order_status 0.100 s <= 5 s; delivery 6.000 s <= 5 "
            "s; stock_level 0.900 s <= 20 s; delivery_deferred 1.000 s <= 80 s; FAIL");
  // The ceiling is the mix's (the deck's 12.61), as the workload computed it.
  EXPECT_EQ(lines[1],
            "efficiency: 97.3 % of the 12.61 New-Orders per minute per warehouse's worth (10) of "
            "terminals that this mix's keying and think times allow");
}

TEST(HammerDbLinesTest, MixAgainstTheMinimumSharesAndExpectedSkips) {
  const std::vector<std::pair<std::string, double>> figures = {
      {"transactions", 1000},        {"mix_new_order_pct", 45.1},
      {"mix_payment_pct", 42.9},     {"mix_order_status_pct", 4.0},
      {"mix_delivery_pct", 4.0},     {"mix_stock_level_pct", 4.0},
      {"mix_minimums_met", 0},       {"deliveries_with_skips", 3},
      {"delivery_skip_pct", 7.5},    {"delivery_skips_within_limit", 0},
      {"delivery_skips_expected", 1}};
  const std::vector<std::string> lines = HammerDbResultLines(figures, "null");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0],
            "transaction mix (TPC-C clause 5.2.3 minimums): new_order 45.10 %; payment 42.90 % >= "
            "43 %; order_status 4.00 % >= 4 %; delivery 4.00 % >= 4 %; stock_level 4.00 % >= 4 %; "
            "FAIL");
  // A back end that keeps no data has no new orders to deliver: not a finding there.
  EXPECT_NE(lines[1].find("expected on a back end that keeps no data"), std::string::npos);
  EXPECT_EQ(lines[1].find("OVER"), std::string::npos);
}

}  // namespace
}  // namespace sb::report
