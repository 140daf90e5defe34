// Swingbench's results file from a constructed result: every figure where Swingbench's readers
// look for it (read back with pugixml, as any XML reader would).
#include "report/files/swingbench_results.h"

#include <gtest/gtest.h>

#include <pugixml.hpp>

#include "metrics/histogram.h"

namespace sb::report {
namespace {

metrics::LatencySummary Latency(const std::vector<int64_t>& ms) {
  metrics::Histogram h;
  for (int64_t v : ms) h.Record(v * 1000000);
  return metrics::LatencySummary::From(h);
}

metrics::RunResult OrderEntryResult() {
  metrics::RunResult r;
  r.workload = "soe";
  r.started_at = "2026-12-07T10:00:00.250Z";
  r.measured_sec = 125.4;
  r.connect_sec = 1.5;
  r.config_json = R"({"n_threads": 4, "soe_users": 80, "min_delay": 50, "max_delay": 250,
                      "inter_min_delay": 0, "inter_max_delay": 0, "timings_include_sleep": "N",
                      "soe_config_name": "Order Entry (PLSQL) V2"})";
  r.type_names = {"transaction", "NCR", "BP"};
  // Ten NCRs of 1..10 ms: 10th percentile 1 ms, median 5, 90th 9; BP: none ran.
  r.latency = {Latency({1, 2, 3, 4, 5, 6, 7, 8, 9, 10}), Latency({1, 2, 3, 4, 5, 6, 7, 8, 9, 10}),
               metrics::LatencySummary{}};
  r.figures = {{"completed_transactions", 10},
               {"failed_transactions", 2},
               {"average_tps", 10.0 / 125.4},
               {"maximum_tpm", 7}};
  r.counters = {{"failed", 2},  {"failed.NCR", 2}, {"selects", 31}, {"inserts", 12},
                {"updates", 5}, {"deletes", 0},    {"commits", 10}, {"rollbacks", 2}};
  r.series.type_names = r.type_names;
  r.series.counter_names = {"failed"};
  r.series.points = {{1, "warmup", {4, 4, 0}, {}, {}, {0}},
                     {2, "measure", {6, 6, 0}, {}, {}, {1}},
                     {3, "measure", {6, 6, 0}, {}, {}, {1}}};
  return r;
}

std::string Text(const pugi::xml_document& doc, const char* xpath) {
  return doc.select_node(xpath).node().text().as_string();
}

TEST(SwingbenchResultsTest, OverviewAndConfigurationHoldTheRunsFigures) {
  pugi::xml_document doc;
  const std::string xml =
      SwingbenchResultsXml(OrderEntryResult(), "", {{"NCR", "Customer Registration"}});
  ASSERT_TRUE(doc.load_string(xml.c_str())) << xml;
  EXPECT_STREQ(doc.document_element().attribute("xmlns").value(),
               "http://www.dominicgiles.com/swingbench");
  EXPECT_EQ(Text(doc, "/Results/Overview/BenchmarkName"), "Order Entry (PLSQL) V2");
  EXPECT_EQ(Text(doc, "/Results/Overview/TimeOfRun"), "2026-12-07T10:00:00.250Z");
  EXPECT_EQ(Text(doc, "/Results/Overview/TotalRunTime"), "0:02:05");
  EXPECT_EQ(Text(doc, "/Results/Overview/TotalLogonTime"), "0:00:01.500");
  EXPECT_EQ(Text(doc, "/Results/Overview/TotalCompletedTransactions"), "10");
  EXPECT_EQ(Text(doc, "/Results/Overview/TotalFailedTransactions"), "2");
  EXPECT_EQ(Text(doc, "/Results/Overview/AverageTransactionsPerSecond"), "0.08");
  EXPECT_EQ(Text(doc, "/Results/Overview/MaximumTransactionRate"), "7");
  // Pooled users are Swingbench's users; the threads are its connections.
  EXPECT_EQ(Text(doc, "/Results/Configuration/NumberOfUsers"), "80");
  EXPECT_EQ(Text(doc, "/Results/Configuration/MinimumDelay"), "50");
  EXPECT_EQ(Text(doc, "/Results/Configuration/MaximumDelay"), "250");
  EXPECT_EQ(Text(doc, "/Results/Configuration/TimingsIncludeSleeps"), "false");
  EXPECT_EQ(Text(doc, "/Results/DMLResults/SelectStatements"), "31");
  EXPECT_EQ(Text(doc, "/Results/DMLResults/RollbackStatements"), "2");
}

TEST(SwingbenchResultsTest, EachTransactionHasItsResponseTimesAndPercentiles) {
  pugi::xml_document doc;
  const std::string xml = SwingbenchResultsXml(
      OrderEntryResult(), "",
      {{"NCR", "Customer Registration"}, {"BP", "Browse Products"}, {"XX", "Not in this run"}});
  ASSERT_TRUE(doc.load_string(xml.c_str())) << xml;
  const pugi::xml_node ncr =
      doc.select_node("/Results/TransactionResults/Result[@id='Customer Registration']").node();
  ASSERT_TRUE(ncr) << xml;
  EXPECT_STREQ(ncr.child("TransactionCount").text().as_string(), "10");
  EXPECT_STREQ(ncr.child("AverageResponse").text().as_string(), "5.50");
  EXPECT_NEAR(ncr.child("MinimumResponse").text().as_double(), 1, 0.01);
  EXPECT_NEAR(ncr.child("MaximumResponse").text().as_double(), 10, 0.05);
  EXPECT_NEAR(ncr.child("TenthPercentile").text().as_double(), 1, 0.01);
  EXPECT_NEAR(ncr.child("FiftiethPercentile").text().as_double(), 5, 0.03);
  EXPECT_NEAR(ncr.child("NinetiethPercentile").text().as_double(), 9, 0.05);
  EXPECT_STREQ(ncr.child("FailedTransactionCount").text().as_string(), "2");
  EXPECT_STREQ(doc.select_node("/Results/TransactionResults/Result[@id='Browse Products']")
                   .node()
                   .child("TransactionCount")
                   .text()
                   .as_string(),
               "0");
  EXPECT_FALSE(doc.select_node("//Result[@id='Not in this run']"));
}

TEST(SwingbenchResultsTest, TpsReadingsAreTheMeasuredSecondsCompletedTransactions) {
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(SwingbenchResultsXml(OrderEntryResult(), "", {}).c_str()));
  // Start 10:00:00.250 UTC = 1796637600250 ms; the warm-up second is left out, failures too.
  EXPECT_EQ(Text(doc, "/Results/BenchmarkMetrics/TPSReadings"),
            "1796637602250, 5,1796637603250, 5");
}

TEST(SwingbenchResultsTest, TextIsEscaped) {
  metrics::RunResult r = OrderEntryResult();
  r.target = "sqlite:///tmp/a&b<c>.db";
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(SwingbenchResultsXml(r, "A \"quoted\" & <odd> name", {}).c_str()));
  EXPECT_EQ(Text(doc, "/Results/Overview/BenchmarkName"), "A \"quoted\" & <odd> name");
  EXPECT_EQ(Text(doc, "/Results/Configuration/ConnectString"), "sqlite:///tmp/a&b<c>.db");
}

}  // namespace
}  // namespace sb::report
