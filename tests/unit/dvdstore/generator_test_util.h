// Helpers shared by the DVD Store generator tests.
#ifndef STOREBENCH_TESTS_UNIT_DVDSTORE_GENERATOR_TEST_UTIL_H_
#define STOREBENCH_TESTS_UNIT_DVDSTORE_GENERATOR_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <array>
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "workload/dvdstore/generator.h"

namespace sb::dvdstore::test_util {

inline DsSize SizeOf(std::string_view text) {
  Result<DsSize> size = ParseDsSize(text);
  EXPECT_TRUE(size.ok()) << text;
  return size.ok() ? size.value() : DsSize{};
}

// The row as a CSV line (DVD Store's files: no quoting).
inline std::string Join(const std::vector<std::string_view>& fields) {
  std::string line;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) line += ',';
    line += fields[i];
  }
  return line;
}

inline int64_t ToInt(std::string_view s) {
  int64_t v = -1;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return -1;
  return v;
}

// FNV-1a over the table id and the fields (with separators), order-sensitive.
class RowHash {
 public:
  void Add(Table t, const std::vector<std::string_view>& fields) {
    Byte(static_cast<uint8_t>(t));
    for (std::string_view f : fields) {
      for (char c : f) Byte(static_cast<uint8_t>(c));
      Byte(0xff);
    }
    Byte(0xfe);
    ++rows_;
  }
  uint64_t value() const { return h_; }
  int64_t rows() const { return rows_; }

 private:
  void Byte(uint8_t b) {
    h_ ^= b;
    h_ *= 0x100000001b3ULL;
  }
  uint64_t h_ = 0xcbf29ce484222325ULL;
  int64_t rows_ = 0;
};

struct TableCounts {
  std::array<int64_t, kNumTables> rows{};
  int64_t operator[](Table t) const { return rows[static_cast<int>(t)]; }
};

// Generates everything as a loader does (categories, every chunk, then inventory); returns row
// counts and a hash of everything.
inline TableCounts GenerateAll(const Generator& gen, RowHash* hash = nullptr,
                               int64_t target_rows = 200000) {
  TableCounts counts;
  std::vector<int64_t> sales(gen.size().products + 1);
  RowSink sink = [&](Table t, const std::vector<std::string_view>& fields) {
    ++counts.rows[static_cast<int>(t)];
    if (hash != nullptr) hash->Add(t, fields);
  };
  gen.GenerateCategories(sink);
  for (const ChunkSpec& c : gen.Chunks(target_rows)) gen.Generate(c, sink, &sales);
  gen.GenerateInventory(sales, sink);
  return counts;
}

}  // namespace sb::dvdstore::test_util

#endif  // STOREBENCH_TESTS_UNIT_DVDSTORE_GENERATOR_TEST_UTIL_H_
