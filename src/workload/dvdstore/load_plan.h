// What a DVD Store load writes, computed without loading (`oltp load --dry_run`): rows and row
// text per table, and the disk and time a back end needs, scaled from a load measured on this
// project's test machine (docs/load-performance.md).
#ifndef STOREBENCH_WORKLOAD_DVDSTORE_LOAD_PLAN_H_
#define STOREBENCH_WORKLOAD_DVDSTORE_LOAD_PLAN_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "workload/dvdstore/sizes.h"
#include "workload/dvdstore/tables.h"

namespace sb::dvdstore {

struct TablePlan {
  Table table = Table::kCategories;
  int64_t rows = 0;
  bool rows_expected = false;  // an expected value (the generator draws it), not an exact count
  // Row text as the loader sends it and as --csv_dir writes it: field bytes plus one separator
  // (or newline) per field; from a sample of generated rows.
  int64_t text_bytes = 0;
};

struct DataPlan {
  std::vector<TablePlan> tables;
  int64_t rows = 0;
  int64_t text_bytes = 0;
};

// Rows are exact where the size fixes them (and for reviews_helpfulness, from the same draws
// the generator numbers its rows with); orderlines and cust_hist are 5 per order, the mean of
// the generator's 1..9. Bytes per row come from generating six chunks of each table, evenly
// spaced over its ids (their widths vary), scaled to its rows. About a second at L.
DataPlan PlanData(const DsSize& size, uint64_t seed, bool ds2);

// Loads measured on this project's test machine (2 cores): the database's size on disk after
// loading `disk_size`, and the wall time of loading `time_size` (docs/load-performance.md).
struct LoadReference {
  std::string_view disk_size;
  double stored_mb = 0;
  std::string_view time_size;
  double seconds_min = 0;
  double seconds_max = 0;
  std::string_view source;  // where the figures are written down
};
// The reference for a dialect ("postgres", "mysql", "sqlite"), or null when none was measured.
const LoadReference* ReferenceFor(std::string_view dialect);

// A plan scaled to the reference: disk and time in proportion to the row text of the sizes
// measured (disk_plan: PlanData of ref.disk_size; time_plan: of ref.time_size).
struct Estimate {
  int64_t server_bytes = 0;
  double seconds_min = 0;
  double seconds_max = 0;
};
Estimate Scale(const DataPlan& plan, const DataPlan& disk_plan, const DataPlan& time_plan,
               const LoadReference& ref);

// The plan as the user reads it: one line per table, then totals.
std::string FormatDataPlan(const DsSize& size, const DataPlan& plan);

}  // namespace sb::dvdstore

#endif  // STOREBENCH_WORKLOAD_DVDSTORE_LOAD_PLAN_H_
