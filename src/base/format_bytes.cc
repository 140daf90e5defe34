#include "base/format_bytes.h"

#include <cstdio>

namespace sb {

std::string FormatBytesShort(uint64_t b) {
  char buf[32];
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  auto v = static_cast<double>(b);
  int u = 0;
  while (v >= 1024 && u < 5) {
    v /= 1024;
    ++u;
  }
  if (u == 0) {
    std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(b));
  } else {
    std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  }
  return buf;
}

}  // namespace sb
