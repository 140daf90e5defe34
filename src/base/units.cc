#include "base/units.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace sb {

namespace {
std::string Quote(std::string_view s) { return "'" + std::string(s) + "'"; }
}  // namespace

Result<int64_t> ParseInt(std::string_view text, std::string_view what) {
  int64_t v = 0;
  const char* end = text.data() + text.size();
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) {
    return Status::InvalidArgument(std::string(what) + " " + Quote(text) +
                                   " is not a whole non-negative number");
  }
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || ptr != end) {
    return Status::InvalidArgument(std::string(what) + " " + Quote(text) +
                                   " is not a whole non-negative number");
  }
  return v;
}

namespace {

// A plain decimal number: [-]digits[.digits][e[+|-]digits], at least one digit before the
// exponent. strtod alone also takes leading blanks, '+', hexadecimal, "inf" and "nan".
bool IsDecimalNumber(std::string_view t) {
  const auto digits = [&t](size_t i) {
    size_t j = i;
    while (j < t.size() && std::isdigit(static_cast<unsigned char>(t[j]))) ++j;
    return j;
  };
  size_t i = !t.empty() && t[0] == '-' ? 1 : 0;
  const size_t int_end = digits(i);
  size_t mantissa_digits = int_end - i;
  i = int_end;
  if (i < t.size() && t[i] == '.') {
    const size_t frac_end = digits(i + 1);
    mantissa_digits += frac_end - (i + 1);
    i = frac_end;
  }
  if (mantissa_digits == 0) return false;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    const size_t exp_end = digits(i);
    if (exp_end == i) return false;
    i = exp_end;
  }
  return i == t.size();
}

}  // namespace

Result<double> ParseDouble(std::string_view text, std::string_view what) {
  std::string s(text);
  char* end = nullptr;
  const bool plain = IsDecimalNumber(text);
  const double v = plain ? std::strtod(s.c_str(), &end) : NAN;
  if (!plain || end != s.c_str() + s.size() || !std::isfinite(v)) {
    return Status::InvalidArgument(std::string(what) + " " + Quote(text) + " is not a number");
  }
  return v;
}

Result<bool> ParseBool(std::string_view text, std::string_view what) {
  std::string s;
  for (char c : text) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // on/off: sysbench's spelling (--histogram=on).
  if (s == "y" || s == "yes" || s == "true" || s == "on" || s == "1") return true;
  if (s == "n" || s == "no" || s == "false" || s == "off" || s == "0") return false;
  return Status::InvalidArgument(std::string(what) + " " + Quote(text) + " is not Y or N");
}

Result<int64_t> ParseDurationNanos(std::string_view text, int64_t bare_unit_nanos) {
  const auto bad = [&] {
    return Status::InvalidArgument("duration " + Quote(text) +
                                   " is not a duration like 90s, 2m, 1h30m or 500ms");
  };
  if (text.empty()) return bad();
  double total = 0;
  size_t i = 0;
  bool any = false;
  while (i < text.size()) {
    size_t j = i;
    while (j < text.size() && (std::isdigit(static_cast<unsigned char>(text[j])) || text[j] == '.'))
      ++j;
    if (j == i) return bad();
    auto num = ParseDouble(text.substr(i, j - i), "duration");
    if (!num.ok()) return bad();
    size_t k = j;
    while (k < text.size() && std::isalpha(static_cast<unsigned char>(text[k]))) ++k;
    const std::string_view unit = text.substr(j, k - j);
    double scale = 0;
    if (unit.empty()) {
      if (any || k != text.size()) return bad();
      scale = static_cast<double>(bare_unit_nanos);
    } else if (unit == "ns") {
      scale = 1;
    } else if (unit == "us") {
      scale = 1e3;
    } else if (unit == "ms") {
      scale = 1e6;
    } else if (unit == "s") {
      scale = 1e9;
    } else if (unit == "m" || unit == "min") {
      scale = 60e9;
    } else if (unit == "h") {
      scale = 3600e9;
    } else {
      return bad();
    }
    total += *num * scale;
    any = true;
    i = k;
  }
  if (total >= 9223372036854775808.0) return bad();  // 2^63: would overflow int64_t
  return static_cast<int64_t>(std::llround(total));
}

Result<uint64_t> ParseBytes(std::string_view text) {
  size_t j = 0;
  while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
  const auto bad = [&] {
    return Status::InvalidArgument(
        "size " + Quote(text) + " is not a whole number with an optional unit like 4KiB or 10MB");
  };
  if (j == 0) return bad();
  auto num = ParseInt(text.substr(0, j), "size");
  if (!num.ok()) return bad();
  std::string unit;
  for (char c : text.substr(j))
    unit += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  uint64_t scale = 0;
  if (unit.empty() || unit == "B") {
    scale = 1;
  } else if (unit == "K" || unit == "KB" || unit == "KIB") {
    scale = 1ULL << 10;
  } else if (unit == "M" || unit == "MB" || unit == "MIB") {
    scale = 1ULL << 20;
  } else if (unit == "G" || unit == "GB" || unit == "GIB") {
    scale = 1ULL << 30;
  } else if (unit == "T" || unit == "TB" || unit == "TIB") {
    scale = 1ULL << 40;
  } else {
    return bad();
  }
  if (static_cast<uint64_t>(*num) > UINT64_MAX / scale) return bad();  // would wrap
  return static_cast<uint64_t>(*num) * scale;
}

std::string FormatDecimalBytes(double bytes) {
  char buf[32];
  if (bytes >= 1e9) {
    std::snprintf(buf, sizeof buf, "%.1f GB", bytes / 1e9);
  } else if (bytes >= 1e6) {
    std::snprintf(buf, sizeof buf, "%.1f MB", bytes / 1e6);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f kB", bytes / 1e3);
  }
  return buf;
}

std::string FormatDuration(int64_t nanos) {
  if (nanos % 1000000000LL != 0) {
    return std::to_string(nanos / 1000000) + "ms";
  }
  int64_t s = nanos / 1000000000LL;
  std::string out;
  if (s >= 3600) {
    out += std::to_string(s / 3600) + "h";
    s %= 3600;
  }
  if (s >= 60) {
    out += std::to_string(s / 60) + "m";
    s %= 60;
  }
  if (s > 0 || out.empty()) out += std::to_string(s) + "s";
  return out;
}

}  // namespace sb
