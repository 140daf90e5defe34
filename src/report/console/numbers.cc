#include "report/console/numbers.h"

#include <cmath>
#include <cstdint>
#include <cstdio>

namespace sb::report::numbers {

std::string Printf(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), format, v);
  return buf;
}

std::string Amount(double v) {
  if (!std::isfinite(v)) return "n/a";
  if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<int64_t>(v));
  return Printf(std::fabs(v) >= 100 ? "%.1f" : "%.3f", v);
}

std::string Ms(double v) { return Printf("%.3f", v); }

}  // namespace sb::report::numbers
