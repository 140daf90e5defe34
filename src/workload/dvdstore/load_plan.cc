#include "workload/dvdstore/load_plan.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <utility>

#include "base/units.h"
#include "workload/dvdstore/generator.h"

namespace sb::dvdstore {
namespace {

// Chunks generated per primary table for the bytes a row (of kChunkRows rows each).
constexpr size_t kSampleChunks = 6;

}  // namespace

DataPlan PlanData(const DsSize& size, uint64_t seed, bool ds2) {
  const Generator gen(size, seed, ds2);
  int64_t sample_rows[kNumTables] = {};
  int64_t sample_bytes[kNumTables] = {};
  const RowSink sink = [&](Table t, const std::vector<std::string_view>& fields) {
    ++sample_rows[static_cast<int>(t)];
    int64_t bytes = 0;
    for (std::string_view f : fields) bytes += static_cast<int64_t>(f.size()) + 1;
    sample_bytes[static_cast<int>(t)] += bytes;
  };

  // kSampleChunks chunks of each primary table (customers: of each half, US and the rest),
  // evenly spaced from its first to its last, so the ids' widths are sampled across their range.
  const std::vector<ChunkSpec> chunks = gen.Chunks(kChunkRows);
  std::map<std::pair<int, bool>, std::vector<size_t>> of_table;
  for (size_t i = 0; i < chunks.size(); ++i) {
    of_table[std::make_pair(static_cast<int>(chunks[i].table), chunks[i].us)].push_back(i);
  }
  // reviews_helpfulness's rows: the last reviews chunk's first id says how many come before it.
  int64_t helpfulness_rows = 0;
  const int help = static_cast<int>(Table::kReviewsHelpfulness);
  for (const auto& [key, indexes] : of_table) {
    const size_t n = indexes.size();
    const size_t picks = std::min(n, kSampleChunks);
    for (size_t k = 0; k < picks; ++k) {
      const size_t i = indexes[picks == 1 ? n - 1 : k * (n - 1) / (picks - 1)];
      const int64_t help_before = sample_rows[help];
      gen.Generate(chunks[i], sink, nullptr);
      if (key.first == static_cast<int>(Table::kReviews) && i == indexes.back()) {
        helpfulness_rows = chunks[i].first_helpfulness_id - 1 + sample_rows[help] - help_before;
      }
    }
  }
  gen.GenerateCategories(sink);
  // Inventory's sales column holds each product's summed quantities: the mean (5 lines an order,
  // 2 items a line) gives it its usual width.
  const int64_t mean_sales = size.products > 0 ? size.orders() * 5 * 2 / size.products : 0;
  gen.GenerateInventory(std::vector<int64_t>(static_cast<size_t>(size.products) + 1, mean_sales),
                        sink);

  DataPlan plan;
  for (Table t : TablesFor(ds2)) {
    TablePlan tp;
    tp.table = t;
    switch (t) {
      case Table::kCategories:
        tp.rows = sample_rows[static_cast<int>(t)];
        break;
      case Table::kCustomers:
        tp.rows = size.customers;
        break;
      case Table::kOrders:
        tp.rows = size.orders();
        break;
      case Table::kOrderlines:
      case Table::kCustHist:
        tp.rows = size.orders() * 5;  // 1..9 lines an order (spec §4.2)
        tp.rows_expected = true;
        break;
      case Table::kProducts:
      case Table::kInventory:
        tp.rows = size.products;
        break;
      case Table::kMembership:
        tp.rows = size.members();
        break;
      case Table::kReviews:
        tp.rows = size.reviews();
        break;
      case Table::kReviewsHelpfulness:
        tp.rows = helpfulness_rows;
        break;
      case Table::kReorder:
        tp.rows = 0;  // written only by the restock trigger during runs
        break;
    }
    const int64_t n = sample_rows[static_cast<int>(t)];
    if (n > 0) {
      tp.text_bytes = static_cast<int64_t>(static_cast<double>(sample_bytes[static_cast<int>(t)]) /
                                           static_cast<double>(n) * static_cast<double>(tp.rows));
    }
    plan.rows += tp.rows;
    plan.text_bytes += tp.text_bytes;
    plan.tables.push_back(tp);
  }
  return plan;
}

const LoadReference* ReferenceFor(std::string_view dialect) {
  // M loads of the present loader on this 2-core machine (docs/load-performance.md, "The plan
  // before a load"): the size on disk after the load, and the quickest and slowest whole loads
  // measured (a quiet machine and a busy one).
  static constexpr LoadReference kPostgres = {
      "M",   6506.4,
      "M",   87.9,
      163.1, "docs/load-performance.md: M into PostgreSQL, 6 506.4 MB on disk, 87.9-163.1 s"};
  static constexpr LoadReference kMysql = {
      "M",   5454.8, "M",
      155.5, 285.7,  "docs/load-performance.md: M into MariaDB, 5 454.8 MB on disk, 155.5-285.7 s"};
  static constexpr LoadReference kSqlite = {
      "M",   4215.2, "M",
      108.8, 137.6,  "docs/load-performance.md: M into SQLite, a 4 215.2 MB file, 108.8-137.6 s"};
  if (dialect == "postgres") return &kPostgres;
  if (dialect == "mysql") return &kMysql;
  if (dialect == "sqlite") return &kSqlite;
  return nullptr;
}

Estimate Scale(const DataPlan& plan, const DataPlan& disk_plan, const DataPlan& time_plan,
               const LoadReference& ref) {
  Estimate e;
  const auto text = static_cast<double>(plan.text_bytes);
  if (disk_plan.text_bytes > 0) {
    e.server_bytes = static_cast<int64_t>(ref.stored_mb * 1e6 * text /
                                          static_cast<double>(disk_plan.text_bytes));
  }
  if (time_plan.text_bytes > 0) {
    const double ratio = text / static_cast<double>(time_plan.text_bytes);
    e.seconds_min = ref.seconds_min * ratio;
    e.seconds_max = ref.seconds_max * ratio;
  }
  return e;
}

std::string FormatDataPlan(const DsSize& size, const DataPlan& plan) {
  std::string out;
  char line[160];
  std::snprintf(line, sizeof line, "%-22s %16s  %s\n", "table", "rows", "row text");
  out += line;
  for (const TablePlan& t : plan.tables) {
    const std::string rows =
        (t.rows_expected ? "~" : "") + std::to_string(t.rows);
    std::snprintf(line, sizeof line, "%-22s %16s  %s\n", std::string(TableName(t.table)).c_str(),
                  rows.c_str(), FormatDecimalBytes(static_cast<double>(t.text_bytes)).c_str());
    out += line;
  }
  std::snprintf(line, sizeof line, "%-22s %16lld  %s  (db_size=%s; ~ = expected value)\n", "total",
                static_cast<long long>(plan.rows),
                FormatDecimalBytes(static_cast<double>(plan.text_bytes)).c_str(),
                size.label.c_str());
  out += line;
  return out;
}

}  // namespace sb::dvdstore
