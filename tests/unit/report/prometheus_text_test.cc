// The Prometheus endpoint's text (report/console/prometheus_text.h): labels, families that sum
// without counting twice, counters that only grow, and cumulative histogram buckets.
#include "report/console/prometheus_text.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace sb::report {
namespace {

constexpr int64_t kMs = 1'000'000;

std::vector<int64_t> Bounds() { return {kLatencyBoundsNanos.begin(), kLatencyBoundsNanos.end()}; }

// Every sample line of `text` as series -> value.
std::map<std::string, double> Samples(const std::string& text) {
  std::map<std::string, double> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t space = line.rfind(' ');
    out[line.substr(0, space)] = std::stod(line.substr(space + 1));
  }
  return out;
}

// A DVD Store-like instance after `orders` units of 2 ms, each with a 1-ms login.
metrics::LiveTotals Db(const std::string& instance, int orders) {
  metrics::LiveTotals t;
  t.workload = "dvdstore";
  t.instance = instance;
  t.unit = "order";
  t.units.resize(1);
  t.step_names = {"login", "purchase"};
  t.steps.resize(2);
  for (int i = 0; i < orders; ++i) {
    t.units[0].Record(2 * kMs);
    t.steps[0].Record(kMs);
  }
  t.counter_names = {"rollbacks", "reads", "writes", "other", "errors.deadlock", "retries", "late"};
  t.counters = {orders / 10, 3 * orders, orders, 2 * orders, 0, 1, 0};
  t.elapsed_sec = orders / 10.0;
  return t;
}

TEST(PrometheusTextTest, CountsAtOrBelowAreCumulative) {
  // Values 1 % from a bound: a bound inside a bucket misplaces only values within the bucket's
  // 0.4 % of it.
  metrics::Histogram h;
  h.Record(990'000);    // 0.99 ms: at or below the 1-ms bound
  h.Record(1'010'000);  // 1.01 ms: above it, below 1.5 ms
  h.Record(40 * kMs);
  h.Record(120'000 * kMs);  // 120 s: above every bound, only in +Inf
  const std::vector<int64_t> bounds = Bounds();
  const std::vector<uint64_t> at = CountsAtOrBelow(h, bounds);
  ASSERT_EQ(at.size(), bounds.size());
  for (size_t i = 1; i < at.size(); ++i) EXPECT_GE(at[i], at[i - 1]) << "bound " << i;
  const auto at_bound = [&](int64_t nanos) {
    for (size_t i = 0; i < bounds.size(); ++i) {
      if (bounds[i] == nanos) return at[i];
    }
    ADD_FAILURE() << nanos << " is not a bound";
    return uint64_t{0};
  };
  EXPECT_EQ(at_bound(700'000), 0u);
  EXPECT_EQ(at_bound(kMs), 1u);
  EXPECT_EQ(at_bound(1'500'000), 2u);
  EXPECT_EQ(at_bound(30 * kMs), 2u);
  EXPECT_EQ(at_bound(50 * kMs), 3u);
  EXPECT_EQ(at.back(), 3u);  // 60 s; the 120-s value is in +Inf alone
  EXPECT_EQ(CountsAtOrBelow(metrics::Histogram(), bounds), std::vector<uint64_t>(bounds.size()));
  // A value exactly at a bound, alone in its histogram (its min and max): at the bound.
  metrics::Histogram one;
  one.Record(kMs);
  EXPECT_EQ(CountsAtOrBelow(one, {999'999, kMs}), (std::vector<uint64_t>{0, 1}));
}

TEST(PrometheusTextTest, BoundsAreLogSpacedFromFiftyMicrosecondsToAMinute) {
  EXPECT_EQ(kLatencyBoundsNanos.front(), 50'000);
  EXPECT_EQ(kLatencyBoundsNanos.back(), 60'000 * kMs);
  for (size_t i = 1; i < kLatencyBoundsNanos.size(); ++i) {
    const double ratio = static_cast<double>(kLatencyBoundsNanos[i]) /
                         static_cast<double>(kLatencyBoundsNanos[i - 1]);
    EXPECT_GT(ratio, 1.19);
    EXPECT_LE(ratio, 5.0 / 3.0 + 1e-9);
  }
}

TEST(PrometheusTextTest, InstancesAreLabelledAndUnitsAndStepsAreSeparateFamilies) {
  const std::string text = PrometheusText({Db("a_1", 10), Db("a_2", 20)}, true);
  const auto s = Samples(text);
  EXPECT_EQ(s.at("storebench_unit_duration_seconds_count{workload=\"dvdstore\",instance=\"a_1\","
                 "unit=\"order\"}"),
            10);
  EXPECT_EQ(s.at("storebench_unit_duration_seconds_count{workload=\"dvdstore\",instance=\"a_2\","
                 "unit=\"order\"}"),
            20);
  EXPECT_EQ(s.at("storebench_step_duration_seconds_count{workload=\"dvdstore\",instance=\"a_2\","
                 "step=\"login\"}"),
            20);
  // No series of the unit family is a total of others (the old type="order" beside its steps).
  for (const auto& [series, value] : s) {
    if (series.rfind("storebench_unit_duration_seconds", 0) == 0) {
      EXPECT_EQ(series.find("step="), std::string::npos) << series;
    }
  }
  // reads/writes/other: one family with an op label, whose sum is every statement.
  EXPECT_EQ(s.at("storebench_queries_total{workload=\"dvdstore\",instance=\"a_1\",op=\"read\"}"),
            30);
  EXPECT_EQ(s.at("storebench_queries_total{workload=\"dvdstore\",instance=\"a_1\",op=\"write\"}"),
            10);
  EXPECT_EQ(s.at("storebench_queries_total{workload=\"dvdstore\",instance=\"a_1\",op=\"other\"}"),
            20);
  EXPECT_EQ(text.find("storebench_reads_total"), std::string::npos);
  EXPECT_EQ(text.find("type=\""), std::string::npos);
  EXPECT_EQ(s.at("storebench_errors_total{workload=\"dvdstore\",instance=\"a_1\","
                 "category=\"deadlock\"}"),
            0);
  EXPECT_EQ(s.count("storebench_late_operations_total{workload=\"dvdstore\",instance=\"a_1\"}"),
            1u);
  // Each family's HELP and TYPE once, before its samples.
  for (const char* family : {"storebench_unit_duration_seconds", "storebench_queries_total",
                             "storebench_elapsed_seconds"}) {
    const std::string type = std::string("# TYPE ") + family + " ";
    const size_t first = text.find(type);
    ASSERT_NE(first, std::string::npos) << family;
    EXPECT_EQ(text.find(type, first + 1), std::string::npos) << family;
  }
  EXPECT_NE(text.find("# TYPE storebench_unit_duration_seconds histogram"), std::string::npos);
  // A run of one unnamed instance has no instance label.
  EXPECT_EQ(PrometheusText({Db("1", 10)}, false).find("instance="), std::string::npos);
}

TEST(PrometheusTextTest, HistogramBucketsAreCumulativeAndEndWithTheCount) {
  metrics::LiveTotals t = Db("1", 0);
  for (int64_t us : {900, 900, 2900, 8000, 8000, 8000, 900'000}) t.units[0].Record(us * 1000);
  const auto s = Samples(PrometheusText({t}, false));
  const std::string head =
      "storebench_unit_duration_seconds_bucket{workload=\"dvdstore\",unit=\"order\",le=";
  double previous = -1;
  for (const char* le :
       {"5e-05", "0.001", "0.002", "0.003", "0.005", "0.007", "0.01", "0.7", "1", "60", "+Inf"}) {
    const std::string series = head + "\"" + le + "\"}";
    ASSERT_EQ(s.count(series), 1u) << series;
    EXPECT_GE(s.at(series), previous) << series;
    previous = s.at(series);
  }
  EXPECT_EQ(s.at(head + "\"0.001\"}"), 2);
  EXPECT_EQ(s.at(head + "\"0.003\"}"), 3);
  EXPECT_EQ(s.at(head + "\"0.007\"}"), 3);
  EXPECT_EQ(s.at(head + "\"0.01\"}"), 6);
  EXPECT_EQ(s.at(head + "\"+Inf\"}"), 7);
  EXPECT_EQ(s.at("storebench_unit_duration_seconds_count{workload=\"dvdstore\",unit=\"order\"}"),
            7);
  EXPECT_NEAR(s.at("storebench_unit_duration_seconds_sum{workload=\"dvdstore\",unit=\"order\"}"),
              0.9287, 1e-9);
}

TEST(PrometheusTextTest, CountersAndBucketsOnlyGrowAsTheRunGoesOn) {
  const auto before = Samples(PrometheusText({Db("a_1", 10), Db("a_2", 5)}, true));
  const auto after = Samples(PrometheusText({Db("a_1", 30), Db("a_2", 5)}, true));
  ASSERT_EQ(before.size(), after.size());
  for (const auto& [series, value] : before) {
    ASSERT_EQ(after.count(series), 1u) << series;
    EXPECT_GE(after.at(series), value) << series;
  }
}

TEST(PrometheusTextTest, StorageTestsAreSeriesOfTheirOwnByDirection) {
  const auto test = [](const std::string& spec, int reads, int writes) {
    metrics::LiveTotals t;
    t.workload = "storage";
    t.instance = "1";
    t.spec = spec;
    t.unit = "io";
    t.unit_ops = {"read", "write"};
    t.units.resize(2);
    for (int i = 0; i < reads; ++i) t.units[0].Record(kMs / 10);
    for (int i = 0; i < writes; ++i) t.units[1].Record(kMs);
    t.counter_names = {"read_bytes", "write_bytes", "read_errors", "write_errors"};
    t.counters = {4096LL * reads, 4096LL * writes, 0, 0};
    return t;
  };
  const std::string text = PrometheusText({test("4K read", 100, 0), test("4K mix", 70, 30)}, false);
  const auto s = Samples(text);
  EXPECT_EQ(s.at("storebench_unit_duration_seconds_count{workload=\"storage\",spec=\"4K read\","
                 "unit=\"io\",op=\"read\"}"),
            100);
  EXPECT_EQ(s.at("storebench_unit_duration_seconds_count{workload=\"storage\",spec=\"4K mix\","
                 "unit=\"io\",op=\"write\"}"),
            30);
  EXPECT_EQ(s.at("storebench_io_bytes_total{workload=\"storage\",spec=\"4K mix\",op=\"write\"}"),
            4096 * 30);
  EXPECT_EQ(s.count("storebench_io_errors_total{workload=\"storage\",spec=\"4K mix\",op=\"read\"}"),
            1u);
  EXPECT_EQ(text.find("unit=\"io\",op=\"all\""), std::string::npos);
  EXPECT_EQ(text.find("storebench_read_bytes_total"), std::string::npos);
}

TEST(PrometheusTextTest, LabelValuesAreEscaped) {
  metrics::LiveTotals t = Db("1", 1);
  t.instance = "a\"b\\c\nd";
  const std::string text = PrometheusText({t}, true);
  EXPECT_NE(text.find("instance=\"a\\\"b\\\\c\\nd\""), std::string::npos);
}

}  // namespace
}  // namespace sb::report
