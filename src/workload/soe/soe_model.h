// The Order Entry model shared by the loader, the sessions and the config reader: the nine
// transactions (Swingbench's short names and ids), the sizes of a scale, the transaction mix by
// integer weights and the think-time draws. Plain data and pure functions (docs/soe.md).
#ifndef STOREBENCH_WORKLOAD_SOE_SOE_MODEL_H_
#define STOREBENCH_WORKLOAD_SOE_SOE_MODEL_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/random.h"
#include "storebench/status.h"

namespace sb::soe {

// The transactions, in Swingbench's configuration order. Also the workload's step types.
enum Tx { kNcr = 0, kUcd, kBp, kOp, kPo, kBo, kSq, kWq, kWa, kNumTx };

struct TxInfo {
  const char* short_name;  // "NCR": charbench's column and the step type's name
  const char* id;          // "Customer Registration": the Transaction/Id of Swingbench's configs
  const char* java_class;  // "NewCustomerProcess": the last part of its ClassName
  const char* option;      // "weight_ncr"
  int64_t default_weight;  // Swingbench's SOE_Server_Side_V2 defaults (0: shipped disabled)
};
const TxInfo& InfoOf(int tx);
// The transaction of a Swingbench ClassName (its last dotted part, "V2" suffix allowed) or
// ShortName; -1 when none.
int TxFromClassName(std::string_view class_name);
int TxFromShortName(std::string_view short_name);

// Row counts at a scale. Scale 1 is Swingbench's wizard at -scale 1 (about 1 GB of rows):
// 1,000,000 customers and the other tables in its proportions; WAREHOUSES and
// PRODUCT_INFORMATION stay at 1000 rows from scale 1 up and shrink below it (at least 10
// warehouses and 100 products), so a test database is small.
struct SoeSize {
  double scale = 1;
  int64_t customers = 0, addresses = 0, cards = 0, orders = 0, logons = 0;
  int64_t warehouses = 0, products = 0, categories = 0;
  std::string label() const;  // the scale as given, "0.01"
};
// InvalidArgument unless 0 < scale <= 1000 and the scale gives at least 10 customers.
Result<SoeSize> SizeForScale(double scale);

// The transaction mix: probability of each = weight / sum of the weights (a weight of 0 is a
// disabled transaction).
class TxMix {
 public:
  // InvalidArgument when every weight is 0.
  static Result<TxMix> FromWeights(const std::array<int64_t, kNumTx>& weights);
  int Pick(Random& rng) const;
  double Probability(int tx) const;
  const std::array<int64_t, kNumTx>& weights() const { return weights_; }

 private:
  std::array<int64_t, kNumTx> weights_{};
  int64_t total_ = 0;
};

// Swingbench's think times, in milliseconds: intra-transaction (between a transaction's
// statements) and inter-transaction (between transactions).
struct Delays {
  int64_t min_ms = 0, max_ms = 0;
  int64_t inter_min_ms = 0, inter_max_ms = 0;
  // Response times include the intra-transaction sleeps (Swingbench's TimingsIncludeSleep).
  bool include_sleep = false;
};
// InvalidArgument when a minimum is above its maximum.
Status CheckDelays(const Delays& d);
// A think time in nanoseconds, uniform over [min_ms, max_ms] whole milliseconds; 0 when max_ms
// is 0.
int64_t DrawDelayNanos(Random& rng, int64_t min_ms, int64_t max_ms);

}  // namespace sb::soe

#endif  // STOREBENCH_WORKLOAD_SOE_SOE_MODEL_H_
