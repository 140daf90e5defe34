// Field-by-field comparison of two RunResults for the report tests (a result and the one read
// back from its JSON document).
#ifndef STOREBENCH_TESTS_UNIT_REPORT_EXPECT_SAME_RESULT_H_
#define STOREBENCH_TESTS_UNIT_REPORT_EXPECT_SAME_RESULT_H_

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "metrics/run_result.h"

namespace sb::report::testing {

// NaN-aware equality for doubles that went through JSON.
inline void ExpectSameDouble(double a, double b, const std::string& what) {
  if (std::isnan(a) || std::isnan(b)) {
    EXPECT_TRUE(std::isnan(a) && std::isnan(b)) << what << ": " << a << " vs " << b;
  } else {
    EXPECT_EQ(a, b) << what;
  }
}

inline void ExpectSameLatency(const metrics::LatencySummary& a, const metrics::LatencySummary& b,
                              const std::string& what) {
  EXPECT_EQ(a.count, b.count) << what;
  ExpectSameDouble(a.mean_ms, b.mean_ms, what + ".mean_ms");
  ExpectSameDouble(a.min_ms, b.min_ms, what + ".min_ms");
  ExpectSameDouble(a.p50_ms, b.p50_ms, what + ".p50_ms");
  ExpectSameDouble(a.p90_ms, b.p90_ms, what + ".p90_ms");
  ExpectSameDouble(a.p95_ms, b.p95_ms, what + ".p95_ms");
  ExpectSameDouble(a.p99_ms, b.p99_ms, what + ".p99_ms");
  ExpectSameDouble(a.p999_ms, b.p999_ms, what + ".p999_ms");
  ExpectSameDouble(a.max_ms, b.max_ms, what + ".max_ms");
}

inline void ExpectSameHeadlines(const std::vector<std::pair<std::string, double>>& a,
                                const std::vector<std::pair<std::string, double>>& b,
                                const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].first, b[i].first) << what << "[" << i << "]";
    ExpectSameDouble(a[i].second, b[i].second, what + "." + a[i].first);
  }
}

// Field-by-field equality; config_json is compared as parsed JSON (whitespace may differ).
// Instances are compared the same way, recursively.
inline void ExpectSameResult(const metrics::RunResult& a, const metrics::RunResult& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.target, b.target);
  EXPECT_EQ(a.workload, b.workload);
  EXPECT_EQ(a.headline_name, b.headline_name);
  ExpectSameDouble(a.headline_value, b.headline_value, "headline_value");
  ExpectSameHeadlines(a.headlines, b.headlines, "headlines");
  ASSERT_EQ(a.headline_specs.size(), b.headline_specs.size());
  for (size_t i = 0; i < a.headline_specs.size(); ++i) {
    const metrics::HeadlineSpec& ha = a.headline_specs[i];
    const metrics::HeadlineSpec& hb = b.headline_specs[i];
    EXPECT_EQ(ha.name, hb.name);
    EXPECT_EQ(ha.words, hb.words);
    EXPECT_EQ(ha.per_second, hb.per_second) << ha.name;
    EXPECT_EQ(ha.types, hb.types) << ha.name;
    EXPECT_EQ(ha.counters, hb.counters) << ha.name;
  }
  EXPECT_EQ(a.loop_model, b.loop_model);
  EXPECT_EQ(a.started_at, b.started_at);
  EXPECT_EQ(a.ended_at, b.ended_at);
  ExpectSameDouble(a.measured_sec, b.measured_sec, "measured_sec");
  EXPECT_EQ(a.interrupted, b.interrupted);
  using Json = nlohmann::ordered_json;
  const Json ca = a.config_json.empty() ? Json::object() : Json::parse(a.config_json);
  const Json cb = b.config_json.empty() ? Json::object() : Json::parse(b.config_json);
  EXPECT_EQ(ca, cb);
  EXPECT_EQ(a.environment, b.environment);
  EXPECT_EQ(a.choices, b.choices);
  EXPECT_EQ(a.type_names, b.type_names);
  ASSERT_EQ(a.latency.size(), b.latency.size());
  for (size_t i = 0; i < a.latency.size(); ++i) {
    ExpectSameLatency(a.latency[i], b.latency[i], "latency[" + std::to_string(i) + "]");
  }
  EXPECT_EQ(a.counters, b.counters);
  EXPECT_EQ(a.errors, b.errors);
  EXPECT_EQ(a.retries, b.retries);
  EXPECT_EQ(a.workers_started, b.workers_started);
  EXPECT_EQ(a.workers_failed, b.workers_failed);
  ASSERT_EQ(a.figures.size(), b.figures.size());
  for (size_t i = 0; i < a.figures.size(); ++i) {
    EXPECT_EQ(a.figures[i].first, b.figures[i].first) << "figure " << i;
    ExpectSameDouble(a.figures[i].second, b.figures[i].second, a.figures[i].first);
  }
  const metrics::StatusFigures& fa = a.final_status;
  const metrics::StatusFigures& fb = b.final_status;
  ExpectSameDouble(fa.et_sec, fb.et_sec, "final_status.et_sec");
  EXPECT_EQ(fa.n_overall, fb.n_overall);
  EXPECT_EQ(fa.opm, fb.opm);
  EXPECT_EQ(fa.rt_tot_lastn_max_msec, fb.rt_tot_lastn_max_msec);
  EXPECT_EQ(fa.rt_tot_avg_msec, fb.rt_tot_avg_msec);
  EXPECT_EQ(fa.rt_tot_sampled, fb.rt_tot_sampled);
  EXPECT_EQ(fa.n_rollbacks, fb.n_rollbacks);
  ExpectSameDouble(fa.rollback_pct, fb.rollback_pct, "final_status.rollback_pct");
  ExpectSameDouble(a.driver_cpu_sec, b.driver_cpu_sec, "driver_cpu_sec");
  ExpectSameDouble(a.driver_cpu_sec_per_op, b.driver_cpu_sec_per_op, "driver_cpu_sec_per_op");
  ExpectSameDouble(a.driver_cpu_share, b.driver_cpu_share, "driver_cpu_share");
  ASSERT_EQ(a.windows.size(), b.windows.size());
  for (size_t i = 0; i < a.windows.size(); ++i) {
    const metrics::WindowResult& wa = a.windows[i];
    const metrics::WindowResult& wb = b.windows[i];
    const std::string what = "windows[" + std::to_string(i) + "]";
    EXPECT_EQ(wa.label, wb.label) << what;
    ExpectSameDouble(wa.start_sec, wb.start_sec, what + ".start_sec");
    ExpectSameDouble(wa.end_sec, wb.end_sec, what + ".end_sec");
    EXPECT_EQ(wa.complete, wb.complete) << what;
    ExpectSameDouble(wa.per_sec_min, wb.per_sec_min, what + ".per_sec_min");
    ExpectSameDouble(wa.per_sec_mean, wb.per_sec_mean, what + ".per_sec_mean");
    ExpectSameDouble(wa.per_sec_median, wb.per_sec_median, what + ".per_sec_median");
    ExpectSameDouble(wa.per_sec_max, wb.per_sec_max, what + ".per_sec_max");
    ExpectSameDouble(wa.per_minute, wb.per_minute, what + ".per_minute");
    ExpectSameDouble(wa.running_start, wb.running_start, what + ".running_start");
    ExpectSameDouble(wa.running_end, wb.running_end, what + ".running_end");
    ExpectSameHeadlines(wa.headlines, wb.headlines, what + ".headlines");
    ASSERT_EQ(wa.latency.size(), wb.latency.size()) << what;
    for (size_t j = 0; j < wa.latency.size(); ++j) {
      ExpectSameLatency(wa.latency[j], wb.latency[j], what + ".latency[" + std::to_string(j) + "]");
    }
  }
  ASSERT_EQ(a.baselines.size(), b.baselines.size());
  for (size_t i = 0; i < a.baselines.size(); ++i) {
    EXPECT_EQ(a.baselines[i].rule, b.baselines[i].rule);
    EXPECT_EQ(a.baselines[i].words, b.baselines[i].words);
    ExpectSameDouble(a.baselines[i].measured, b.baselines[i].measured, "baseline measured");
    EXPECT_EQ(a.baselines[i].passed, b.baselines[i].passed);
    EXPECT_EQ(a.baselines[i].kind, b.baselines[i].kind);
    EXPECT_EQ(a.baselines[i].decided_by, b.baselines[i].decided_by);
  }
  const metrics::SteadyStateResult& sa = a.steady_state;
  const metrics::SteadyStateResult& sb = b.steady_state;
  EXPECT_EQ(sa.evaluated, sb.evaluated);
  EXPECT_EQ(sa.steady, sb.steady);
  ExpectSameDouble(sa.slope_pct, sb.slope_pct, "steady_state.slope_pct");
  ExpectSameDouble(sa.cv_pct, sb.cv_pct, "steady_state.cv_pct");
  ExpectSameDouble(sa.max_slope_pct, sb.max_slope_pct, "steady_state.max_slope_pct");
  ExpectSameDouble(sa.max_cv_pct, sb.max_cv_pct, "steady_state.max_cv_pct");
  EXPECT_EQ(sa.detail, sb.detail);
  EXPECT_EQ(a.warnings, b.warnings);
  ASSERT_EQ(a.verify.size(), b.verify.size());
  for (size_t i = 0; i < a.verify.size(); ++i) {
    EXPECT_EQ(a.verify[i].name, b.verify[i].name);
    EXPECT_EQ(a.verify[i].passed, b.verify[i].passed);
    EXPECT_EQ(a.verify[i].detail, b.verify[i].detail);
  }
  ExpectSameDouble(a.series.interval_sec, b.series.interval_sec, "series.interval_sec");
  EXPECT_EQ(a.series.type_names, b.series.type_names);
  EXPECT_EQ(a.series.counter_names, b.series.counter_names);
  ASSERT_EQ(a.series.points.size(), b.series.points.size());
  for (size_t i = 0; i < a.series.points.size(); ++i) {
    const metrics::IntervalPoint& pa = a.series.points[i];
    const metrics::IntervalPoint& pb = b.series.points[i];
    ExpectSameDouble(pa.t_sec, pb.t_sec, "t_sec");
    EXPECT_EQ(pa.phase, pb.phase);
    EXPECT_EQ(pa.type_counts, pb.type_counts);
    EXPECT_EQ(pa.type_mean_ms, pb.type_mean_ms);
    EXPECT_EQ(pa.type_p99_ms, pb.type_p99_ms);
    EXPECT_EQ(pa.counters, pb.counters);
  }
  const metrics::ServerCheckResult& xa = a.server_check;
  const metrics::ServerCheckResult& xb = b.server_check;
  EXPECT_EQ(xa.present, xb.present);
  EXPECT_EQ(xa.span, xb.span);
  EXPECT_EQ(xa.start_exact, xb.start_exact);
  ExpectSameDouble(xa.hold_ms, xb.hold_ms, "server_check.hold_ms");
  EXPECT_EQ(xa.counters_settled, xb.counters_settled);
  EXPECT_EQ(xa.error, xb.error);
  EXPECT_EQ(xa.client_units, xb.client_units);
  auto same_readings = [](const std::vector<metrics::ServerCheckResult::Reading>& x,
                          const std::vector<metrics::ServerCheckResult::Reading>& y) {
    ASSERT_EQ(x.size(), y.size());
    for (size_t i = 0; i < x.size(); ++i) {
      EXPECT_EQ(x[i].name, y[i].name);
      EXPECT_EQ(x[i].meaning, y[i].meaning);
      EXPECT_EQ(x[i].before, y[i].before);
      EXPECT_EQ(x[i].after, y[i].after);
      EXPECT_EQ(x[i].source, y[i].source);
    }
  };
  same_readings(xa.server_counters, xb.server_counters);
  same_readings(xa.probe, xb.probe);
  ASSERT_EQ(xa.comparisons.size(), xb.comparisons.size());
  for (size_t i = 0; i < xa.comparisons.size(); ++i) {
    EXPECT_EQ(xa.comparisons[i].name, xb.comparisons[i].name);
    EXPECT_EQ(xa.comparisons[i].client, xb.comparisons[i].client);
    EXPECT_EQ(xa.comparisons[i].server, xb.comparisons[i].server);
    EXPECT_EQ(xa.comparisons[i].relation, xb.comparisons[i].relation);
    EXPECT_EQ(xa.comparisons[i].passed, xb.comparisons[i].passed);
    EXPECT_EQ(xa.comparisons[i].detail, xb.comparisons[i].detail);
  }
  ASSERT_EQ(a.instances.size(), b.instances.size());
  for (size_t i = 0; i < a.instances.size(); ++i) {
    SCOPED_TRACE("instances[" + std::to_string(i) + "]");
    ExpectSameResult(a.instances[i], b.instances[i]);
  }
}

}  // namespace sb::report::testing

#endif  // STOREBENCH_TESTS_UNIT_REPORT_EXPECT_SAME_RESULT_H_
