// storebench compare's statistics on constructed results with known figures, and the
// hierarchical bootstrap interval against the exact bootstrap distribution of small inputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "report/files/comparison_json.h"
#include "stats/bootstrap.h"

namespace sb::report {
namespace {

metrics::RunResult Run(double opm, double p99_ms, const std::string& workload = "dvdstore",
                       const std::string& config = R"({"db_size":"10MB","run_time":60})") {
  metrics::RunResult r;
  r.workload = workload;
  r.headline_name = "opm";
  r.headline_value = opm;
  r.headlines = {{"opm", opm}};
  r.config_json = config;
  r.type_names = {"purchase"};
  metrics::LatencySummary l;
  l.count = 100;
  l.p50_ms = p99_ms / 4;
  l.p95_ms = p99_ms / 2;
  l.p99_ms = p99_ms;
  r.latency = {l};
  return r;
}

CompareGroup Group(const std::string& label, const std::vector<double>& opms, double p99_ms = 10) {
  CompareGroup g{label, {}};
  for (size_t i = 0; i < opms.size(); ++i) {
    g.runs.push_back({label + std::to_string(i) + ".json", Run(opms[i], p99_ms), 0, false});
  }
  return g;
}

const MetricComparison& Metric(const Comparison& c, const std::string& name) {
  for (const auto& m : c.metrics) {
    if (m.name == name) return m;
  }
  ADD_FAILURE() << "no metric " << name;
  return c.metrics.front();
}

TEST(CompareTest, MediansSpreadAndRatioOfKnownGroups) {
  auto c = Compare({Group("A", {100, 120, 110}), Group("B", {150, 130, 140, 141})}, {});
  ASSERT_TRUE(c.ok()) << c.status().message();
  const MetricComparison& m = Metric(*c, "opm");
  EXPECT_FALSE(m.lower_is_better);
  EXPECT_EQ(m.groups[0].runs, 3);
  EXPECT_DOUBLE_EQ(m.groups[0].median, 110);
  EXPECT_DOUBLE_EQ(m.groups[0].min, 100);
  EXPECT_DOUBLE_EQ(m.groups[0].max, 120);
  EXPECT_DOUBLE_EQ(m.groups[0].stddev, 10);
  EXPECT_DOUBLE_EQ(m.groups[1].median, 140.5);  // even count: mean of the middle two
  ASSERT_EQ(m.pairs.size(), 1u);
  EXPECT_DOUBLE_EQ(m.pairs[0].ratio, (561.0 / 4) / 110);
  EXPECT_DOUBLE_EQ(m.groups[1].normalized_pct, 100 * (561.0 / 4) / 110);
  ASSERT_TRUE(m.pairs[0].has_interval);
  EXPECT_LT(m.pairs[0].low, m.pairs[0].ratio);
  EXPECT_GT(m.pairs[0].high, m.pairs[0].ratio);
  EXPECT_GT(m.pairs[0].low, 1.0);  // every B run beats every A run
  EXPECT_EQ(m.pairs[0].verdict, "higher");
  EXPECT_TRUE(m.pairs[0].better);
}

TEST(CompareTest, LatencyIsLowerIsBetterAndOverlapGivesNoVerdict) {
  auto c = Compare({Group("A", {100, 120}, 10), Group("B", {110, 105}, 20)}, {});
  ASSERT_TRUE(c.ok());
  const MetricComparison& lat = Metric(*c, "p99_ms.purchase");
  EXPECT_TRUE(lat.lower_is_better);
  EXPECT_DOUBLE_EQ(lat.pairs[0].ratio, 2.0);
  EXPECT_EQ(lat.pairs[0].verdict, "higher");
  EXPECT_FALSE(lat.pairs[0].better);  // twice the latency is worse
  const MetricComparison& opm = Metric(*c, "opm");
  EXPECT_EQ(opm.pairs[0].verdict, "no difference shown");
}

TEST(CompareTest, OneRunPerGroupHasNoIntervalAndSaysWhy) {
  auto c = Compare({Group("A", {100}), Group("B", {150, 160})}, {});
  ASSERT_TRUE(c.ok());
  const PairFigures& p = Metric(*c, "opm").pairs[0];
  EXPECT_FALSE(p.has_interval);
  EXPECT_DOUBLE_EQ(p.ratio, 1.55);
  EXPECT_NE(p.no_interval.find("'A' has 1 run"), std::string::npos) << p.no_interval;
  EXPECT_EQ(p.verdict, "no difference shown");
}

TEST(CompareTest, NormalizedToTheWeakest) {
  CompareOptions o;
  o.normalize = "weakest";
  auto c = Compare({Group("A", {200, 200}), Group("B", {100, 100}), Group("C", {150, 150})}, o);
  ASSERT_TRUE(c.ok());
  const MetricComparison& m = Metric(*c, "opm");
  EXPECT_EQ(m.reference, "B");
  EXPECT_DOUBLE_EQ(m.groups[0].normalized_pct, 200);
  EXPECT_DOUBLE_EQ(m.groups[2].normalized_pct, 150);
  EXPECT_EQ(m.pairs.size(), 2u);  // B and C, each against A
  // For latency the weakest is the slowest.
  const MetricComparison& lat = Metric(*c, "p99_ms.purchase");
  EXPECT_EQ(lat.reference, "A");  // all equal: the first stays
}

TEST(CompareTest, RefusesDifferentWorkloadSizeOrWindowUnlessForced) {
  CompareGroup a = Group("A", {100, 110});
  CompareGroup b = Group("B", {100, 110});
  b.runs[1].run.config_json = R"({"db_size":"20MB","run_time":60})";
  auto c = Compare({a, b}, {});
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("database size (db_size) differs: '10MB'"), std::string::npos)
      << c.status().message();
  EXPECT_NE(c.status().message().find("B1.json"), std::string::npos);

  CompareGroup w = Group("B", {100, 110});
  w.runs[0].run.workload = "oltp";
  c = Compare({a, w}, {});
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("workload differs"), std::string::npos);

  CompareGroup win = Group("B", {100, 110});
  win.runs[0].run.windows.push_back({});
  win.runs[0].run.windows[0].label = "23m-28m";
  c = Compare({a, win}, {});
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("windows differs"), std::string::npos);

  CompareOptions force;
  force.force = true;
  c = Compare({a, b}, force);
  ASSERT_TRUE(c.ok());
  ASSERT_EQ(c->mismatches.size(), 1u);
  EXPECT_NE(c->mismatches[0].find("database size (db_size)"), std::string::npos);
}

TEST(CompareTest, TheSizeARunUsedIsItsChoiceNotTheOptionsDefault) {
  // Runs that leave --db_size out take the loaded size: config holds the default for both, the
  // choices the databases' real sizes.
  CompareGroup a = Group("A", {100, 110});
  CompareGroup b = Group("B", {100, 110});
  for (auto& in : a.runs) in.run.choices["db_size"] = "S (20000 customers)";
  for (auto& in : b.runs) in.run.choices["db_size"] = "20MB (40000 customers)";
  auto c = Compare({a, b}, {});
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("database size (db_size) differs: 'S (20000 customers)'"),
            std::string::npos)
      << c.status().message();
  // The same database, one run given --db_size and one not: the same size.
  for (auto& in : b.runs) in.run.choices["db_size"] = "S (20000 customers)";
  b.runs[0].run.config_json = R"({"db_size":"S","run_time":60})";
  EXPECT_TRUE(Compare({a, b}, {}).ok());
  // TPC-C-like warehouses and Order Entry's scale are sizes too.
  for (const char* key : {"warehouses", "soe_scale"}) {
    CompareGroup x = Group("A", {100, 110});
    CompareGroup y = Group("B", {100, 110});
    for (auto& in : x.runs) in.run.choices[key] = "1";
    for (auto& in : y.runs) in.run.choices[key] = "2";
    c = Compare({x, y}, {});
    ASSERT_FALSE(c.ok()) << key;
    EXPECT_NE(c.status().message().find(std::string("database size (") + key + ") differs"),
              std::string::npos)
        << c.status().message();
  }
}

TEST(CompareTest, RefusesFewerThanTwoGroupsAndEmptyGroups) {
  EXPECT_FALSE(Compare({Group("A", {1, 2})}, {}).ok());
  auto c = Compare({Group("A", {1, 2}), CompareGroup{"B", {}}}, {});
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("'B' has no results"), std::string::npos);
}

TEST(CompareTest, PerWattFiguresWhenPowerIsPresent) {
  CompareGroup a = Group("A", {100, 100});
  CompareGroup b = Group("B", {100, 100});
  for (auto& in : a.runs) in.has_power = true, in.power_mean_w = 200;
  for (auto& in : b.runs) in.has_power = true, in.power_mean_w = 250;
  auto c = Compare({a, b}, {});
  ASSERT_TRUE(c.ok());
  const MetricComparison& pw = Metric(*c, "opm_per_watt");
  EXPECT_DOUBLE_EQ(pw.groups[0].median, 0.5);
  EXPECT_DOUBLE_EQ(pw.pairs[0].ratio, 0.8);
  EXPECT_TRUE(Metric(*c, "power_mean_w").lower_is_better);
}

TEST(CompareTest, JsonRoundTrips) {
  auto c = Compare({Group("A<b>", {100, 120, 110}), Group("B", {150, 130})}, {});
  ASSERT_TRUE(c.ok());
  const std::string text = ComparisonToJson(*c);
  auto back = ComparisonFromJson(text);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(ComparisonToJson(*back), text);
  EXPECT_EQ(back->labels[0], "A<b>");
  EXPECT_FALSE(ComparisonFromJson(R"({"kind":"x"})").ok());
  auto newer = ComparisonFromJson(R"({"kind":"storebench comparison","schema_version":99})");
  ASSERT_FALSE(newer.ok());
  EXPECT_NE(newer.status().message().find("newer"), std::string::npos);
}

TEST(CompareTest, CsvHasOneRowPerMetricAndGroup) {
  auto c = Compare({Group("A", {100, 120}), Group("B,x", {150, 130})}, {});
  ASSERT_TRUE(c.ok());
  const std::string csv = ComparisonCsv(*c);
  const auto lines = std::count(csv.begin(), csv.end(), '\n');
  EXPECT_EQ(lines, 1 + 2 * static_cast<long>(c->metrics.size()));
  EXPECT_NE(csv.find("opm,A,2,110,100,120,110,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\"B,x\""), std::string::npos);
}

// The console's default is one screen: the headline, the unit's p99 and (with power) watts and
// per-watt figures, each with its ratio; every percentile of every type only with --verbose.
TEST(CompareTest, TheConsoleSummaryHoldsTheKeyMetricsAndVerboseHoldsAll) {
  CompareGroup a = Group("A", {100, 120, 110}), b = Group("B", {150, 130, 140});
  for (CompareGroup* g : {&a, &b}) {
    for (CompareInput& in : g->runs) {
      in.run.type_names = {"purchase", "login"};
      in.run.latency.push_back(in.run.latency[0]);
      in.has_power = true;
      in.power_mean_w = 200;
    }
  }
  auto c = Compare({a, b}, {});
  ASSERT_TRUE(c.ok()) << c.status().message();
  const std::string summary = FormatComparison(*c);
  for (const char* shown :
       {"opm ", "p99_ms.purchase", "power_mean_w", "opm_per_watt", "B/A = 1.2727", "--verbose"}) {
    EXPECT_NE(summary.find(shown), std::string::npos) << shown << "\n" << summary;
  }
  for (const char* hidden : {"p50_ms.purchase", "p95_ms.purchase", "p99_ms.login", "% of ref"}) {
    EXPECT_EQ(summary.find(hidden), std::string::npos) << hidden << "\n" << summary;
  }
  EXPECT_NE(summary.find("(5 more metrics"), std::string::npos) << summary;
  EXPECT_LE(std::count(summary.begin(), summary.end(), '\n'), 24) << summary;
  const std::string verbose = FormatComparison(*c, /*verbose=*/true);
  for (const char* shown : {"p50_ms.purchase", "p95_ms.login", "p99_ms.login", "% of ref"}) {
    EXPECT_NE(verbose.find(shown), std::string::npos) << shown;
  }
  EXPECT_EQ(verbose.find("--verbose"), std::string::npos);
}

TEST(BootstrapTest, ResampledRunValueScalesByTheDrawnInstances) {
  RunFigure r{300, {100, 200}};  // aggregate 300 of two instances (mean 150)
  EXPECT_DOUBLE_EQ(ResampledRunValue(r, {0, 1}), 300);
  EXPECT_DOUBLE_EQ(ResampledRunValue(r, {0, 0}), 200);
  EXPECT_DOUBLE_EQ(ResampledRunValue(r, {1, 1}), 400);
  EXPECT_DOUBLE_EQ(ResampledRunValue(RunFigure{50, {}}, {}), 50);
}

// Every equally likely hierarchical resample of a group: its mean, once per outcome.
std::vector<double> ExactGroupMeans(const std::vector<RunFigure>& runs) {
  std::vector<double> out;
  const size_t n = runs.size();
  std::vector<size_t> pick(n, 0);
  // Enumerates the run picks, and for each the instance picks of every slot.
  std::function<void(size_t, double)> slot = [&](size_t k, double sum) {
    if (k == n) {
      out.push_back(sum / static_cast<double>(n));
      return;
    }
    for (size_t r = 0; r < n; ++r) {
      const RunFigure& run = runs[r];
      if (run.instances.size() < 2) {
        slot(k + 1, sum + run.value);
        continue;
      }
      const size_t m = run.instances.size();
      std::vector<size_t> idx(m, 0);
      for (;;) {
        slot(k + 1, sum + ResampledRunValue(run, idx));
        size_t d = 0;
        while (d < m && ++idx[d] == m) idx[d++] = 0;
        if (d == m) break;
      }
    }
  };
  slot(0, 0);
  return out;
}

TEST(BootstrapTest, IntervalMatchesTheExactBootstrapDistribution) {
  // Two runs of two instances against three whole runs: 64 × 27 equally likely resamples.
  const std::vector<RunFigure> a = {{200, {90, 110}}, {230, {100, 130}}};
  const std::vector<RunFigure> b = {{250, {}}, {262, {}}, {241, {}}};
  std::vector<double> ratios;
  for (double ma : ExactGroupMeans(a)) {
    for (double mb : ExactGroupMeans(b)) ratios.push_back(mb / ma);
  }
  ASSERT_EQ(ratios.size(), 64u * 27u);
  std::sort(ratios.begin(), ratios.end());
  auto quantile = [&](double p) {
    return ratios[static_cast<size_t>(p * static_cast<double>(ratios.size() - 1))];
  };
  const RatioInterval ci = BootstrapRatio(a, b, 40000, 7, 0.95);
  EXPECT_DOUBLE_EQ(ci.ratio, ((250.0 + 262 + 241) / 3) / 215);
  // The Monte Carlo percentiles fall within the exact distribution's 1.5–3.5 % and
  // 96.5–98.5 % quantiles (a sampling error of 40,000 resamples is far smaller).
  EXPECT_GE(ci.low, quantile(0.015));
  EXPECT_LE(ci.low, quantile(0.035));
  EXPECT_GE(ci.high, quantile(0.965));
  EXPECT_LE(ci.high, quantile(0.985));
  // Without the instance level the interval is narrower: the instances' spread counts.
  const std::vector<RunFigure> flat = {{200, {}}, {230, {}}};
  const RatioInterval no_instances = BootstrapRatio(flat, b, 40000, 7, 0.95);
  EXPECT_LT(no_instances.high - no_instances.low, ci.high - ci.low);
}

TEST(BootstrapTest, SameSeedSameInterval) {
  const std::vector<RunFigure> a = {{1, {}}, {2, {}}, {3, {}}};
  const std::vector<RunFigure> b = {{2, {}}, {3, {}}, {5, {}}};
  const RatioInterval x = BootstrapRatio(a, b, 1000, 3, 0.95);
  const RatioInterval y = BootstrapRatio(a, b, 1000, 3, 0.95);
  EXPECT_EQ(x.low, y.low);
  EXPECT_EQ(x.high, y.high);
}

}  // namespace
}  // namespace sb::report
