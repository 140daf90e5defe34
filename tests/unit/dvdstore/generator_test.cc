// Row counts, chunking and determinism of the DVD Store generator (spec §3, §4).
#include "workload/dvdstore/generator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <thread>

#include "unit/dvdstore/generator_test_util.h"

namespace sb::dvdstore {
namespace {

using test_util::GenerateAll;
using test_util::RowHash;
using test_util::SizeOf;
using test_util::TableCounts;
using test_util::ToInt;

void ExpectExactCounts(const DsSize& size, const TableCounts& n) {
  EXPECT_EQ(n[Table::kCategories], 16);
  EXPECT_EQ(n[Table::kCustomers], size.customers);
  EXPECT_EQ(n[Table::kOrders], 12 * size.orders_per_month);
  EXPECT_EQ(n[Table::kProducts], size.products);
  EXPECT_EQ(n[Table::kInventory], size.products);
  EXPECT_EQ(n[Table::kMembership], size.customers / 100 * 10);
  EXPECT_EQ(n[Table::kReviews], 20 * size.products);
  EXPECT_EQ(n[Table::kReorder], 0);
  EXPECT_EQ(n[Table::kOrderlines], n[Table::kCustHist]);
  EXPECT_GE(n[Table::kOrderlines], n[Table::kOrders]);
  EXPECT_LE(n[Table::kOrderlines], 9 * n[Table::kOrders]);
  EXPECT_GE(n[Table::kReviewsHelpfulness], 2 * n[Table::kReviews]);
  EXPECT_LE(n[Table::kReviewsHelpfulness], 39 * n[Table::kReviews]);
}

TEST(GeneratorCountsTest, SmallHasExactRowCounts) {
  const DsSize size = SizeOf("S");
  const TableCounts n = GenerateAll(Generator(size, 1, false));
  EXPECT_EQ(n[Table::kCustomers], 20'000);
  EXPECT_EQ(n[Table::kOrders], 12'000);
  EXPECT_EQ(n[Table::kProducts], 10'000);
  EXPECT_EQ(n[Table::kMembership], 2'000);
  EXPECT_EQ(n[Table::kReviews], 200'000);
  ExpectExactCounts(size, n);
}

TEST(GeneratorCountsTest, CustomSizeHasExactRowCounts) {
  const DsSize size = SizeOf("20MB");
  const TableCounts n = GenerateAll(Generator(size, 7, false), nullptr, 50'000);
  EXPECT_EQ(n[Table::kCustomers], 40'000);
  EXPECT_EQ(n[Table::kOrders], 24'000);
  EXPECT_EQ(n[Table::kProducts], 20'000);
  EXPECT_EQ(n[Table::kMembership], 4'000);
  EXPECT_EQ(n[Table::kReviews], 400'000);
  ExpectExactCounts(size, n);
}

TEST(GeneratorCountsTest, Ds2HasNoMembershipOrReviews) {
  const DsSize size = SizeOf("1MB");
  const Generator gen(size, 1, true);
  const TableCounts n = GenerateAll(gen);
  EXPECT_EQ(n[Table::kCustomers], 2'000);
  EXPECT_EQ(n[Table::kOrders], 1'200);
  EXPECT_EQ(n[Table::kProducts], 1'000);
  EXPECT_EQ(n[Table::kInventory], 1'000);
  EXPECT_EQ(n[Table::kMembership], 0);
  EXPECT_EQ(n[Table::kReviews], 0);
  EXPECT_EQ(n[Table::kReviewsHelpfulness], 0);
  EXPECT_EQ(n[Table::kOrderlines], n[Table::kCustHist]);
  for (const ChunkSpec& c : gen.Chunks()) {
    EXPECT_NE(c.table, Table::kMembership);
    EXPECT_NE(c.table, Table::kReviews);
  }
}

TEST(GeneratorTablesTest, NamesColumnsAndModes) {
  EXPECT_EQ(TableName(Table::kCustHist), "cust_hist");
  EXPECT_EQ(TableName(Table::kReviewsHelpfulness), "reviews_helpfulness");
  EXPECT_EQ(TableColumns(Table::kCustomers, false).size(), 20u);
  EXPECT_EQ(TableColumns(Table::kProducts, false).size(), 8u);
  EXPECT_EQ(TableColumns(Table::kProducts, true).size(), 7u);
  EXPECT_EQ(TableColumns(Table::kProducts, false).back(), "membership_item");
  EXPECT_EQ(TablesFor(false).size(), static_cast<size_t>(kNumTables));
  const std::vector<Table> ds2 = TablesFor(true);
  EXPECT_EQ(ds2.size(), static_cast<size_t>(kNumTables - 3));
  EXPECT_EQ(std::count(ds2.begin(), ds2.end(), Table::kReviews), 0);
  EXPECT_EQ(std::count(ds2.begin(), ds2.end(), Table::kReorder), 1);
}

TEST(GeneratorTablesTest, EveryRowHasItsTablesColumnCount) {
  for (bool ds2 : {false, true}) {
    const Generator gen(SizeOf("1MB"), 3, ds2);
    std::map<Table, size_t> bad;
    RowSink sink = [&](Table t, const std::vector<std::string_view>& fields) {
      if (fields.size() != TableColumns(t, ds2).size()) ++bad[t];
    };
    std::vector<int64_t> sales(gen.size().products + 1);
    gen.GenerateCategories(sink);
    for (const ChunkSpec& c : gen.Chunks()) gen.Generate(c, sink, &sales);
    gen.GenerateInventory(sales, sink);
    EXPECT_TRUE(bad.empty()) << "ds2=" << ds2 << " first bad table "
                             << TableName(bad.begin()->first);
  }
}

// Chunks of one table, in id order.
std::map<Table, std::vector<ChunkSpec>> ByTable(const std::vector<ChunkSpec>& chunks) {
  std::map<Table, std::vector<ChunkSpec>> out;
  for (const ChunkSpec& c : chunks) out[c.table].push_back(c);
  for (auto& [t, list] : out) {
    std::sort(list.begin(), list.end(),
              [](const ChunkSpec& a, const ChunkSpec& b) { return a.first_id < b.first_id; });
  }
  return out;
}

TEST(GeneratorChunksTest, ChunksCoverEveryIdOnceAndRespectTheTarget) {
  const DsSize size = SizeOf("S");
  const Generator gen(size, 1, false);
  for (int64_t target : {1'000, 3'333, 200'000}) {
    const std::vector<ChunkSpec> chunks = gen.Chunks(target);
    auto by_table = ByTable(chunks);
    const std::map<Table, int64_t> totals = {{Table::kCustomers, size.customers},
                                             {Table::kOrders, size.orders()},
                                             {Table::kProducts, size.products},
                                             {Table::kMembership, size.members()},
                                             {Table::kReviews, size.reviews()}};
    EXPECT_EQ(by_table.size(), totals.size());
    // Categories and inventory have calls of their own.
    EXPECT_EQ(by_table.count(Table::kCategories), 0u);
    EXPECT_EQ(by_table.count(Table::kInventory), 0u);
    for (const auto& [table, total] : totals) {
      const auto& list = by_table[table];
      ASSERT_FALSE(list.empty()) << TableName(table);
      int64_t next = 1;
      std::vector<int> indexes;
      for (const ChunkSpec& c : list) {
        EXPECT_EQ(c.first_id, next) << TableName(table) << " target " << target;
        EXPECT_LE(c.first_id, c.last_id);
        EXPECT_LE(c.last_id - c.first_id + 1, target);
        next = c.last_id + 1;
        indexes.push_back(c.index);
      }
      EXPECT_EQ(next, total + 1) << TableName(table);
      std::sort(indexes.begin(), indexes.end());
      for (size_t i = 0; i < indexes.size(); ++i) EXPECT_EQ(indexes[i], static_cast<int>(i));
    }
  }
}

TEST(GeneratorChunksTest, OrdersChunksStayInsideTheirMonth) {
  const DsSize size = SizeOf("S");
  const Generator gen(size, 1, false);
  for (int64_t target : {300, 1'000, 7'777, 200'000}) {
    int months_seen = 0;
    for (const ChunkSpec& c : gen.Chunks(target)) {
      if (c.table != Table::kOrders) continue;
      ASSERT_GE(c.month, 1);
      ASSERT_LE(c.month, 12);
      EXPECT_GE(c.first_id, (c.month - 1) * size.orders_per_month + 1);
      EXPECT_LE(c.last_id, c.month * size.orders_per_month);
      if (c.first_id == (c.month - 1) * size.orders_per_month + 1) ++months_seen;
    }
    EXPECT_EQ(months_seen, 12);
  }
}

TEST(GeneratorChunksTest, CustomerChunksSplitUsAndRestOfWorld) {
  const DsSize size = SizeOf("S");
  for (const ChunkSpec& c : Generator(size, 1, false).Chunks(3'000)) {
    if (c.table != Table::kCustomers) continue;
    if (c.us) {
      EXPECT_LE(c.last_id, size.customers / 2);
    } else {
      EXPECT_GT(c.first_id, size.customers / 2);
    }
  }
}

TEST(GeneratorChunksTest, ChunksAreDeterministic) {
  const Generator gen(SizeOf("S"), 5, false);
  const std::vector<ChunkSpec> a = gen.Chunks(4'000);
  const std::vector<ChunkSpec> b = Generator(SizeOf("S"), 5, false).Chunks(4'000);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].table, b[i].table);
    EXPECT_EQ(a[i].index, b[i].index);
    EXPECT_EQ(a[i].first_id, b[i].first_id);
    EXPECT_EQ(a[i].last_id, b[i].last_id);
    EXPECT_EQ(a[i].month, b[i].month);
    EXPECT_EQ(a[i].first_helpfulness_id, b[i].first_helpfulness_id);
    EXPECT_EQ(a[i].us, b[i].us);
  }
}

TEST(GeneratorChunksTest, HelpfulnessIdsAreSequentialAcrossReviewChunks) {
  const Generator gen(SizeOf("1MB"), 11, false);
  auto by_table = ByTable(gen.Chunks(1'500));
  const auto& reviews = by_table[Table::kReviews];
  ASSERT_GT(reviews.size(), 5u);
  int64_t next_id = 1;
  for (const ChunkSpec& c : reviews) {
    EXPECT_EQ(c.first_helpfulness_id, next_id);
    int64_t bad = 0;
    RowSink sink = [&](Table t, const std::vector<std::string_view>& fields) {
      if (t != Table::kReviewsHelpfulness) return;
      if (ToInt(fields[0]) != next_id) ++bad;
      next_id = ToInt(fields[0]) + 1;
    };
    gen.Generate(c, sink, nullptr);
    EXPECT_EQ(bad, 0) << "chunk " << c.index;
  }
}

// Hash of each chunk's rows, keyed by (table, index).
std::map<std::pair<Table, int>, uint64_t> ChunkHashes(const Generator& gen,
                                                      const std::vector<ChunkSpec>& chunks,
                                                      bool with_sales) {
  std::map<std::pair<Table, int>, uint64_t> out;
  std::vector<int64_t> sales(gen.size().products + 1);
  for (const ChunkSpec& c : chunks) {
    RowHash hash;
    gen.Generate(
        c, [&](Table t, const std::vector<std::string_view>& f) { hash.Add(t, f); },
        with_sales ? &sales : nullptr);
    out[{c.table, c.index}] = hash.value();
  }
  return out;
}

TEST(GeneratorDeterminismTest, SameSeedSameBytesDifferentSeedDifferentBytes) {
  const DsSize size = SizeOf("1MB");
  RowHash a, b, c;
  const TableCounts na = GenerateAll(Generator(size, 42, false), &a);
  GenerateAll(Generator(size, 42, false), &b);
  GenerateAll(Generator(size, 43, false), &c);
  EXPECT_EQ(a.value(), b.value());
  EXPECT_EQ(a.rows(), b.rows());
  EXPECT_NE(a.value(), c.value());
  int64_t total = 0;
  for (int64_t n : na.rows) total += n;
  EXPECT_EQ(a.rows(), total);
}

TEST(GeneratorDeterminismTest, Ds2AndDs3Differ) {
  RowHash ds3, ds2;
  GenerateAll(Generator(SizeOf("1MB"), 42, false), &ds3);
  GenerateAll(Generator(SizeOf("1MB"), 42, true), &ds2);
  EXPECT_NE(ds3.value(), ds2.value());
}

TEST(GeneratorDeterminismTest, ChunkOrderDoesNotMatter) {
  const Generator gen(SizeOf("1MB"), 9, false);
  std::vector<ChunkSpec> chunks = gen.Chunks(700);
  const auto forward = ChunkHashes(gen, chunks, true);
  std::reverse(chunks.begin(), chunks.end());
  const auto backward = ChunkHashes(gen, chunks, true);
  EXPECT_EQ(forward, backward);
  // The sales vector is output only.
  EXPECT_EQ(forward, ChunkHashes(gen, chunks, false));
}

TEST(GeneratorDeterminismTest, ParallelGenerationMatchesSequential) {
  const Generator gen(SizeOf("1MB"), 9, false);
  const std::vector<ChunkSpec> chunks = gen.Chunks(2'000);
  const auto sequential = ChunkHashes(gen, chunks, false);
  std::vector<uint64_t> parallel(chunks.size());
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (size_t i = t; i < chunks.size(); i += 4) {
        RowHash hash;
        gen.Generate(
            chunks[i], [&](Table tb, const std::vector<std::string_view>& f) { hash.Add(tb, f); },
            nullptr);
        parallel[i] = hash.value();
      }
    });
  }
  for (std::thread& th : threads) th.join();
  for (size_t i = 0; i < chunks.size(); ++i) {
    EXPECT_EQ(parallel[i], sequential.at({chunks[i].table, chunks[i].index})) << i;
  }
}

TEST(GeneratorDeterminismTest, SalesAddUpAcrossChunks) {
  const Generator gen(SizeOf("1MB"), 9, false);
  std::vector<int64_t> sales(gen.size().products + 1);
  int64_t quantity = 0;
  RowSink sink = [&](Table t, const std::vector<std::string_view>& f) {
    if (t == Table::kOrderlines) quantity += ToInt(f[3]);
  };
  for (const ChunkSpec& c : gen.Chunks(500)) {
    if (c.table == Table::kOrders) gen.Generate(c, sink, &sales);
  }
  int64_t summed = 0;
  for (int64_t s : sales) summed += s;
  EXPECT_EQ(summed, quantity);
  EXPECT_EQ(sales[0], 0);
}

}  // namespace
}  // namespace sb::dvdstore
