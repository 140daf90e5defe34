#include "workload/tpcc/tpcc_random.h"

#include <cstdio>
#include <cstdlib>

namespace sb::tpcc {
namespace {

constexpr const char* kSyllables[10] = {"BAR", "OUGHT", "ABLE",  "PRI",   "PRES",
                                        "ESE", "ANTI",  "CALLY", "ATION", "EING"};
constexpr char kAlnum[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
constexpr uint64_t kAlnumSize = 62;

}  // namespace

int64_t NURand(Random& rng, int64_t a, int64_t x, int64_t y, int64_t c) {
  return (((rng.Uniform(0, a) | rng.Uniform(x, y)) + c) % (y - x + 1)) + x;
}

CConstants DrawLoadConstants(Random& rng) {
  CConstants c;
  c.c_last = rng.Uniform(0, 255);
  c.c_id = rng.Uniform(0, 1023);
  c.ol_i_id = rng.Uniform(0, 8191);
  return c;
}

bool ValidCLastDelta(int64_t load, int64_t run) {
  const int64_t d = std::llabs(run - load);
  return d >= 65 && d <= 119 && d != 96 && d != 112;
}

CConstants DrawRunConstants(Random& rng, int64_t c_last_load) {
  CConstants c;
  c.c_id = rng.Uniform(0, 1023);
  c.ol_i_id = rng.Uniform(0, 8191);
  // Every load value in [0..255] has valid run values (a delta of 65..119 fits on one side).
  do {
    c.c_last = rng.Uniform(0, 255);
  } while (!ValidCLastDelta(c_last_load, c.c_last));
  return c;
}

std::string LastName(int64_t n) {
  std::string s = kSyllables[(n / 100) % 10];
  s += kSyllables[(n / 10) % 10];
  s += kSyllables[n % 10];
  return s;
}

void AppendAString(Random& rng, int lo, int hi, std::string* out) {
  const int64_t len = rng.Uniform(lo, hi);
  uint64_t bits = 0;
  int left = 0;
  for (int64_t i = 0; i < len; ++i) {
    // Two characters per 64 random bits: 32-bit multiply-shift, bias below 2^-26.
    if (left == 0) {
      bits = rng.Next64();
      left = 2;
    }
    const uint64_t r = bits & 0xffffffffu;
    bits >>= 32;
    --left;
    *out += kAlnum[(r * kAlnumSize) >> 32];
  }
}

void AppendNString(Random& rng, int lo, int hi, std::string* out) {
  const int64_t len = rng.Uniform(lo, hi);
  for (int64_t i = 0; i < len; ++i) *out += static_cast<char>('0' + rng.Uniform(0, 9));
}

void AppendZip(Random& rng, std::string* out) {
  AppendNString(rng, 4, 4, out);
  *out += "11111";
}

bool AppendData(Random& rng, std::string* out) {
  const size_t start = out->size();
  AppendAString(rng, 26, 50, out);
  if (rng.Uniform(1, 10) != 1) return false;
  const size_t len = out->size() - start;
  const size_t at = start + static_cast<size_t>(rng.Uniform(0, static_cast<int64_t>(len) - 8));
  out->replace(at, 8, "ORIGINAL");
  return true;
}

void AppendCents(int64_t cents, std::string* out) {
  char buf[32];
  const int64_t a = std::llabs(cents);
  std::snprintf(buf, sizeof buf, "%s%lld.%02lld", cents < 0 ? "-" : "",
                static_cast<long long>(a / 100), static_cast<long long>(a % 100));
  *out += buf;
}

void AppendTenThousandths(int64_t v, std::string* out) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%lld.%04lld", static_cast<long long>(v / 10000),
                static_cast<long long>(v % 10000));
  *out += buf;
}

const char* TxnName(int t) {
  static constexpr const char* kNames[kNumTxnTypes] = {"new_order", "payment", "order_status",
                                                       "delivery", "stock_level"};
  return t >= 0 && t < kNumTxnTypes ? kNames[t] : "?";
}

Result<MixKind> ParseMix(const std::string& name) {
  if (name == "standard") return MixKind::kStandard;
  if (name == "hammerdb") return MixKind::kHammerDb;
  if (name == "deck") return MixKind::kDeck;
  return Status::InvalidArgument("unknown mix '" + name + "' (standard, hammerdb, deck)");
}

Result<MixWeights> ParseWeights(const std::string& text) {
  const Status bad = Status::InvalidArgument(
      "--weights takes five whole percentages for New-Order, Payment, Order-Status, Delivery "
      "and Stock-Level adding up to 100 (e.g. 45,43,4,4,4), not '" +
      text + "'");
  MixWeights w{};
  size_t pos = 0;
  int total = 0;
  for (int t = 0; t < kNumTxnTypes; ++t) {
    const size_t end = t + 1 < kNumTxnTypes ? text.find(',', pos) : text.size();
    if (end == std::string::npos || end == pos || end - pos > 3) return bad;
    int v = 0;
    for (size_t i = pos; i < end; ++i) {
      if (text[i] < '0' || text[i] > '9') return bad;
      v = v * 10 + (text[i] - '0');
    }
    if (v > 100) return bad;
    w[static_cast<size_t>(t)] = static_cast<uint8_t>(v);
    total += v;
    pos = end + 1;
  }
  if (total != 100) return bad;
  return w;
}

// The 23 cards: 10 New-Order, 10 Payment, one each of the others (clause 5.2.4.2); HammerDB
// draws the same numbers with replacement.
static TxnType Card(int64_t n) {  // n in [1..23]
  if (n <= 10) return kNewOrder;
  if (n <= 20) return kPayment;
  if (n == 21) return kDelivery;
  if (n == 22) return kStockLevel;
  return kOrderStatus;
}

void Mix::Shuffle(Random& rng) {
  for (int i = 0; i < 23; ++i) deck_[i] = static_cast<uint8_t>(i + 1);
  for (int i = 22; i > 0; --i) std::swap(deck_[i], deck_[rng.Uniform(0, i)]);
  next_card_ = 0;
}

TxnType Mix::Next(Random& rng) {
  switch (kind_) {
    case MixKind::kStandard: {
      const int64_t r = rng.Uniform(1, 100);
      if (r <= 45) return kNewOrder;
      if (r <= 88) return kPayment;
      if (r <= 92) return kOrderStatus;
      if (r <= 96) return kDelivery;
      return kStockLevel;
    }
    case MixKind::kHammerDb:
      return Card(rng.Uniform(1, 23));
    case MixKind::kDeck:
      if (next_card_ >= 23) Shuffle(rng);
      return Card(deck_[next_card_++]);
    case MixKind::kWeights: {
      int64_t r = rng.Uniform(1, 100);
      for (int t = 0; t < kNumTxnTypes; ++t) {
        r -= weights_[static_cast<size_t>(t)];
        if (r <= 0) return static_cast<TxnType>(t);
      }
      return kStockLevel;
    }
  }
  return kNewOrder;
}

std::array<double, kNumTxnTypes> Mix::Shares() const {
  std::array<double, kNumTxnTypes> s{};
  switch (kind_) {
    case MixKind::kStandard:
      s = {0.45, 0.43, 0.04, 0.04, 0.04};
      break;
    case MixKind::kHammerDb:
    case MixKind::kDeck:
      for (int64_t n = 1; n <= 23; ++n) s[Card(n)] += 1.0 / 23;
      break;
    case MixKind::kWeights:
      for (int t = 0; t < kNumTxnTypes; ++t) s[t] = weights_[static_cast<size_t>(t)] / 100.0;
      break;
  }
  return s;
}

}  // namespace sb::tpcc
