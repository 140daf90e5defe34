// A filled-in RunResult shared by the report tests: a short DVD Store 3 run with every field set.
#ifndef STOREBENCH_TESTS_UNIT_REPORT_SAMPLE_RESULT_H_
#define STOREBENCH_TESTS_UNIT_REPORT_SAMPLE_RESULT_H_

#include <string>
#include <utility>
#include <vector>

#include "metrics/run_result.h"

namespace sb::report::testing {

// DVD Store 3's Final-line fields in their canonical order (spec/dvdstore.md §6.5).
inline std::vector<std::pair<std::string, double>> Ds3Figures() {
  return {{"et", 600.0},
          {"n_overall", 123456},
          {"opm", 12345},
          {"rt_tot_lastn_max", 250},
          {"rt_tot_avg", 35},
          {"n_login_overall", 98765},
          {"n_newcust_overall", 24691},
          {"n_newmember_overall", 1234},
          {"n_browse_overall", 370368},
          {"n_reviewbrowse", 740736},
          {"n_newreviews", 6173},
          {"n_newhelpfulness", 12346},
          {"n_purchase_overall", 123456},
          {"rt_login_avg_msec", 4},
          {"rt_newcust_avg_msec", 3},
          {"rt_rewmember_avg_msec", 2},
          {"rt_browse_avg_msec", 6},
          {"rt_reviewbrowse_avg_msec", 9},
          {"rt_newreview_avg_msec", 2},
          {"rt_newhelpfulness", 1},
          {"rt_purchase_avg_msec", 11},
          {"rt_tot_sampled", 33},
          {"n_rollbacks_overall", 2593},
          {"rollback_rate", 2.1003434098}};
}

// DVD Store 2's Final-line fields in their canonical order.
inline std::vector<std::pair<std::string, double>> Ds2Figures() {
  return {{"et", 600.0},
          {"n_overall", 123456},
          {"opm", 12345},
          {"rt_tot_lastn_max", 250},
          {"rt_tot_avg", 35},
          {"n_login_overall", 98765},
          {"n_newcust_overall", 24691},
          {"n_browse_overall", 370368},
          {"n_purchase_overall", 123456},
          {"rt_login_avg_msec", 4},
          {"rt_newcust_avg_msec", 3},
          {"rt_browse_avg_msec", 6},
          {"rt_purchase_avg_msec", 11},
          {"rt_tot_sampled", 33},
          {"n_rollbacks_overall", 2593},
          {"rollback_rate", 2.1003434098}};
}

// SampleResult() fills in windows, baselines, steady_state and warnings too; this clears them, as
// in a run without --window/--baseline and before those fields existed.
inline void ClearWindowFields(metrics::RunResult* r) {
  r->windows.clear();
  r->baselines.clear();
  r->steady_state = metrics::SteadyStateResult{};
  r->warnings.clear();
}

inline metrics::RunResult SampleResult() {
  metrics::RunResult r;
  r.workload = "dvdstore";
  r.headline_name = "opm";
  r.headline_value = 12345;
  // opm counts purchases (type 3) per minute; the second headline mixes a type and a counter so
  // both kinds of term and a fractional value are exercised.
  r.headlines = {{"opm", 12345}, {"rollbacks_per_sec", 2593.0 / 600.0}};
  metrics::HeadlineSpec opm;
  opm.name = "opm";
  opm.words = "orders per minute";
  opm.per_second = 60;
  opm.types = {{3, 1.0}};
  metrics::HeadlineSpec rollbacks;
  rollbacks.name = "rollbacks_per_sec";
  rollbacks.words = "rollbacks and a quarter of the browses per second";
  rollbacks.per_second = 1;
  rollbacks.types = {{2, 0.25}};
  rollbacks.counters = {{0, 1.0}};
  r.headline_specs = {opm, rollbacks};
  r.loop_model = "closed loop, think time 0 s (DVD Store order loop)";
  r.started_at = "2024-05-01T10:00:00Z";
  r.ended_at = "2024-05-01T10:11:02Z";
  r.measured_sec = 600.0;
  r.interrupted = false;
  r.config_json =
      R"({"target":"sqlite:///tmp/ds3.db","n_threads":16,"run_time":600,"think_time":0.0,)"
      R"("password":"<redacted>","ds2_mode":false})";
  r.environment = {
      {"host", "bench01"},      {"cpu_model", "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz"},
      {"cpu_count", "64"},      {"kernel", "Linux 6.1.0-18-amd64"},
      {"filesystem", "ext4"},   {"db.product", "SQLite"},
      {"db.version", "3.40.1"}, {"db.journal_mode", "wal"}};
  r.choices = {{"restock", "SQL Server-style trigger: updates that leave stock below 3 revert"},
               {"bug_compat", "none (all §8.1 items fixed)"}};
  r.type_names = {"login", "new_customer", "browse", "purchase"};
  r.latency = {
      {98765, 4.125, 0.51, 3.9, 7.25, 8.5, 12.75, 30.5, 81.25},
      {24691, 3.5, 0.75, 3.25, 5.5, 6.0, 9.0, 15.0, 44.0},
      {370368, 6.0625, 0.25, 5.5, 10.0, 12.0, 20.0, 45.0, 120.5},
      {123456, 11.5, 1.25, 10.0, 18.0, 22.5, 40.0, 90.0, 250.125},
  };
  r.counters = {{"rollbacks", 2593}, {"orders", 123456}};
  r.errors = {{"serialization", 3}, {"deadlock", 1}, {"timeout", 0}};
  r.retries = 7;
  r.workers_started = 16;
  r.workers_failed = 0;
  r.figures = Ds3Figures();
  r.final_status = {600.0, 123456, 12345, 250, 35, 33, 2593, 2.1003434098};
  r.driver_cpu_sec = 31.25;
  r.driver_cpu_sec_per_op = 0.000253125;
  r.driver_cpu_share = 0.052;
  metrics::WindowResult early;
  early.label = "5m-10m";
  early.start_sec = 300.0;
  early.end_sec = 600.0;
  early.complete = true;
  early.per_sec_min = 190.0;
  early.per_sec_mean = 205.75;
  early.per_sec_median = 206.0;
  early.per_sec_max = 221.0;
  early.per_minute = 12345.5;
  early.running_start = 12200.0;
  early.running_end = 12345.0;
  early.headlines = {{"opm", 12345.5}, {"rollbacks_per_sec", 4.25}};
  early.latency = {{49000, 4.0, 0.5, 3.75, 7.0, 8.25, 12.5, 30.0, 80.0},
                   {12300, 3.5, 0.75, 3.25, 5.5, 6.0, 9.0, 15.0, 44.0},
                   {185000, 6.0, 0.25, 5.5, 10.0, 12.0, 20.0, 45.0, 120.5},
                   {61725, 11.25, 1.25, 9.75, 17.5, 22.0, 39.5, 88.0, 240.0}};
  metrics::WindowResult late;  // reaches past the end of the run
  late.label = "9m-12m";
  late.start_sec = 540.0;
  late.end_sec = 720.0;
  late.complete = false;
  late.per_sec_min = 0.0;
  late.per_sec_mean = 198.5;
  late.per_sec_median = 199.0;
  late.per_sec_max = 212.0;
  late.per_minute = 11910.0;
  late.running_start = 12330.0;
  late.running_end = 12345.0;
  late.headlines = {{"opm", 11910}, {"rollbacks_per_sec", 4.5}};
  late.latency = {{9800, 4.25, 0.5, 4.0, 7.5, 8.75, 13.0, 31.0, 81.25},
                  {2400, 3.5, 0.75, 3.25, 5.5, 6.0, 9.0, 15.0, 44.0},
                  {37000, 6.25, 0.25, 5.75, 10.5, 12.5, 21.0, 46.0, 110.0},
                  {11910, 11.75, 1.5, 10.25, 18.5, 23.0, 41.0, 92.0, 250.125}};
  r.windows = {early, late};
  r.baselines = {
      {"opm>=12000@5m-10m",
       "orders per minute over the window in 5m-10m (300 s to 600 s from start) must be at "
       "least 12000",
       12345.5, true, "every_interval", ""},
      {"p99_ms<=40@9m-12m",
       "p99 latency of orders in ms in 9m-12m (540 s to 720 s from start) must be at most 40; "
       "the run did not cover the whole window",
       41.0, false, "window_mean", ""},
  };
  r.steady_state.evaluated = true;
  r.steady_state.steady = true;
  r.steady_state.slope_pct = -1.5;
  r.steady_state.cv_pct = 4.25;
  r.steady_state.max_slope_pct = 10.0;
  r.steady_state.max_cv_pct = 25.0;
  r.steady_state.detail =
      "steady: throughput changed -1.5 % across the window (limit 10.0 %) with a per-second "
      "spread of 4.2 % (limit 25.0 %)";
  r.warnings = {
      "the storebench process used 95 % of this machine's 4 cores during the measured "
      "window: the result may measure the client machine, not the server"};
  r.verify = {{"orders_stored", true, "120863 new orders = purchases - rollbacks"},
              {"inventory_non_negative", false, "3 products with QUAN_IN_STOCK < 0"}};
  r.server_check.present = true;
  r.server_check.span = "from the end of warm-up to the end of the run, wind-down included";
  r.server_check.start_exact = true;
  r.server_check.hold_ms = 12.5;
  r.server_check.counters_settled = true;
  r.server_check.client_units = 123460;
  r.server_check.server_counters = {
      {"Com_commit", "commits", 1000, 121000, "SHOW GLOBAL STATUS (server-wide)"},
      {"Questions", "", 5000, 2005000, ""}};
  r.server_check.probe = {{"orders", "", 12000, 132863, ""}};
  r.server_check.comparisons = {
      {"committed_orders_vs_new_orders_rows", 120863, 120863, "==", true,
       "orders the client committed vs rows added to ORDERS"},
      {"server_commits_vs_committed_orders", 120863, 120000, ">=", false,
       "orders the client committed vs transactions the server committed"}};
  r.series.interval_sec = 1.0;
  r.series.type_names = r.type_names;
  r.series.counter_names = {"rollbacks", "errors", "retries"};
  r.series.points = {
      {1.0,
       "warmup",
       {150, 40, 600, 190},
       {4.5, 3.75, 6.5, 12.0},
       {13.0, 9.5, 21.0, 41.0},
       {4, 0, 0}},
      {2.0,
       "measure",
       {160, 41, 610, 205},
       {4.0, 3.5, 6.0, 11.0},
       {12.0, 9.0, 20.0, 40.0},
       {5, 1, 2}},
      {3.0, "winddown", {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0}},
  };
  return r;
}

// What a schema_version 1 document could not hold: the headline list and definitions, window
// headlines, baseline kinds (all "window_mean" then) and instances.
inline void ClearVersion2Fields(metrics::RunResult* r) {
  r->headlines.clear();
  r->headline_specs.clear();
  for (auto& w : r->windows) w.headlines.clear();
  for (auto& b : r->baselines) {
    b.kind = "window_mean";
    b.decided_by.clear();
  }
  r->name.clear();
  r->target.clear();
  r->instances.clear();
}

// A run of two instances: SampleResult() is the aggregate, and each instance is a variation of
// it with its own name, target, figures, baselines and time series.
inline metrics::RunResult SampleMultiInstanceResult() {
  metrics::RunResult r = SampleResult();
  metrics::RunResult one = SampleResult();
  one.name = "ds3_1";
  one.target = "sqlite:///tmp/ds3_1.db";
  one.config_json.clear();
  one.headline_value = 6500;
  one.headlines = {{"opm", 6500}, {"rollbacks_per_sec", 2.25}};
  one.baselines[0].measured = 6500;
  one.warnings.clear();
  one.server_check = metrics::ServerCheckResult{};
  metrics::RunResult two = SampleResult();
  two.name = "ds3_2";
  two.target = "postgresql://bench@db2:5432/ds3";
  two.config_json.clear();
  two.environment["db.product"] = "PostgreSQL";
  two.environment["db.version"] = "16.2";
  two.headline_value = 5845;
  two.headlines = {{"opm", 5845}, {"rollbacks_per_sec", 2.0716666666666668}};
  two.baselines[0].measured = 5845.5;
  two.baselines[0].passed = false;
  two.verify.pop_back();
  two.series.points.pop_back();
  for (auto& p : two.series.points) p.type_counts[3] += 7;
  // The aggregate's rules are judged per instance; the lowest decides.
  r.baselines[0].measured = 5845.5;
  r.baselines[0].passed = false;
  r.baselines[0].decided_by = "ds3_2";
  r.baselines[1].decided_by = "ds3_1";
  r.instances = {one, two};
  return r;
}

}  // namespace sb::report::testing

#endif  // STOREBENCH_TESTS_UNIT_REPORT_SAMPLE_RESULT_H_
