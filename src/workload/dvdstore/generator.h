// The deterministic DVD Store data generator (spec §4): exactly the spec's row counts and
// distributions, generated in independent chunks so loader threads can generate and load in
// parallel, streaming rows (no intermediate files).
//
// Determinism: every chunk draws from its own stream, DeriveSeed(seed, {table, chunk index}), so
// the same (size, seed, ds2) gives the same rows byte for byte, whatever the thread count or
// chunk order.
#ifndef STOREBENCH_WORKLOAD_DVDSTORE_GENERATOR_H_
#define STOREBENCH_WORKLOAD_DVDSTORE_GENERATOR_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "workload/dvdstore/sizes.h"
#include "workload/dvdstore/tables.h"

namespace sb::dvdstore {

// Primary rows per generator chunk (Generator::Chunks' target_rows) for every copy of the data:
// the load and the CSV files. Part of the data's definition: the chunking decides which random
// stream each row comes from, so changing it changes the generated data.
constexpr int64_t kChunkRows = 20000;

// One independently generated piece of data. `table` is the chunk's primary table; orders
// chunks also emit orderlines and cust_hist rows, reviews chunks also emit helpfulness rows.
struct ChunkSpec {
  Table table = Table::kCustomers;
  int index = 0;           // chunk number within its table (stream id)
  int64_t first_id = 0;    // first primary id in the chunk
  int64_t last_id = 0;     // last primary id, inclusive
  int month = 0;           // orders: 1..12
  int64_t first_helpfulness_id = 0;  // reviews: id of the chunk's first helpfulness row
  bool us = true;          // customers: US (ids 1..N/2) or rest of world
};

// Receives one row: fields as text exactly as in DVD Store's CSV (no quoting; "" = empty).
using RowSink = std::function<void(Table, const std::vector<std::string_view>&)>;

class Generator {
 public:
  Generator(const DsSize& size, uint64_t seed, bool ds2);

  // All chunks except inventory, in a sensible load order (big ones first is fine). Chunks are
  // at most ~`target_rows` primary rows so threads stay busy. Deterministic.
  std::vector<ChunkSpec> Chunks(int64_t target_rows = 200000) const;
  // Generates one chunk. Orders chunks add their order-line quantities per product into
  // (*sales)[prod_id] (REQUIRES: sales->size() > products) when sales is not null.
  void Generate(const ChunkSpec& chunk, const RowSink& sink, std::vector<int64_t>* sales) const;
  // Inventory (spec §4.3) from the summed sales of all orders chunks (index = prod_id).
  void GenerateInventory(const std::vector<int64_t>& sales, const RowSink& sink) const;
  // The 16 category rows.
  void GenerateCategories(const RowSink& sink) const;

  const DsSize& size() const { return size_; }

 private:
  DsSize size_;
  uint64_t seed_;
  bool ds2_;
};

}  // namespace sb::dvdstore

#endif  // STOREBENCH_WORKLOAD_DVDSTORE_GENERATOR_H_
