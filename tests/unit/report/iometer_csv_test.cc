// IometerResultsCsv against Iometer 1.1.0 GA's writer (ManagerList.cpp, Manager.cpp and
// Worker.cpp, their SaveResults) and the fixture written from it
// (tests/data/iometer-1.1.0-results-layout.csv): field counts per row type, where the CPU
// figures of a PROCESSOR row stand, the latency bins on every row but PROCESSOR, and the
// worker's range on DISK rows.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "metrics/storage_result.h"
#include "report/files/storage_report.h"

namespace sb::report {
namespace {

using Row = std::vector<std::string>;

// Splits on commas; storebench and the fixture never quote a cell (Iometer's writer replaces
// commas in names with spaces).
Row Split(const std::string& line) {
  Row r;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, ',')) r.push_back(cell);
  if (!line.empty() && line.back() == ',') r.emplace_back();
  return r;
}

std::vector<Row> DataRows(const std::string& csv) {
  std::vector<Row> rows;
  std::istringstream in(csv);
  std::string line;
  while (std::getline(in, line)) {
    Row r = Split(line);
    if (!r.empty() && (r[0] == "ALL" || r[0] == "MANAGER" || r[0] == "PROCESSOR" ||
                       r[0] == "WORKER" || r[0] == "DISK")) {
      rows.push_back(r);
    }
  }
  return rows;
}

metrics::IoCounts Counts(uint64_t ios, uint64_t first_bin) {
  metrics::IoCounts c;
  c.read_ios = ios;
  c.read_bytes = ios * 4096;
  c.read_latency_sum_ns = static_cast<int64_t>(ios) * 100000;
  c.read_latency_max_ns = 900000;
  for (size_t i = 0; i < c.latency_bins.size(); ++i) c.latency_bins[i] = first_bin + i;
  return c;
}

// Two workers on two targets, two CPUs. `same_range`: both targets test the same sectors.
metrics::StorageTest TwoByTwo(bool same_range) {
  metrics::StorageTest t;
  t.name = "4K read";
  t.spec_lines = {"4096,100,100,0,0,1,0,0"};
  t.targets = {{"/data/a.tst", 1 << 20, 64 << 20}, {"/data/b.tst", 1 << 20, 64 << 20}};
  if (!same_range) t.targets[1].range_bytes = 32 << 20;
  t.workers = 2;
  t.outstanding = 4;
  t.measured_sec = 10;
  t.per_worker_target = {{Counts(100, 1000), Counts(200, 2000)},
                         {Counts(300, 3000), Counts(400, 4000)}};
  for (const auto& w : t.per_worker_target) {
    metrics::IoCounts sum;
    for (const auto& c : w) sum.Add(c);
    t.per_worker.push_back(sum);
    t.totals.Add(sum);
  }
  t.cpu.utilization_pct = 40;
  metrics::CpuUsage cpu0, cpu1;
  cpu0.utilization_pct = 11;
  cpu1.utilization_pct = 22;
  t.per_cpu = {cpu0, cpu1};
  t.net.interfaces = t.net.tcp = true;
  t.net.packets_per_sec = 12.5;
  return t;
}

std::vector<Row> Rows(const metrics::StorageTest& t) {
  return DataRows(
      IometerResultsCsv({t}, "d", "host", "2026-01-01 00:00:00:000", {"2026-01-01 00:00:10:000"}));
}

Row Bins(const Row& r) { return Row(r.begin() + 59, r.end()); }

Row BinsOf(const metrics::IoCounts& c) {
  Row r;
  for (uint64_t b : c.latency_bins) r.push_back(std::to_string(b));
  return r;
}

TEST(IometerCsvTest, RowsHaveIometers110FieldCounts) {
  // Manager.cpp: PROCESSOR rows stop after the network spaces (59 fields); every other row ends
  // with the 21 latency bins (80 fields, as many as the header's titles).
  ASSERT_EQ(IometerResultColumns().size(), 80u);
  std::map<std::string, int> rows;
  for (const Row& r : Rows(TwoByTwo(true))) {
    ++rows[r[0]];
    EXPECT_EQ(r.size(), r[0] == "PROCESSOR" ? 59u : 80u) << r[0] << " " << r[1];
  }
  EXPECT_EQ(rows["ALL"], 1);
  EXPECT_EQ(rows["MANAGER"], 1);
  EXPECT_EQ(rows["PROCESSOR"], 2);
  EXPECT_EQ(rows["WORKER"], 2);
  EXPECT_EQ(rows["DISK"], 4);
}

TEST(IometerCsvTest, ProcessorFiguresStandUnderCpuUtilization) {
  // "PROCESSOR,CPU n" and 46 commas-worth of empty fields, then the CPU figures: column 49,
  // "% CPU Utilization" (1.1.0 RC1 wrote 43 and put them under "Starting Sector").
  const std::vector<std::string> titles = IometerResultColumns();
  ASSERT_EQ(titles[48], "% CPU Utilization");
  int seen = 0;
  for (const Row& r : Rows(TwoByTwo(true))) {
    if (r[0] != "PROCESSOR") continue;
    EXPECT_EQ(r[1], "CPU " + std::to_string(seen));
    for (int i = 2; i < 48; ++i) EXPECT_EQ(r[i], "") << "column " << i + 1;
    EXPECT_EQ(r[48], seen == 0 ? "11.000000" : "22.000000");
    EXPECT_EQ(r[53], "1000000000");  // Processor Speed
    ++seen;
  }
  EXPECT_EQ(seen, 2);
}

TEST(IometerCsvTest, LatencyBinsOnManagerWorkerAndDiskRows) {
  const metrics::StorageTest t = TwoByTwo(true);
  const std::vector<Row> rows = Rows(t);
  int worker = -1, disk = 0;
  for (const Row& r : rows) {
    if (r[0] == "ALL" || r[0] == "MANAGER") {
      EXPECT_EQ(Bins(r), BinsOf(t.totals)) << r[0];
    } else if (r[0] == "WORKER") {
      ++worker;
      disk = 0;
      EXPECT_EQ(Bins(r), BinsOf(t.per_worker[worker]));
    } else if (r[0] == "DISK") {
      EXPECT_EQ(Bins(r), BinsOf(t.per_worker_target[worker][disk])) << r[1];
      ++disk;
    }
  }
  EXPECT_EQ(worker, 1);
}

TEST(IometerCsvTest, DiskRowsRepeatTheWorkersRange) {
  // Worker.cpp writes the worker's GetDiskStart/GetDiskSize on each of its DISK rows: one
  // value for all its targets, AMBIGUOUS_VALUE (-1) where they differ.
  for (const Row& r : Rows(TwoByTwo(true))) {
    if (r[0] != "DISK") continue;
    EXPECT_EQ(r[45], "2048");    // 1 MiB in 512-byte sectors
    EXPECT_EQ(r[46], "131072");  // 64 MiB
    EXPECT_EQ(r[47], "4");
  }
  int disks = 0;
  for (const Row& r : Rows(TwoByTwo(false))) {
    if (r[0] != "DISK" && r[0] != "WORKER") continue;
    EXPECT_EQ(r[45], "2048") << r[0] << " " << r[1];
    EXPECT_EQ(r[46], "-1") << r[0] << " " << r[1];
    disks += r[0] == "DISK";
  }
  EXPECT_EQ(disks, 4);
}

// Per row type, the columns the fixture (Iometer's writer) leaves empty.
std::map<std::string, std::vector<bool>> EmptyColumns(const std::vector<Row>& rows) {
  std::map<std::string, std::vector<bool>> out;
  for (const Row& r : rows) {
    std::vector<bool> empty;
    for (const std::string& c : r) empty.push_back(c.empty());
    if (r[0] == "DISK" || r[0] == "WORKER" || r[0] == "PROCESSOR" || !out.count(r[0])) {
      out[r[0]] = empty;
    }
  }
  return out;
}

TEST(IometerCsvTest, SameEmptyColumnsAsTheFixtureWrittenFromIometersSource) {
  std::ifstream in(std::string(STOREBENCH_SOURCE_DIR) +
                   "/tests/data/iometer-1.1.0-results-layout.csv");
  ASSERT_TRUE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  std::map<std::string, std::vector<bool>> iometer = EmptyColumns(DataRows(text.str()));
  // What storebench leaves empty on purpose (docs/fidelity.md#iometer): a PROCESSOR row's
  // interrupts per second (55).
  ASSERT_FALSE(iometer["PROCESSOR"][54]);
  iometer["PROCESSOR"][54] = true;
  const std::map<std::string, std::vector<bool>> ours = EmptyColumns(Rows(TwoByTwo(true)));
  ASSERT_EQ(ours.size(), 5u);
  for (const auto& [type, empty] : ours) EXPECT_EQ(empty, iometer[type]) << type;
}

}  // namespace
}  // namespace sb::report

namespace sb::report {
namespace {

// Packets/Second, Packet Errors and Segments Retransmitted/Second (columns 57-59) on ALL and
// MANAGER as the fixture, written from Manager::SaveResults (Manager.cpp) and
// ManagerList::SaveResults (ManagerList.cpp) of Iometer 1.1.0, has them: each rate with six
// decimals after CPU Effectiveness, before the latency bins.
TEST(IometerCsvTest, NetworkRatesOnAllAndManagerAsIometerWritesThem) {
  std::ifstream in(std::string(STOREBENCH_SOURCE_DIR) +
                   "/tests/data/iometer-1.1.0-results-layout.csv");
  ASSERT_TRUE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  std::map<std::string, Row> iometer;
  for (const Row& r : DataRows(text.str())) iometer.emplace(r[0], r);
  for (const Row& r : Rows(TwoByTwo(true))) {
    if (r[0] != "ALL" && r[0] != "MANAGER") continue;
    ASSERT_EQ(r.size(), iometer[r[0]].size());
    for (int i : {56, 57, 58}) EXPECT_EQ(r[i], iometer[r[0]][i]) << r[0] << " column " << i + 1;
  }
}

TEST(IometerCsvTest, NetworkColumnsStayEmptyWhenNotRead) {
  metrics::StorageTest t = TwoByTwo(true);
  t.net = metrics::NetUsage{};
  t.net.interfaces = true;  // /proc/net/dev read, /proc/net/snmp not
  for (const Row& r : Rows(t)) {
    if (r[0] != "ALL" && r[0] != "MANAGER") continue;
    EXPECT_EQ(r[56], "0.000000") << r[0];
    EXPECT_EQ(r[58], "") << r[0];
  }
}

}  // namespace
}  // namespace sb::report
