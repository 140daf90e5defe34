#include "power/reading_rule.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <system_error>

namespace sb::power {

Status CheckWatts(double watts) {
  if (std::isfinite(watts) && watts >= 0 && watts <= kMaxPlausibleWatts) return Status::Ok();
  char text[64];
  std::snprintf(text, sizeof text, "%g", watts);
  return Status::IoError(std::string("implausible reading ") + text +
                         " W (a reading is a number from 0 to 1000000 W)");
}

size_t ParseDecimal(std::string_view text, double* out) {
  size_t i = 0;
  const bool negative = !text.empty() && text[0] == '-';
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) i = 1;
  // std::from_chars takes no sign of its own but '-', and never hexadecimal without
  // chars_format::hex; "inf" and "nan" are refused here (a digit or ".digit" must come first).
  const auto digit = [&](size_t k) { return k < text.size() && text[k] >= '0' && text[k] <= '9'; };
  if (!digit(i) && !(i < text.size() && text[i] == '.' && digit(i + 1))) return 0;
  double v = 0;
  const char* begin = text.data() + i;
  const std::from_chars_result r =
      std::from_chars(begin, text.data() + text.size(), v, std::chars_format::general);
  if (r.ptr == begin) return 0;
  if (r.ec == std::errc::result_out_of_range) {
    // Beyond a double (1e400) or below its smallest (1e-400, which reads as 0 W).
    const bool tiny = std::string_view(begin, static_cast<size_t>(r.ptr - begin)).find("e-") !=
                          std::string_view::npos ||
                      std::string_view(begin, static_cast<size_t>(r.ptr - begin)).find("E-") !=
                          std::string_view::npos;
    v = tiny ? 0 : std::numeric_limits<double>::infinity();
  }
  *out = negative ? -v : v;
  return static_cast<size_t>(r.ptr - text.data());
}

}  // namespace sb::power
