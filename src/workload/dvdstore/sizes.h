// DVD Store database sizes (spec §3): S, M, L and custom <int>MB / <int>GB, scaled linearly
// from three bases exactly as DVD Store's installer and driver do.
#ifndef STOREBENCH_WORKLOAD_DVDSTORE_SIZES_H_
#define STOREBENCH_WORKLOAD_DVDSTORE_SIZES_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "storebench/status.h"

namespace sb::dvdstore {

struct DsSize {
  std::string label;            // normalized: "S", "M", "L", "20MB", "14GB"
  int64_t customers = 0;
  int64_t orders_per_month = 0;  // orders = 12 × this
  int64_t products = 0;

  int64_t orders() const { return 12 * orders_per_month; }
  int64_t members() const { return customers / 100 * 10; }  // DS3: integer division first
  int64_t reviews() const { return products * 20; }
  // DVD Store's product array: every product once, multiples of 10 000 ten times.
  int64_t prod_array_size() const { return products + 9 * (products / 10000); }
};

// Parses S/M/L (case-insensitive) or an integer followed by MB or GB. "1.5GB", "0MB", "10TB"
// and anything else are InvalidArgument with one sentence naming the text.
Result<DsSize> ParseDsSize(std::string_view text);

}  // namespace sb::dvdstore

#endif  // STOREBENCH_WORKLOAD_DVDSTORE_SIZES_H_
