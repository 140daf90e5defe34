#include "workload/dvdstore/sizes.h"

#include <cctype>
#include <charconv>

namespace sb::dvdstore {
namespace {

struct Base {
  int64_t customers;
  int64_t orders_per_month;
  int64_t products;
};

// Spec §3.1: the three bases every size scales from.
constexpr Base kSmall = {20'000, 1'000, 10'000};
constexpr Base kMedium = {2'000'000, 100'000, 100'000};
constexpr Base kLarge = {200'000'000, 10'000'000, 1'000'000};

// rows = base × x / divisor, truncated as DVD Store's driver does (exact for every valid x).
DsSize Scaled(std::string label, const Base& base, int64_t x, int64_t divisor) {
  DsSize size;
  size.label = std::move(label);
  size.customers = base.customers * x / divisor;
  size.orders_per_month = base.orders_per_month * x / divisor;
  size.products = base.products * x / divisor;
  return size;
}

std::string Upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

Status Invalid(std::string_view text, std::string_view why) {
  return Status::InvalidArgument("db_size '" + std::string(text) + "' " + std::string(why));
}

}  // namespace

Result<DsSize> ParseDsSize(std::string_view text) {
  const std::string upper = Upper(text);
  if (upper == "S") return Scaled("S", kSmall, 1, 1);
  if (upper == "M") return Scaled("M", kMedium, 1, 1);
  if (upper == "L") return Scaled("L", kLarge, 1, 1);

  constexpr std::string_view kShape = "is not S, M, L or an integer followed by MB or GB";
  if (upper.size() < 3) return Invalid(text, kShape);
  const std::string_view unit = std::string_view(upper).substr(upper.size() - 2);
  const std::string_view digits = std::string_view(upper).substr(0, upper.size() - 2);
  if (unit != "MB" && unit != "GB") return Invalid(text, kShape);
  for (char c : digits) {
    if (c < '0' || c > '9') return Invalid(text, kShape);
  }
  int64_t x = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), x);
  if (ec != std::errc() || end != digits.data() + digits.size()) {
    return Invalid(text, "is out of range (MB sizes are 1 to 1023, GB sizes 1 to 4095)");
  }
  if (unit == "MB") {
    if (x < 1 || x >= 1024) {
      return Invalid(text, "is out of range (MB sizes are 1 to 1023, GB sizes 1 to 4095)");
    }
    return Scaled(upper, kSmall, x, 10);
  }
  if (x < 1 || x >= 4096) {
    return Invalid(text, "is out of range (MB sizes are 1 to 1023, GB sizes 1 to 4095)");
  }
  if (x == 1) return Scaled(upper, kMedium, 1, 1);
  return Scaled(upper, kLarge, x, 100);
}

}  // namespace sb::dvdstore
