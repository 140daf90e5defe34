// The charbench-style lines and summary of Swingbench-like workloads: TPM over the trailing
// 60 s, TPS over the last interval, failed transactions left out, per-transaction columns, and
// the maximum TPM of the measured window.
#include "report/console/charbench_console.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace sb::report {
namespace {

// `n` one-second points: each with `units` units, of which `failed` failed, split over two step
// types (A gets `a`, B the rest); phase "measure".
metrics::TimeSeries Series(int n, uint64_t units, int64_t failed, uint64_t a) {
  metrics::TimeSeries s;
  s.interval_sec = 1;
  s.type_names = {"transaction", "A", "B"};
  s.counter_names = {"failed", "selects"};
  for (int i = 0; i < n; ++i) {
    metrics::IntervalPoint p;
    p.t_sec = i + 1;
    p.phase = "measure";
    p.type_counts = {units, a, units - a - static_cast<uint64_t>(failed)};
    p.type_mean_ms = {5, 4, 6 + (i % 2)};  // B: 6 ms one second, 7 ms the next
    p.counters = {failed, 7};
    s.points.push_back(p);
  }
  return s;
}

std::vector<std::string> Fields(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> f;
  for (std::string w; in >> w;) f.push_back(w);
  return f;
}

TEST(Charbench, HeaderNamesEveryStepType) {
  EXPECT_EQ(Fields(CharbenchHeader(Series(1, 1, 0, 1))),
            (std::vector<std::string>{"Time", "Users", "TPM", "TPS", "Errors", "A", "B"}));
}

TEST(Charbench, LineCountsTheTrailingMinuteAndTheLastInterval) {
  // 90 s of 10 units/s, 1 failed each second: TPM counts the last 60 s only (540 completed),
  // TPS the last 10 s (9/s), errors the last 10 s (10); the users as charbench shows them,
  // logged on over configured; per transaction its mean response time over the last 10 s
  // (A 4 ms; B 6 and 7 ms alternately, 6.5 rounded to an even 6 or up to 7).
  const auto f =
      Fields(FormatCharbenchLine(Series(90, 10, 1, 3), 80, 10, std::chrono::system_clock::now()));
  ASSERT_EQ(f.size(), 7u);
  EXPECT_EQ(f[1], "[80/80]");
  EXPECT_EQ(f[2], "540");
  EXPECT_EQ(f[3], "9.0");
  EXPECT_EQ(f[4], "10");
  EXPECT_EQ(f[5], "4");
  EXPECT_TRUE(f[6] == "6" || f[6] == "7") << f[6];
}

TEST(Charbench, MaximumTpmOverTheMeasuredWindow) {
  metrics::TimeSeries s = Series(120, 10, 0, 5);
  s.points[0].phase = "warmup";  // a warm-up burst does not count
  s.points[0].type_counts = {100000, 50000, 50000};
  for (int i = 70; i < 80; ++i) s.points[i].type_counts[0] = 40;  // a busy 10 s
  EXPECT_DOUBLE_EQ(MaximumTpm(s, 119), 50 * 10 + 10 * 40);
  // A window shorter than a minute: its rate per minute.
  EXPECT_DOUBLE_EQ(MaximumTpm(Series(30, 10, 2, 5), 30), 8 * 60);
}

// As a run with a warm-up and the server cross-check records it: the sample on the warm-up's
// boundary lands a little late and a pause for the server's reading follows (both labelled
// "measure", both before the reset), then the controller catches up the ticks it missed. Only
// the 30 s after the reset count, by time: their rate, 10 per second, is the maximum TPM.
TEST(Charbench, MaximumTpmCountsOnlyTheMeasuredWindowByTime) {
  metrics::TimeSeries s = Series(5, 10, 0, 5);  // warm-up, t = 1..5
  for (auto& p : s.points) p.phase = "warmup";
  s.points[4].phase = "measure";  // the boundary sample, 50 us late
  s.points[4].t_sec = 5.00005;
  auto add = [&](double t, uint64_t units) {
    metrics::IntervalPoint p = s.points[0];
    p.t_sec = t;
    p.phase = "measure";
    p.type_counts = {units, units, 0};
    p.counters = {0, 0};
    s.points.push_back(p);
  };
  add(9.37, 3);  // the pause: few units, before the reset at 9.37
  for (double t : {9.371, 9.372, 9.373}) add(t, 0);
  add(10, 6);  // 0.63 s
  for (int t = 11; t <= 39; ++t) add(t, 10);
  add(39.37, 4);  // the end, 30 s after the reset
  // 6 + 290 + 4 completed in the 30 s from the reset; the pause's 3 and the warm-up's are not.
  EXPECT_NEAR(MaximumTpm(s, 30), (6 + 290 + 4) * 2, 1e-9);
  // Longer windows slide a minute over the points by time: the catch-up points are not seconds.
  metrics::TimeSeries longer = s;
  for (int t = 40; t <= 100; ++t) {
    metrics::IntervalPoint p = longer.points.back();
    p.t_sec = t + 0.37;
    p.type_counts = {static_cast<uint64_t>(t < 70 ? 10 : 12), 0, 0};
    longer.points.push_back(p);
  }
  // The busiest minute: the last 60 points, 30 at 12 and 30 at 10 per second.
  EXPECT_DOUBLE_EQ(MaximumTpm(longer, 91), 31 * 12 + 29 * 10);
}

// The summary's server DML per minute names each counter it comes from: MariaDB's statement
// counts; on PostgreSQL without pg_stat_statements the rows it wrote, and xact_commit (which
// counts autocommitted statements too) named as such.
TEST(Charbench, SummaryServerDmlNamesItsCounters) {
  metrics::RunResult r;
  r.measured_sec = 30;
  r.server_check.server_counters = {{"Com_select", "statements.select", 100, 400, ""},
                                    {"Com_insert", "statements.insert", 0, 50, ""},
                                    {"Innodb_rows_inserted", "rows_inserted", 0, 70, ""},
                                    {"Com_commit", "commits", 10, 40, ""}};
  EXPECT_NE(FormatCharbenchSummary(r).find("Server DML per minute (the server's counters over "
                                           "the measured window): select (Com_select) 600, "
                                           "insert (Com_insert) 100, commit (Com_commit) 60\n"),
            std::string::npos)
      << FormatCharbenchSummary(r);
  r.server_check.server_counters = {{"xact_commit", "commits", 0, 900, ""},
                                    {"xact_rollback", "rollbacks", 0, 3, ""},
                                    {"tup_inserted", "rows_inserted", 0, 150, ""},
                                    {"tup_updated", "rows_updated", 0, 75, ""},
                                    {"tup_deleted", "rows_deleted", 0, 0, ""}};
  EXPECT_NE(FormatCharbenchSummary(r).find(
                "window): rows inserted (tup_inserted) 300, rows updated (tup_updated) 150, rows "
                "deleted (tup_deleted) 0, commit (xact_commit) 1800, rollback (xact_rollback) 6\n"),
            std::string::npos)
      << FormatCharbenchSummary(r);
}

// The summary's head line and one row per transaction: count, failures, average, minimum,
// maximum and the 50th-99th percentiles in ms, as Swingbench's results list them.
TEST(Charbench, SummaryListsEveryTransactionsResponseTimes) {
  metrics::RunResult r;
  r.figures = {{"completed_transactions", 1200},
               {"failed_transactions", 3},
               {"average_tps", 40.004},
               {"maximum_tpm", 2475}};
  r.type_names = {"transaction", "NCR", "BP"};
  r.latency.resize(3);
  r.latency[1].count = 200;
  r.latency[1].mean_ms = 12.5;
  r.latency[1].min_ms = 1.25;
  r.latency[1].max_ms = 90;
  r.latency[1].p50_ms = 10;
  r.latency[1].p90_ms = 20;
  r.latency[1].p95_ms = 30;
  r.latency[1].p99_ms = 80;
  r.latency[2].count = 1003;
  r.counters["failed.NCR"] = 3;
  const std::string out = FormatCharbenchSummary(r);
  std::istringstream lines(out);
  std::string head, columns, ncr, bp;
  std::getline(lines, head);
  std::getline(lines, columns);
  std::getline(lines, ncr);
  std::getline(lines, bp);
  EXPECT_EQ(head, "Completed transactions 1200, failed 3; average TPS 40.00, maximum TPM 2475");
  EXPECT_EQ(Fields(columns)[0], "Transaction");
  EXPECT_EQ(Fields(ncr), (std::vector<std::string>{"NCR", "200", "3", "12.50", "1.25", "90.00",
                                                   "10.00", "20.00", "30.00", "80.00"}));
  EXPECT_EQ(Fields(bp)[0], "BP");
  EXPECT_EQ(Fields(bp)[1], "1003");
  EXPECT_EQ(Fields(bp)[2], "0");
}

}  // namespace
}  // namespace sb::report
