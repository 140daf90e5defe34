#include "report/files/instance_series_csv.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace sb::report {
namespace {

metrics::HeadlineSpec Opm() {
  metrics::HeadlineSpec h;
  h.name = "opm";
  h.words = "orders per minute";
  h.per_second = 60;
  h.types = {{0, 1.0}};
  return h;
}

// Counts a counter and a weighted type, to check both kinds of term.
metrics::HeadlineSpec Qps() {
  metrics::HeadlineSpec h;
  h.name = "qps";
  h.words = "queries per second";
  h.per_second = 1;
  h.types = {{1, 2.0}};
  h.counters = {{0, 1.0}};
  return h;
}

metrics::IntervalPoint Point(double t, const char* phase, uint64_t orders, uint64_t logins,
                             double order_p99, std::vector<int64_t> counters) {
  metrics::IntervalPoint p;
  p.t_sec = t;
  p.phase = phase;
  p.type_counts = {orders, logins};
  p.type_mean_ms = {1, 1};
  p.type_p99_ms = {order_p99, 9};
  p.counters = std::move(counters);
  return p;
}

metrics::TimeSeries Series(double interval) {
  metrics::TimeSeries s;
  s.interval_sec = interval;
  s.type_names = {"order", "login"};
  s.counter_names = {"queries", "errors.deadlock", "retries", "errors.timeout"};
  return s;
}

TEST(InstanceSeriesCsvTest, OneRowPerInstancePerPoint) {
  metrics::RunResult a;
  a.name = "ds3_1";
  a.headline_specs = {Opm(), Qps()};
  a.series = Series(1.0);
  a.series.points = {Point(1, "warmup", 10, 20, 12.5, {1, 2, 5, 1}),
                     Point(2, "measure", 11, 0, 13.25, {0, 0, 0, 0})};
  metrics::RunResult b;
  b.name = "ds3,2";  // a comma: the cell is quoted
  // No specs of its own: the run's apply. Two-second intervals halve the counts.
  b.series = Series(2.0);
  b.series.points = {Point(2, "measure", 25, 4, 0.1 + 0.2, {3, 0, 7, 4}),
                     Point(4, "winddown", 1, 0, std::nan(""), {0, 0, 0, 0})};
  metrics::RunResult r;
  r.headline_name = "opm";
  r.headline_specs = {Opm(), Qps()};
  r.series = Series(1.0);
  r.instances = {a, b};
  EXPECT_EQ(InstanceSeriesCsv(r),
            "instance,second,phase,opm,qps,order_p99_ms,errors,login_p99_ms,queries,"
            "errors.deadlock,retries,errors.timeout\n"
            "ds3_1,1,warmup,600,41,12.5,3,9,1,2,5,1\n"
            "ds3_1,2,measure,660,0,13.25,0,9,0,0,0,0\n"
            "\"ds3,2\",2,measure,750,5.5,0.30000000000000004,4,9,3,0,7,4\n"
            "\"ds3,2\",4,winddown,30,0,,0,9,0,0,0,0\n");
}

TEST(InstanceSeriesCsvTest, ARunOfOneInstanceIsInstanceOne) {
  metrics::RunResult r;
  r.headline_name = "opm";
  r.headline_specs = {Opm()};
  r.series = Series(1.0);
  // A run stopped after half a second: 3 orders in 0.5 s are 360 per minute.
  r.series.points = {Point(0.5, "measure", 3, 0, 2.0, {0, 1, 0, 0})};
  EXPECT_EQ(InstanceSeriesCsv(r),
            "instance,second,phase,opm,order_p99_ms,errors,login_p99_ms,queries,errors.deadlock,"
            "retries,errors.timeout\n"
            "1,0.5,measure,360,2,1,9,0,1,0,0\n");
  r.name = "ds3_1";
  EXPECT_EQ(InstanceSeriesCsv(r),
            "instance,second,phase,opm,order_p99_ms,errors,login_p99_ms,queries,errors.deadlock,"
            "retries,errors.timeout\n"
            "ds3_1,0.5,measure,360,2,1,9,0,1,0,0\n");
}

TEST(InstanceSeriesCsvTest, AShortIntervalIsARateOverItsOwnLength) {
  // The warm-up ends at 1.5 s and the run 0.25 s after the tick at 2.5 s: those points cover
  // half and a quarter of a second, at the same rate as the whole seconds.
  metrics::RunResult r;
  r.headline_name = "opm";
  r.headline_specs = {Opm()};
  r.series = Series(1.0);
  r.series.points = {
      Point(1, "warmup", 10, 0, 1, {0, 0, 0, 0}), Point(1.5, "warmup", 5, 0, 1, {0, 0, 0, 0}),
      Point(2.5, "measure", 10, 0, 1, {0, 0, 0, 0}), Point(2.75, "measure", 2, 0, 1, {0, 0, 0, 0})};
  const std::string csv = InstanceSeriesCsv(r);
  std::vector<std::string> opm;
  for (size_t at = csv.find('\n'); at != std::string::npos && at + 1 < csv.size();
       at = csv.find('\n', at + 1)) {
    const size_t a = csv.find(',', csv.find(',', csv.find(',', at + 1) + 1) + 1);
    opm.push_back(csv.substr(a + 1, csv.find(',', a + 1) - a - 1));
  }
  EXPECT_EQ(opm, (std::vector<std::string>{"600", "600", "600", "480"}));
}

TEST(InstanceSeriesCsvTest, AnInstancesOwnSpecWinsAndMissingSpecsLeaveCellsEmpty) {
  metrics::RunResult one;
  one.name = "a";
  metrics::HeadlineSpec per_second_opm = Opm();
  per_second_opm.per_second = 1;  // this instance's own definition of "opm"
  one.headline_specs = {per_second_opm};
  one.series = Series(1.0);
  one.series.points = {Point(1, "measure", 7, 0, 1.0, {0, 0, 0, 0})};
  metrics::RunResult r;
  r.headline_name = "opm";
  r.headline_specs = {Opm()};
  r.instances = {one};
  EXPECT_EQ(InstanceSeriesCsv(r),
            "instance,second,phase,opm,order_p99_ms,errors,login_p99_ms,queries,errors.deadlock,"
            "retries,errors.timeout\n"
            "a,1,measure,7,1,0,9,0,0,0,0\n");
  // Without any definition (a result read from a version 1 document) the column stays empty.
  r.headline_specs.clear();
  r.instances[0].headline_specs.clear();
  EXPECT_EQ(InstanceSeriesCsv(r),
            "instance,second,phase,opm,order_p99_ms,errors,login_p99_ms,queries,errors.deadlock,"
            "retries,errors.timeout\n"
            "a,1,measure,,1,0,9,0,0,0,0\n");
}

TEST(InstanceSeriesCsvTest, SystemUnderTestCpuOfTheNearestReading) {
  metrics::RunResult r;
  r.headline_name = "opm";
  r.headline_specs = {Opm()};
  r.series = Series(1.0);
  r.series.counter_names.clear();
  r.series.type_names = {"order"};
  for (double t : {1.0, 2.0, 3.0}) {
    metrics::IntervalPoint p = Point(t, "measure", 1, 0, 1.0, {});
    p.type_counts.resize(1);
    p.type_p99_ms.resize(1);
    r.series.points.push_back(p);
  }
  r.sut_cpu.points = {{0.98, 40}, {2.3, 55}, {2.4, 70}};  // nothing within 0.5 s of second 3
  EXPECT_EQ(InstanceSeriesCsv(r),
            "instance,second,phase,opm,order_p99_ms,errors,sut_cpu_pct\n"
            "1,1,measure,60,1,0,40\n"
            "1,2,measure,60,1,0,55\n"
            "1,3,measure,60,1,0,\n");
}

TEST(InstanceSeriesCsvTest, HeaderOnlyWithoutPoints) {
  metrics::RunResult r;
  EXPECT_EQ(InstanceSeriesCsv(r), "instance,second,phase,unit_p99_ms,errors\n");
}

}  // namespace
}  // namespace sb::report
