// The storage run's tables for people and spreadsheets (report/files/storage_report.h) on a
// constructed test: the console table's cells, the per-test details with each target's line,
// and the per-second series CSV (Iometer's results CSV has its own test, iometer_csv_test).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "metrics/storage_result.h"
#include "report/files/storage_report.h"

namespace sb::report {
namespace {

// One worker on two targets for 10 s: 1000 reads of 4 KiB at 0.2 ms on the first, 500 writes
// of 4 KiB at 0.5 ms on the second.
metrics::StorageTest Mixed() {
  metrics::StorageTest t;
  t.name = "mix";
  t.targets = {{"/data/a.tst", 0, 1 << 30}, {"/data/b.tst", 0, 1 << 30}};
  t.measured_sec = 10;
  metrics::IoCounts a, b;
  a.read_ios = 1000;
  a.read_bytes = 1000 * 4096;
  a.read_latency_sum_ns = 1000 * 200000;
  a.read_latency_max_ns = 2000000;
  a.read_errors = 2;
  b.write_ios = 500;
  b.write_bytes = 500 * 4096;
  b.write_latency_sum_ns = 500 * 500000;
  b.write_latency_max_ns = 4000000;
  b.write_errors = 1;
  t.per_worker_target = {{a, b}};
  t.totals.Add(a);
  t.totals.Add(b);
  t.per_worker = {t.totals};
  t.read_p50_ms = 0.15;
  t.read_p99_ms = 0.9;
  t.read_p999_ms = 1.5;
  t.write_p50_ms = 0.4;
  t.write_p99_ms = 1.2;
  t.write_p999_ms = 3.25;
  t.all_p90_ms = 0.7;
  t.all_p9999_ms = 3.9;
  t.cpu.cpus = 4;
  t.cpu.utilization_pct = 12.34;
  t.cpu.user_pct = 5;
  t.cpu.system_pct = 4;
  t.cpu.irq_pct = 1;
  t.cpu.softirq_pct = 2;
  t.cpu.steal_pct = 0.34;
  t.cpu.iowait_pct = 7.5;
  t.cpu.interrupts_per_sec = 2500;
  t.driver_cpu_sec = 0.003;
  return t;
}

TEST(StorageTableTest, OneLinePerTestWithTheVmtnColumns) {
  metrics::StorageTest idle;  // no I/O and no measured time: zeros, not a division by zero
  idle.name = "tab\there";
  EXPECT_EQ(
      FormatStorageTable({Mixed(), idle}),
      "Test name                       Av. Resp. Time ms    Av. IOs/sec   Av. MB/sec  CPU "
      "util. %\n"
      "mix                                         0.300          150.0         0.59         "
      "12.3\n"
      "tab\\there                                   0.000            0.0         0.00         "
      " 0.0\n");
}

TEST(StorageTableTest, DetailsSplitReadsAndWritesAndListEachTarget) {
  EXPECT_EQ(FormatStorageDetails(Mixed()),
            "mix: 10.0 s, 1500 I/Os (1000 read, 500 write), 3 errors\n"
            "  read  100.0 IOPS 0.39 MiB/s  avg 0.200 ms  p50 0.150  p99 0.900  p99.9 1.500  max "
            "2.000 ms\n"
            "  write 50.0 IOPS 0.20 MiB/s  avg 0.500 ms  p50 0.400  p99 1.200  p99.9 3.250  max "
            "4.000 ms\n"
            "  all   p90 0.700  p99.99 3.900 ms\n"
            "  CPU (guest-visible, 4 CPUs) 12.3 %: user 5.0, system 4.0, irq 1.0, softirq 2.0, "
            "steal 0.3, iowait 7.5; 2500 interrupts/s; storebench 2.00 us CPU per I/O\n"
            "  target /data/a.tst: 1000 I/Os (1000 read, 0 write), 100.0 IOPS, 0.39 MiB/s, avg "
            "0.200 ms, 2 errors\n"
            "  target /data/b.tst: 500 I/Os (0 read, 500 write), 50.0 IOPS, 0.20 MiB/s, avg "
            "0.500 ms, 1 errors\n");
  // One target: no per-target lines (they would repeat the totals).
  metrics::StorageTest one = Mixed();
  one.targets.pop_back();
  const std::string text = FormatStorageDetails(one);
  EXPECT_EQ(text.find("  target "), std::string::npos) << text;
}

TEST(StorageTableTest, SeriesCsvRatesOverEachIntervalsOwnLength) {
  metrics::StorageTest first;
  first.name = "a,b";  // a comma would shift the columns: written as a space
  first.series = {{1.0, "ramp", 100, 50, 1048576, 0, 0.25, 1.5, 3},
                  {1.5, "measure", 10, 0, 524288, 0, 0.125, 0.5, 0.75},
                  {1.5, "measure", 7, 0, 0, 0, 0, 0, 0}};
  metrics::StorageTest second;
  second.name = "seq";
  second.series = {{2.0, "measure", 0, 200, 0, 2097152, 1, 2, 4}};
  EXPECT_EQ(StorageSeriesCsv({first, second}),
            "test,t_sec,phase,read_ios,write_ios,read_bytes,write_bytes,iops,mib_per_sec,mean_ms,"
            "p99_ms,max_ms\n"
            "a b,1.000000,ramp,100,50,1048576,0,150.000000,1.000000,0.250000,1.500000,3.000000\n"
            // Half a second: twice the counts per second.
            "a b,1.500000,measure,10,0,524288,0,20.000000,1.000000,0.125000,0.500000,0.750000\n"
            // A point at the same time as the one before counts over one second.
            "a b,1.500000,measure,7,0,0,0,7.000000,0.000000,0.000000,0.000000,0.000000\n"
            // Each test's first interval runs from its own start.
            "seq,2.000000,measure,0,200,0,2097152,100.000000,1.000000,1.000000,2.000000,"
            "4.000000\n");
  EXPECT_EQ(StorageSeriesCsv({}),
            "test,t_sec,phase,read_ios,write_ios,read_bytes,write_bytes,iops,mib_per_sec,mean_ms,"
            "p99_ms,max_ms\n");
}

}  // namespace
}  // namespace sb::report
