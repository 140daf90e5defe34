#include "workload/dvdstore/load_plan.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "workload/dvdstore/generator.h"

namespace sb::dvdstore {
namespace {

DsSize Size(std::string_view text) {
  auto size = ParseDsSize(text);
  EXPECT_TRUE(size.ok());
  return size.ok() ? *size : DsSize{};
}

std::map<Table, TablePlan> ByTable(const DataPlan& plan) {
  std::map<Table, TablePlan> out;
  for (const TablePlan& t : plan.tables) out[t.table] = t;
  return out;
}

// DVD Store 3's sizes (its README and Install_DVDStore.pl): customers, orders a year, products,
// and the tables that follow from them (reviews: 20 a product; members: a tenth of customers).
TEST(PlanDataTest, RowsAreDvdStore3s) {
  struct Want {
    const char* size;
    int64_t customers, orders, products;
  };
  for (const Want& w : {Want{"S", 20'000, 12'000, 10'000}, Want{"M", 2'000'000, 1'200'000, 100'000},
                        Want{"L", 200'000'000, 120'000'000, 1'000'000}}) {
    SCOPED_TRACE(w.size);
    const auto t = ByTable(PlanData(Size(w.size), 1, false));
    EXPECT_EQ(t.at(Table::kCategories).rows, 16);
    EXPECT_EQ(t.at(Table::kCustomers).rows, w.customers);
    EXPECT_EQ(t.at(Table::kOrders).rows, w.orders);
    EXPECT_EQ(t.at(Table::kOrderlines).rows, w.orders * 5);
    EXPECT_TRUE(t.at(Table::kOrderlines).rows_expected);
    EXPECT_EQ(t.at(Table::kCustHist).rows, w.orders * 5);
    EXPECT_EQ(t.at(Table::kProducts).rows, w.products);
    EXPECT_EQ(t.at(Table::kInventory).rows, w.products);
    EXPECT_EQ(t.at(Table::kMembership).rows, w.customers / 10);
    EXPECT_EQ(t.at(Table::kReviews).rows, w.products * 20);
    // 2..39 helpfulness rows a review, 20.5 on average.
    EXPECT_NEAR(static_cast<double>(t.at(Table::kReviewsHelpfulness).rows),
                20.5 * static_cast<double>(w.products * 20), 0.01 * 20.5 * w.products * 20);
    EXPECT_EQ(t.at(Table::kReorder).rows, 0);
  }
}

TEST(PlanDataTest, Ds2HasNoReviewsOrMembership) {
  const auto t = ByTable(PlanData(Size("S"), 1, true));
  EXPECT_EQ(t.count(Table::kReviews), 0u);
  EXPECT_EQ(t.count(Table::kMembership), 0u);
  EXPECT_EQ(t.count(Table::kReviewsHelpfulness), 0u);
}

// The plan against every row the generator makes at 3MB (three chunks of some tables, so the
// sample is not the whole): helpfulness exact, the others' row text within 2 %.
TEST(PlanDataTest, MatchesTheGeneratedRows) {
  const DsSize size = Size("3MB");
  const DataPlan plan = PlanData(size, 7, false);
  std::map<Table, int64_t> rows, bytes;
  const RowSink sink = [&](Table t, const std::vector<std::string_view>& fields) {
    ++rows[t];
    for (std::string_view f : fields) bytes[t] += static_cast<int64_t>(f.size()) + 1;
  };
  const Generator gen(size, 7, false);
  std::vector<int64_t> sales(static_cast<size_t>(size.products) + 1);
  for (const ChunkSpec& c : gen.Chunks(kChunkRows)) gen.Generate(c, sink, &sales);
  gen.GenerateInventory(sales, sink);
  gen.GenerateCategories(sink);
  int64_t all_bytes = 0;
  for (const TablePlan& t : plan.tables) {
    SCOPED_TRACE(std::string(TableName(t.table)));
    if (t.table == Table::kReorder) continue;
    if (t.rows_expected) {
      EXPECT_NEAR(static_cast<double>(t.rows), static_cast<double>(rows[t.table]),
                  0.02 * static_cast<double>(rows[t.table]));
    } else {
      EXPECT_EQ(t.rows, rows[t.table]);
    }
    // Bytes a row: within 2 % (inventory's sales column is sampled at its mean: 5 %).
    const double per_row = static_cast<double>(t.text_bytes) / static_cast<double>(t.rows);
    const double real_per_row =
        static_cast<double>(bytes[t.table]) / static_cast<double>(rows[t.table]);
    EXPECT_NEAR(per_row, real_per_row, (t.table == Table::kInventory ? 0.05 : 0.02) * real_per_row);
    all_bytes += bytes[t.table];
  }
  EXPECT_NEAR(static_cast<double>(plan.text_bytes), static_cast<double>(all_bytes),
              0.01 * static_cast<double>(all_bytes));
}

TEST(LoadReferenceTest, ScalesDiskAndTimeWithTheRowText) {
  const LoadReference* pg = ReferenceFor("postgres");
  ASSERT_NE(pg, nullptr);
  EXPECT_EQ(ReferenceFor("null"), nullptr);
  ASSERT_EQ(pg->disk_size, "M");
  ASSERT_EQ(pg->time_size, "M");
  const DataPlan m = PlanData(Size("M"), 1, false);
  const Estimate same = Scale(m, m, m, *pg);
  EXPECT_EQ(same.server_bytes, static_cast<int64_t>(pg->stored_mb * 1e6));
  EXPECT_DOUBLE_EQ(same.seconds_min, pg->seconds_min);
  const DataPlan l_plan = PlanData(Size("L"), 1, false);
  const Estimate l = Scale(l_plan, m, m, *pg);
  const double ratio = static_cast<double>(l_plan.text_bytes) / static_cast<double>(m.text_bytes);
  EXPECT_GT(ratio, 10);
  EXPECT_NEAR(static_cast<double>(l.server_bytes), pg->stored_mb * 1e6 * ratio, 1e6);
  EXPECT_NEAR(l.seconds_max, pg->seconds_max * ratio, 1e-6);
  EXPECT_GT(l.seconds_max, l.seconds_min);
}

}  // namespace
}  // namespace sb::dvdstore
