// The TPC-C specification's random primitives (TPC-C revision 5.11, clauses 2.1.6 and 4.3.2):
// NURand with its C constants, last names from syllables, a-strings, n-strings, zips, and the
// transaction mix. Plain functions of a seeded sb::Random, so tests can check them directly.
#ifndef STOREBENCH_WORKLOAD_TPCC_TPCC_RANDOM_H_
#define STOREBENCH_WORKLOAD_TPCC_TPCC_RANDOM_H_

#include <array>
#include <cstdint>
#include <string>

#include "base/random.h"
#include "storebench/status.h"

namespace sb::tpcc {

// Fixed sizes of the specification (clause 1.2, 4.3.3.1).
constexpr int64_t kItems = 100000;
constexpr int kDistrictsPerWarehouse = 10;
constexpr int64_t kCustomersPerDistrict = 3000;
constexpr int64_t kOrdersPerDistrict = 3000;
constexpr int64_t kFirstUndeliveredOrder = 2101;  // orders 2101..3000 are in NEW-ORDER at load
constexpr int64_t kStockPerWarehouse = kItems;

// NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x (clause 2.1.6).
int64_t NURand(Random& rng, int64_t a, int64_t x, int64_t y, int64_t c);

// The C constants, one per field, shared by every terminal (clause 2.1.6.1).
struct CConstants {
  int64_t c_last = 0;   // [0..255], for NURand(255, 0, 999)
  int64_t c_id = 0;     // [0..1023], for NURand(1023, 1, 3000)
  int64_t ol_i_id = 0;  // [0..8191], for NURand(8191, 1, 100000)
};
// Draws C-Load (the C_LAST value the load uses; the other two are unused at load).
CConstants DrawLoadConstants(Random& rng);
// Draws C-Run: C_ID and OL_I_ID freely, C_LAST so that |C_run - C_load| is in [65..119] and is
// neither 96 nor 112 (clause 2.1.6.1).
CConstants DrawRunConstants(Random& rng, int64_t c_last_load);
// Whether `run` is a valid C_LAST run value for `load` (the delta rule above).
bool ValidCLastDelta(int64_t load, int64_t run);

// The last name of number n in [0..999]: the syllables of its three digits (clause 4.3.2.3).
std::string LastName(int64_t n);

// Random alphanumeric text of length [lo..hi] appended to *out (clause 4.3.2.2; storebench's
// character set is the 62 letters and digits).
void AppendAString(Random& rng, int lo, int hi, std::string* out);
// Random digits of length [lo..hi].
void AppendNString(Random& rng, int lo, int hi, std::string* out);
// A zip code: 4 random digits and "11111" (clause 4.3.2.7).
void AppendZip(Random& rng, std::string* out);
// Text of [26..50] characters, 10 % of it holding "ORIGINAL" at a random place (I_DATA, S_DATA;
// clause 4.3.3.1). Returns whether it did.
bool AppendData(Random& rng, std::string* out);

// Money and fractions as text: cents -> "12.34" (negative allowed); ten-thousandths -> "0.1234".
void AppendCents(int64_t cents, std::string* out);
void AppendTenThousandths(int64_t v, std::string* out);

// The five transactions, in this order everywhere (step types, mix weights, keying times).
enum TxnType { kNewOrder = 0, kPayment, kOrderStatus, kDelivery, kStockLevel, kNumTxnTypes };
const char* TxnName(int t);

// How a terminal chooses its next transaction (clause 5.2.4).
enum class MixKind {
  kStandard,  // weights 45/43/4/4/4, drawn with replacement
  kHammerDb,  // 1..23 with replacement: 10/10/1/1/1 (HammerDB TPROC-C)
  kDeck,      // a shuffled deck of 23 cards (10/10/1/1/1) per terminal, reshuffled each pass
  kWeights,   // percentages given by the user (--weights), drawn with replacement
};
Result<MixKind> ParseMix(const std::string& name);

// The specification's minimum shares of the mix in percent, in TxnType order (clause 5.2.3:
// Payment 43 %, Order-Status, Delivery and Stock-Level 4 % each; New-Order has none).
constexpr std::array<double, kNumTxnTypes> kMinimumSharePct = {0, 43, 4, 4, 4};

// Percentages per transaction type, in TxnType order; they add up to 100.
using MixWeights = std::array<uint8_t, kNumTxnTypes>;
// "45,43,4,4,4" (go-tpc's --weight): five whole percentages adding up to 100.
Result<MixWeights> ParseWeights(const std::string& text);

class Mix {
 public:
  explicit Mix(MixKind kind, MixWeights weights = {}) : kind_(kind), weights_(weights) {}
  TxnType Next(Random& rng);
  // The expected share of each transaction type, in TxnType order (fractions adding up to 1).
  std::array<double, kNumTxnTypes> Shares() const;

 private:
  void Shuffle(Random& rng);
  MixKind kind_;
  MixWeights weights_;  // kWeights
  std::array<uint8_t, 23> deck_{};
  int next_card_ = 23;
};

}  // namespace sb::tpcc

#endif  // STOREBENCH_WORKLOAD_TPCC_TPCC_RANDOM_H_
