// Storage results for people: the console table in the form the VMTN thread posts (test name,
// Av. Resp. Time ms, Av. IOs/sec, Av. MB/sec, CPU util.), per-test details, and Iometer's
// 'Results CSV (1.1.0 layout, 80 columns; ALL, MANAGER, WORKER and DISK rows).
#ifndef STOREBENCH_REPORT_FILES_STORAGE_REPORT_H_
#define STOREBENCH_REPORT_FILES_STORAGE_REPORT_H_

#include <string>
#include <vector>

#include "metrics/power_result.h"
#include "metrics/storage_result.h"

namespace sb::report {

// Console text; test names and paths have their control characters escaped (an ICF file names
// the tests). One header line and one line per test; MB/sec is MiB/s (Iometer's binary MB).
std::string FormatStorageTable(const std::vector<metrics::StorageTest>& tests);
// Read/write split, percentiles, maximum, CPU breakdown and storebench's own CPU per I/O.
std::string FormatStorageDetails(const metrics::StorageTest& t);

// The 80 column titles of Iometer 1.1.0's 'Results header (without the leading quote).
std::vector<std::string> IometerResultColumns();

// A whole Iometer 1.1.0 results file for `tests` run one after another, row type by row type
// and column by column as Iometer writes it (docs/storage.md#iometer-results-csv): 'Test Type,
// 'Version, 'Time Stamp (`start_stamp`, the run's start), then per test 'Access specifications,
// 'Results with ALL, MANAGER (this host), PROCESSOR (one per CPU), WORKER and DISK rows and
// 'Time Stamp (`end_stamps[i]`, the test's end); then 'End Test. Raw time columns are
// nanoseconds and "Processor Speed" is 1e9 (ticks per second), so raw / speed gives seconds as
// in Iometer. Stamps are WallClockIometer()'s form.
std::string IometerResultsCsv(const std::vector<metrics::StorageTest>& tests,
                              const std::string& description, const std::string& host,
                              const std::string& start_stamp,
                              const std::vector<std::string>& end_stamps);

// A CSV time series: one row per test and second. With `power`, the power columns follow
// (report/files/instance_series_csv.h); test i's seconds are `offsets_sec[i]` later on power's time
// axis (its Start from the first test's).
std::string StorageSeriesCsv(const std::vector<metrics::StorageTest>& tests,
                             const metrics::PowerResult* power = nullptr,
                             const std::vector<double>& offsets_sec = {});

}  // namespace sb::report

#endif  // STOREBENCH_REPORT_FILES_STORAGE_REPORT_H_
