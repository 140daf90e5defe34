// The DVD Store rows of db_size=S, seed 1 (the load's defaults), pinned table by table: any
// change to the generator or to the load's data path that changes a single byte of the data
// fails here, whatever the back end. The digests were computed with the generator as it was
// before the load's data path was rewritten for speed (docs/load-performance.md); the SQLite
// tables of a real load are pinned the same way in tests/integration/test_dvdstore_sqlite.py.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdio>
#include <map>
#include <string>

#include "unit/dvdstore/generator_test_util.h"
#include "workload/dvdstore/generator.h"

namespace sb::dvdstore {
namespace {

using test_util::RowHash;
using test_util::SizeOf;

// The loader's chunk size (loader.cc kChunkRows): part of the data's definition.
constexpr int64_t kLoaderChunkRows = 20000;

std::map<std::string, std::string> Digests(const Generator& gen) {
  std::map<Table, RowHash> hashes;
  std::vector<int64_t> sales(gen.size().products + 1);
  RowSink sink = [&](Table t, const std::vector<std::string_view>& f) { hashes[t].Add(t, f); };
  gen.GenerateCategories(sink);
  // Chunks in their own order: every chunk's rows are fixed by its stream, so this order gives
  // the same per-table sequence whatever order a load writes them in.
  for (const ChunkSpec& c : gen.Chunks(kLoaderChunkRows)) gen.Generate(c, sink, &sales);
  gen.GenerateInventory(sales, sink);
  std::map<std::string, std::string> out;
  for (const auto& [t, h] : hashes) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%lld %016llx", static_cast<long long>(h.rows()),
                  static_cast<unsigned long long>(h.value()));
    std::string name(TableName(t));
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out[name] = buf;
  }
  return out;
}

TEST(GeneratedDigestTest, SizeSSeed1IsPinned) {
  const std::map<std::string, std::string> pinned = {
      // Table: rows, FNV-1a 64 over the rows in chunk order (test_util::RowHash).
      {"categories", "16 a971d0c3fb0907e7"},   {"cust_hist", "60362 870deeda15a568f9"},
      {"customers", "20000 394fb9e4e3d8053e"}, {"inventory", "10000 1c96929a813f2849"},
      {"membership", "2000 90afdf93e80e926b"}, {"orderlines", "60362 a7b587d6757cb70c"},
      {"orders", "12000 bf574c6775913ee2"},    {"products", "10000 817a719bf280ab04"},
      {"reviews", "200000 05b8085fe99914b7"},  {"reviews_helpfulness", "4094896 1aa4274896f33e8f"},
  };
  EXPECT_EQ(Digests(Generator(SizeOf("S"), 1, false)), pinned);
}

}  // namespace
}  // namespace sb::dvdstore
