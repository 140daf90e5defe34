#include "report/console/dvdstore_console.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <time.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "unit/report/sample_result.h"

namespace sb::report {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using std::chrono::system_clock;

std::vector<std::string> SplitOnWhitespace(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> tokens;
  std::string t;
  while (in >> t) tokens.push_back(t);
  return tokens;
}

system_clock::time_point At(int64_t epoch_sec, int millis = 0) {
  return system_clock::time_point(seconds(epoch_sec)) + milliseconds(millis);
}

metrics::StatusFigures Status60() {
  metrics::StatusFigures f;
  f.et_sec = 60.0;
  f.n_overall = 1234;
  f.opm = 1234;
  f.rt_tot_lastn_max_msec = 250;
  f.rt_tot_avg_msec = 35;
  f.rt_tot_sampled = 33;
  f.n_rollbacks = 25;
  f.rollback_pct = 100.0 * 25 / 1234;  // 2.0259...
  return f;
}

// ---- .NET-compatible number formatting -------------------------------------------------

TEST(FormatDotNetFixedTest, PadsToWidth) {
  EXPECT_EQ(FormatDotNetFixed(60.0, 1, 7), "   60.0");
  EXPECT_EQ(FormatDotNetFixed(2.0259, 1, 5), "  2.0");
  EXPECT_EQ(FormatDotNetFixed(0.0, 1, 5), "  0.0");
  EXPECT_EQ(FormatDotNetFixed(100.0, 1, 5), "100.0");
}

TEST(FormatDotNetFixedTest, NeverTruncatesWideValues) {
  EXPECT_EQ(FormatDotNetFixed(1234567.84, 1, 7), "1234567.8");
  EXPECT_EQ(FormatDotNetFixed(123456789.123456789, 1), "123456789.1");
  EXPECT_EQ(FormatDotNetFixed(1e20, 1), "100000000000000000000.0");
}

TEST(FormatDotNetFixedTest, RoundsHalfAwayFromZeroAfter15SignificantDigits) {
  // 0.15 is 0.1499999999999999944... in binary; .NET Framework rounds it to 15 digits first.
  EXPECT_EQ(FormatDotNetFixed(0.15, 1), "0.2");
  EXPECT_EQ(FormatDotNetFixed(2.25, 1), "2.3");  // exact tie: away from zero
  EXPECT_EQ(FormatDotNetFixed(0.05, 1), "0.1");
  EXPECT_EQ(FormatDotNetFixed(0.04, 1), "0.0");
  EXPECT_EQ(FormatDotNetFixed(9.96, 1), "10.0");
  EXPECT_EQ(FormatDotNetFixed(99.95, 1, 5), "100.0");
  EXPECT_EQ(FormatDotNetFixed(59.96, 1, 7), "   60.0");
  EXPECT_EQ(FormatDotNetFixed(1.0 / 3.0, 1), "0.3");
  EXPECT_EQ(FormatDotNetFixed(12.345, 2), "12.35");
  EXPECT_EQ(FormatDotNetFixed(7.5, 0), "8");
}

TEST(FormatDotNetFixedTest, NegativeValues) {
  EXPECT_EQ(FormatDotNetFixed(-1.25, 1), "-1.3");
  EXPECT_EQ(FormatDotNetFixed(-0.04, 1), "0.0");
  EXPECT_EQ(FormatDotNetFixed(-60.0, 1, 7), "  -60.0");
}

TEST(FormatDotNetFixedTest, NonFinite) {
  EXPECT_EQ(FormatDotNetFixed(std::nan(""), 1, 5), "  NaN");
  EXPECT_EQ(FormatDotNetFixed(std::numeric_limits<double>::infinity(), 1), "Infinity");
}

TEST(FormatDotNetIntTest, FloorsAndMapsNaNToIntMin) {
  EXPECT_EQ(FormatDotNetInt(12345), "12345");
  EXPECT_EQ(FormatDotNetInt(12345.99), "12345");
  EXPECT_EQ(FormatDotNetInt(0), "0");
  EXPECT_EQ(FormatDotNetInt(-2147483648.0), "-2147483648");
  EXPECT_EQ(FormatDotNetInt(std::nan("")), "-2147483648");
}

// ---- Timestamps ----------------------------------------------------------------------------

TEST(TimestampTest, UtcPrefix) {
  EXPECT_EQ(StatusTimestampPrefix(LogTimestamp::kUtc, At(1714557600, 123)),
            "2024-05-01T10:00:00.123Z ");
  EXPECT_EQ(StatusTimestampPrefix(LogTimestamp::kUtc, At(1704154029, 7)),
            "2024-01-02T00:07:09.007Z ");
}

TEST(TimestampTest, NonePrefixIsEmpty) {
  EXPECT_EQ(StatusTimestampPrefix(LogTimestamp::kNone, At(1714557600)), "");
}

TEST(TimestampTest, LocalPrefixAndFinalDateUseUsFormats) {
  setenv("TZ", "UTC", 1);
  tzset();
  EXPECT_EQ(StatusTimestampPrefix(LogTimestamp::kLocal, At(1714557600, 999)),
            "05/01/2024 10:00:00 AM ");
  EXPECT_EQ(StatusTimestampPrefix(LogTimestamp::kLocal, At(1636383845)), "11/08/2021 3:04:05 PM ");
  EXPECT_EQ(StatusTimestampPrefix(LogTimestamp::kLocal, At(1704154029)), "01/02/2024 12:07:09 AM ");
  EXPECT_EQ(FinalLineDateTime(At(1636383845)), "11/8/2021 3:04:05 PM");
  EXPECT_EQ(FinalLineDateTime(At(1704154029)), "1/2/2024 12:07:09 AM");
}

// ---- Status line ---------------------------------------------------------------------------

TEST(StatusLineTest, ExactDs3Format) {
  EXPECT_EQ(FormatStatusLine(Status60(), ""),
            "et=   60.0 n_overall=1234 opm=1234 rt_tot_lastn_max_msec=250 rt_tot_avg_msec=35 "
            "rt_tot_sampled=33 rollbacks: n=25 %=  2.0 ");
}

TEST(StatusLineTest, TimestampPrefixIsPrepended) {
  EXPECT_EQ(FormatStatusLine(Status60(), "2024-05-01T10:00:00.123Z "),
            "2024-05-01T10:00:00.123Z et=   60.0 n_overall=1234 opm=1234 "
            "rt_tot_lastn_max_msec=250 rt_tot_avg_msec=35 rt_tot_sampled=33 rollbacks: n=25 "
            "%=  2.0 ");
}

TEST(StatusLineTest, ZeroFiguresBeforeTheFirstOrder) {
  EXPECT_EQ(FormatStatusLine(metrics::StatusFigures{}, ""),
            "et=    0.0 n_overall=0 opm=0 rt_tot_lastn_max_msec=0 rt_tot_avg_msec=0 "
            "rt_tot_sampled=0 rollbacks: n=0 %=  0.0 ");
}

TEST(StatusLineTest, WideValuesAreNotTruncated) {
  metrics::StatusFigures f = Status60();
  f.et_sec = 123456.78;
  f.rollback_pct = 100.0;
  const std::string line = FormatStatusLine(f, "");
  EXPECT_EQ(line.substr(0, 11), "et=123456.8");
  EXPECT_NE(line.find(" %=100.0 "), std::string::npos) << line;
}

TEST(StatusLineTest, SplitsIntoTheExpectedTokens) {
  const std::vector<std::string> tokens = SplitOnWhitespace(FormatStatusLine(Status60(), ""));
  const std::vector<std::string> expected = {"et=",
                                             "60.0",
                                             "n_overall=1234",
                                             "opm=1234",
                                             "rt_tot_lastn_max_msec=250",
                                             "rt_tot_avg_msec=35",
                                             "rt_tot_sampled=33",
                                             "rollbacks:",
                                             "n=25",
                                             "%=",
                                             "2.0"};
  EXPECT_EQ(tokens, expected);
}

// ---- Final line ----------------------------------------------------------------------------

TEST(FinalLineTest, Ds3ExactLine) {
  metrics::RunResult r = testing::SampleResult();
  EXPECT_EQ(
      FormatFinalLine(r, "11/8/2021 3:04:05 PM"),
      "Final (11/8/2021 3:04:05 PM): et=  600.0 n_overall=123456 opm=12345 rt_tot_lastn_max=250 "
      "rt_tot_avg=35 n_login_overall=98765 n_newcust_overall=24691 n_newmember_overall=1234 "
      "n_browse_overall=370368 n_reviewbrowse=740736 n_newreviews=6173 n_newhelpfulness=12346 "
      "n_purchase_overall=123456 rt_login_avg_msec=4 rt_newcust_avg_msec=3 "
      "rt_rewmember_avg_msec=2 rt_browse_avg_msec=6 rt_reviewbrowse_avg_msec=9 "
      "rt_newreview_avg_msec=2 rt_newhelpfulness=1 rt_purchase_avg_msec=11 rt_tot_sampled=33 "
      "n_rollbacks_overall=2593 rollback_rate =   2.1%");
}

TEST(FinalLineTest, Ds3TokensAtKnownPositions) {
  // With a 3-token en-US date ("11/8/2021 3:04:05 PM") and et < 1000 s (padded "et=  600.0").
  const std::vector<std::string> t =
      SplitOnWhitespace(FormatFinalLine(testing::SampleResult(), "11/8/2021 3:04:05 PM"));
  ASSERT_EQ(t.size(), 31u);
  EXPECT_EQ(t[0], "Final");
  EXPECT_EQ(t[1], "(11/8/2021");
  EXPECT_EQ(t[3], "PM):");
  EXPECT_EQ(t[4], "et=");
  EXPECT_EQ(t[5], "600.0");
  EXPECT_EQ(t[6], "n_overall=123456");
  EXPECT_EQ(t[7], "opm=12345");
  EXPECT_EQ(t[12], "n_newmember_overall=1234");
  EXPECT_EQ(t[17], "n_purchase_overall=123456");
  EXPECT_EQ(t[20], "rt_rewmember_avg_msec=2");
  EXPECT_EQ(t[24], "rt_newhelpfulness=1");
  EXPECT_EQ(t[26], "rt_tot_sampled=33");
  EXPECT_EQ(t[27], "n_rollbacks_overall=2593");
  EXPECT_EQ(t[28], "rollback_rate");
  EXPECT_EQ(t[29], "=");
  EXPECT_EQ(t[30], "2.1%");
}

TEST(FinalLineTest, Ds2TokensWhereThirdPartyScriptsReadThem) {
  // The published DS2 automation script takes token 18 as n_rollbacks_overall and token 21 as
  // the rate; that holds with a 2-token date (24-hour locale) and a padded et.
  metrics::RunResult r = testing::SampleResult();
  r.figures = testing::Ds2Figures();
  const std::string line = FormatFinalLine(r, "20/04/2018 15:04:05");
  EXPECT_EQ(line,
            "Final (20/04/2018 15:04:05): et=  600.0 n_overall=123456 opm=12345 "
            "rt_tot_lastn_max=250 rt_tot_avg=35 n_login_overall=98765 n_newcust_overall=24691 "
            "n_browse_overall=370368 n_purchase_overall=123456 rt_login_avg_msec=4 "
            "rt_newcust_avg_msec=3 rt_browse_avg_msec=6 rt_purchase_avg_msec=11 "
            "rt_tot_sampled=33 n_rollbacks_overall=2593 rollback_rate =   2.1%");
  const std::vector<std::string> t = SplitOnWhitespace(line);
  ASSERT_EQ(t.size(), 22u);
  EXPECT_EQ(t[18], "n_rollbacks_overall=2593");
  EXPECT_EQ(t[21], "2.1%");
}

TEST(FinalLineTest, NewFieldsFollowRollbackRate) {
  metrics::RunResult r = testing::SampleResult();
  r.figures.emplace_back("n_errors", 4);
  const std::string line = FormatFinalLine(r, "d");
  const std::string tail = "rollback_rate =   2.1% n_errors=4";
  ASSERT_GE(line.size(), tail.size());
  EXPECT_EQ(line.substr(line.size() - tail.size()), tail);
}

TEST(FinalLineTest, ZeroDivisionValuesPrintLikeTheOriginal) {
  metrics::RunResult r;
  r.figures = {{"et", 5.04},
               {"n_overall", 0},
               {"rt_login_avg_msec", std::nan("")},
               {"rollback_rate", std::nan("")}};
  EXPECT_EQ(
      FormatFinalLine(r, "d"),
      "Final (d): et=    5.0 n_overall=0 rt_login_avg_msec=-2147483648 rollback_rate =   NaN%");
}

TEST(FinalLineTest, EmptyFigures) {
  EXPECT_EQ(FormatFinalLine(metrics::RunResult{}, "d"), "Final (d): ");
}

// ---- CSV -----------------------------------------------------------------------------------

// The per-target lines of a run with several targets, as ds3xdriver.cs writes them under
// "Individual Stats for each DB / Web Server: ": five names spelled differently from the whole
// run's Final line (n_newhelpfulnes_overall with its missing 's') and two trailing spaces.
TEST(FinalLineTest, PerTargetLineAsDs3WritesIt) {
  const std::string line = FormatTargetFinalLine(testing::SampleResult());
  EXPECT_EQ(line.rfind("Final: et=", 0), 0u) << line;
  EXPECT_EQ(line.substr(line.size() - 3), "%  ");
  const std::vector<std::string> t = SplitOnWhitespace(line);
  const std::vector<std::string> names = {"et",
                                          "n_overall",
                                          "opm",
                                          "rt_tot_lastn_max",
                                          "rt_tot_avg",
                                          "n_login_overall",
                                          "n_newcust_overall",
                                          "n_newmember_overall",
                                          "n_browse_overall",
                                          "n_reviewbrowse_overall",
                                          "n_newreview_overall",
                                          "n_newhelpfulnes_overall",
                                          "n_purchase_overall",
                                          "rt_login_avg_msec",
                                          "rt_newcust_avg_msec",
                                          "rt_newmember_avg_msec",
                                          "rt_browse_avg_msec",
                                          "rt_reviewbrowse_avg_msec",
                                          "rt_newreview_avg_msec",
                                          "rt_newhelpfulness_avg_msec",
                                          "rt_purchase_avg_msec",
                                          "rt_tot_sampled",
                                          "n_rollbacks_overall"};
  std::vector<std::string> got;
  for (const std::string& tok : t) {
    const size_t eq = tok.find('=');
    if (eq != std::string::npos && eq > 0) got.push_back(tok.substr(0, eq));
  }
  EXPECT_EQ(got, names);
  EXPECT_NE(line.find(" rollback_rate = "), std::string::npos);
}

// ds3xdriver.cs's first lines, with the spacing of its format string (double spaces, no '='
// after n_line_items, single spaces from pct_newcustomers on in places).
TEST(PreambleTest, ParameterEchoAsDs3WritesIt) {
  Ds3Parameters p{.target = "db1;db2",
                  .n_threads = "16",
                  .ramp_rate = "10",
                  .run_time = "30",
                  .db_size = "20GB",
                  .warmup_time = "1",
                  .think_time = "0",
                  .pct_newcustomers = "20",
                  .pct_newmember = "1",
                  .n_searches = "3",
                  .search_batch_size = "5",
                  .n_reviews = "3",
                  .pct_newreviews = "5",
                  .pct_newhelpfulness = "10",
                  .n_line_items = "5",
                  .virt_dir = "ds3",
                  .page_type = "php",
                  .windows_perf_host = "",
                  .detailed_view = "N",
                  .linux_perf_host = "",
                  .out_filename = "",
                  .ds2_mode = "N",
                  .log_freq = "10",
                  .log_timestamp = "NONE"};
  EXPECT_EQ(FormatParameterLine(p),
            "target= db1;db2  n_threads= 16  ramp_rate= 10  run_time= 30  db_size= 20GB  "
            "warmup_time= 1  think_time= 0 pct_newcustomers= 20 pct_newmembers= 1  n_searches= 3"
            "  search_batch_size= 5  n_reviews=3 pct_newreviews=5 pct_newhelpfulness=10 "
            "n_line_items5 virt_dir= ds3  page_type= php  windows_perf_host=  detailed_view= N "
            "linux_perf_host=  output_file=  ds2_mode= N log_freq= 10 log_timestamp= NONE");
  EXPECT_EQ(ThreadsTotalLine(16),
            "Total number of Threads to be Spawned across multiple servers are n_threads: 16");
  EXPECT_EQ(ThreadCreatedLine(3), "Thread 3: created for User 3");
  EXPECT_EQ(ThreadConnectedLine(3, "db2"), "Thread 3: connected to db2");
  EXPECT_EQ(std::string(kIndividualStatsLine), "Individual Stats for each DB / Web Server: ");
}

TEST(CsvTest, Header) {
  EXPECT_EQ(CsvHeaderLine(),
            "datetime et, n_overall, opm, rt_tot_lastn_max_msec, rt_tot_avg_msec, rt_tot_sampled, "
            "n_rollbacks_overall, rollback_pct");
}

TEST(CsvTest, LineWithoutTimestamp) {
  EXPECT_EQ(FormatCsvLine(Status60(), ""), "    60.0,1234,1234,250,35,33,25,  2.0");
}

TEST(CsvTest, LineWithTimestamp) {
  EXPECT_EQ(FormatCsvLine(Status60(), "2024-05-01T10:00:00.123Z "),
            "2024-05-01T10:00:00.123Z     60.0,1234,1234,250,35,33,25,  2.0");
}

TEST(CsvTest, SplitsIntoEightFields) {
  const std::string line = FormatCsvLine(Status60(), "");
  std::vector<std::string> fields;
  std::stringstream in(line);
  std::string field;
  while (std::getline(in, field, ',')) fields.push_back(field);
  ASSERT_EQ(fields.size(), 8u);
  EXPECT_EQ(std::stod(fields[0]), 60.0);
  EXPECT_EQ(fields[6], "25");
  EXPECT_EQ(std::stod(fields[7]), 2.0);
}

// ---- Summary -------------------------------------------------------------------------------

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

bool HasLine(const std::vector<std::string>& lines, const std::string& line) {
  for (const auto& l : lines) {
    if (l == line) return true;
  }
  return false;
}

TEST(SummaryTest, ContainsEverySection) {
  const std::string text = FormatSummary(testing::SampleResult());
  const std::vector<std::string> lines = Lines(text);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0], "dvdstore: OPM 12345 (closed loop, think time 0 s (DVD Store order loop))");
  EXPECT_EQ(lines[1],
            "  measured window 600.0 s; run 2024-05-01T10:00:00Z to 2024-05-01T10:11:02Z; "
            "workers 16 started, 0 failed");
  EXPECT_TRUE(HasLine(lines,
                      "  type           count    mean     p50     p90     p95     p99   p99.9"
                      "      max"))
      << text;
  EXPECT_TRUE(HasLine(lines,
                      "  purchase      123456  11.500  10.000  18.000  22.500  40.000  90.000"
                      "  250.125"))
      << text;
  EXPECT_TRUE(HasLine(lines, "  errors (whole run): 4 (deadlock 1, serialization 3)")) << text;
  EXPECT_TRUE(HasLine(lines, "  retries: 7")) << text;
  EXPECT_TRUE(HasLine(lines, "  counters (measured window): orders 123456, rollbacks 2593"))
      << text;
  EXPECT_TRUE(HasLine(lines, "  driver CPU: 31.2 s, 253.1 us per order, 5.2 % of one core"))
      << text;
  EXPECT_TRUE(HasLine(lines, "  verify: 1 of 2 checks passed")) << text;
  EXPECT_TRUE(
      HasLine(lines, "    FAILED inventory_non_negative: 3 products with QUAN_IN_STOCK < 0"))
      << text;
  EXPECT_TRUE(HasLine(lines, "    bug_compat: none (all §8.1 items fixed)")) << text;
  EXPECT_TRUE(HasLine(lines,
                      "    restock: SQL Server-style trigger: updates that leave stock below 3 "
                      "revert"))
      << text;
  EXPECT_EQ(text.back(), '\n');
}

TEST(SummaryTest, ServerCheckLinesFollowVerify) {
  metrics::RunResult r = testing::SampleResult();
  const std::string text = FormatSummary(r);
  const std::vector<std::string> lines = Lines(text);
  EXPECT_TRUE(
      HasLine(lines, "  server check: 1 of 2 comparisons agree (client 123460 " + r.type_names[0] +
                         "s from the end of warm-up to the end of the run, wind-down included)"))
      << text;
  EXPECT_TRUE(HasLine(lines,
                      "    ok     committed_orders_vs_new_orders_rows: client 120863, server "
                      "120863 (server == client expected)"))
      << text;
  EXPECT_TRUE(HasLine(lines,
                      "    DIFFER server_commits_vs_committed_orders: client 120863, server "
                      "120000 (server >= client expected)"))
      << text;
  EXPECT_LT(text.find("  verify: "), text.find("  server check: "));
  r.server_check.error = "start reading: cannot connect";
  EXPECT_TRUE(
      HasLine(Lines(FormatSummary(r)), "  server check: not done (start reading: cannot connect)"));
  r.server_check.present = false;
  EXPECT_EQ(FormatSummary(r).find("server check"), std::string::npos);
}

TEST(SummaryTest, EmptyResultDoesNotCrash) {
  const std::string text = FormatSummary(metrics::RunResult{});
  EXPECT_NE(text.find("no operations recorded"), std::string::npos) << text;
  EXPECT_NE(text.find("errors (whole run): none"), std::string::npos) << text;
  EXPECT_NE(text.find("verify: not run"), std::string::npos) << text;
}

TEST(SummaryTest, WindowLinesConvertPerSecondToPerMinute) {
  const std::vector<std::string> lines = Lines(FormatSummary(testing::SampleResult()));
  // The first type ("login" in the sample; "order" in a DVD Store run) is the unit.
  EXPECT_TRUE(HasLine(lines,
                      "  window 5m-10m: per second as logins/min min 11400, mean 12345, "
                      "median 12360, max 13260; 12345.5 logins/min over the window; "
                      "running OPM 12200 \u2192 12345; login p50 3.750 ms, p99 12.500 ms "
                      "(closed loop: from the actual start)"))
      << ::testing::PrintToString(lines);
  EXPECT_TRUE(HasLine(lines,
                      "  window 9m-12m (incomplete: the run did not cover the whole window): "
                      "per second as logins/min min 0, mean 11910, median 11940, max 12720; "
                      "11910 logins/min over the window; running OPM 12330 \u2192 12345; "
                      "login p50 4.000 ms, p99 13.000 ms (closed loop: from the actual start)"))
      << ::testing::PrintToString(lines);
}

TEST(SummaryTest, BaselinesSteadyStateAndWarnings) {
  const std::string text = FormatSummary(testing::SampleResult());
  const std::vector<std::string> lines = Lines(text);
  EXPECT_TRUE(HasLine(lines,
                      "  baseline PASS: orders per minute over the window in 5m-10m (300 s to "
                      "600 s from start) must be at least 12000 (measured 12345.5)"))
      << text;
  EXPECT_TRUE(HasLine(lines,
                      "  baseline FAIL: p99 latency of orders in ms in 9m-12m (540 s to 720 s "
                      "from start) must be at most 40; the run did not cover the whole window "
                      "(measured 41)"))
      << text;
  EXPECT_TRUE(HasLine(lines,
                      "  steady state: steady: throughput changed -1.5 % across the window "
                      "(limit 10.0 %) with a per-second spread of 4.2 % (limit 25.0 %)"))
      << text;
  EXPECT_TRUE(HasLine(lines,
                      "  warning: the storebench process used 95 % of this machine's 4 cores "
                      "during the measured window: the result may measure the client machine, "
                      "not the server"))
      << text;
  // Warnings come last, where the reader looks first after a run.
  EXPECT_EQ(lines.back().rfind("  warning: ", 0), 0u) << text;
}

TEST(SummaryTest, NoWindowBaselineSteadyOrWarningLinesWhenAbsent) {
  metrics::RunResult r = testing::SampleResult();
  testing::ClearWindowFields(&r);
  const std::string text = FormatSummary(r);
  for (const char* prefix : {"  window ", "  baseline ", "  steady state", "  warning"}) {
    EXPECT_EQ(text.find(prefix), std::string::npos) << prefix << " in:\n" << text;
  }
  // The rest of the summary is unchanged.
  EXPECT_NE(text.find("  verify: 1 of 2 checks passed\n"), std::string::npos) << text;
  const std::string empty = FormatSummary(metrics::RunResult{});
  EXPECT_EQ(empty.find("steady state"), std::string::npos) << empty;
  EXPECT_EQ(empty.find("warning"), std::string::npos) << empty;
}

TEST(SummaryTest, SteadyStateNotEvaluatedIsStillSaid) {
  metrics::RunResult r = testing::SampleResult();
  r.steady_state = {};
  r.steady_state.detail = "not evaluated: 4 seconds measured, at least 10 needed";
  EXPECT_TRUE(HasLine(Lines(FormatSummary(r)),
                      "  steady state: not evaluated: 4 seconds measured, at least 10 needed"));
  r.steady_state = {true, false, 12.25, 30.5, 10.0, 25.0, ""};
  EXPECT_TRUE(
      HasLine(Lines(FormatSummary(r)), "  steady state: not steady: slope +12.2 %, spread 30.5 %"))
      << FormatSummary(r);
}

TEST(SummaryTest, WindowOfAResultWithoutTypes) {
  metrics::RunResult r;
  r.windows.push_back({"0s-10s", 0, 10, true, 1, 1.5, 1.5, 2, 90, 0, 90, {}, {}});
  EXPECT_TRUE(HasLine(Lines(FormatSummary(r)),
                      "  window 0s-10s: per second as units/min min 60, mean 90, median 90, max "
                      "120; 90 units/min over the window; running OPM 0 \u2192 90; unit p50 "
                      "0.000 ms, p99 0.000 ms"))
      << FormatSummary(r);
}

TEST(SummaryTest, InterruptedRunIsFlagged) {
  metrics::RunResult r = testing::SampleResult();
  r.interrupted = true;
  EXPECT_NE(FormatSummary(r).find("INTERRUPTED"), std::string::npos);
}

}  // namespace
}  // namespace sb::report
