// Generated Order Entry data, after the value rules of Swingbench's generator definition as
// docs/soe.md restates them (uniform or mid-range-clustered draws over the same ranges), with
// two changes so the data is consistent: every order has 1-9 items, and its total is the sum of
// its items' unit price x quantity. No column is NULL (the bulk paths load text, not NULLs).
//
// The data is cut into chunks of up to kChunkRows rows of one table (orders chunks also produce
// their items, products chunks their descriptions); each chunk draws from its own random stream
// (seed, table, chunk), so the data depends on the seed and the scale only, not on the threads.
#ifndef STOREBENCH_WORKLOAD_SOE_GENERATOR_H_
#define STOREBENCH_WORKLOAD_SOE_GENERATOR_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "base/random.h"
#include "workload/soe/soe_model.h"

namespace sb::soe {

enum class Table {
  kCustomers = 0,
  kAddresses,
  kCardDetails,
  kWarehouses,
  kCategories,
  kProductInformation,
  kProductDescriptions,
  kInventories,
  kOrders,
  kOrderItems,
  kLogon,
};
constexpr int kNumTables = 11;
const char* TableName(Table t);
const std::vector<std::string>& TableColumns(Table t);

constexpr int64_t kChunkRows = 10000;

struct Chunk {
  Table table;      // the table whose rows it numbers (orders: also their items)
  int64_t first;    // first id
  int64_t last;     // last id, inclusive
  uint64_t number;  // the chunk's index within its table (its random stream)
};

// Receives one row: its table and its fields as text.
using RowSink = std::function<void(Table, const std::vector<std::string_view>&)>;

class Generator {
 public:
  Generator(const SoeSize& size, uint64_t seed) : size_(size), seed_(seed) {}
  std::vector<Chunk> Chunks() const;
  void Generate(const Chunk& chunk, const RowSink& sink) const;
  // Rows a table will get (items and inventories: the expected value of a random count).
  int64_t ExpectedRows(Table t) const;

 private:
  void Customers(const Chunk& c, Random& rng, const RowSink& sink) const;
  void Addresses(const Chunk& c, Random& rng, const RowSink& sink) const;
  void Cards(const Chunk& c, Random& rng, const RowSink& sink) const;
  void Orders(const Chunk& c, Random& rng, const RowSink& sink) const;
  void Logons(const Chunk& c, Random& rng, const RowSink& sink) const;
  void Products(const Chunk& c, Random& rng, const RowSink& sink) const;
  void Inventories(const Chunk& c, Random& rng, const RowSink& sink) const;

  SoeSize size_;
  uint64_t seed_;
};

// Word lists shared by the generator and the transactions (new customers and the name search
// draw from the same names, so searches find customers).
const std::vector<std::string_view>& FirstNames();
const std::vector<std::string_view>& LastNames();
const std::vector<std::string_view>& Towns();
const std::vector<std::string_view>& Counties();
const std::vector<std::string_view>& Countries();
// (nls_language, nls_territory) pairs.
const std::vector<std::pair<std::string_view, std::string_view>>& NlsPairs();

// "YYYY-MM-DD" of a day counted from 1970-01-01.
std::string DateText(int64_t days);
// "YYYY-MM-DD HH:MM:SS" of a second counted from 1970-01-01 00:00:00.
std::string TimestampText(int64_t seconds);
// An amount of cents as "123.45".
std::string MoneyText(int64_t cents);
// Cents of an amount read back as a double (rounded to the nearest cent).
int64_t CentsOf(double amount);

}  // namespace sb::soe

#endif  // STOREBENCH_WORKLOAD_SOE_GENERATOR_H_
