#include "base/random.h"

namespace sb {
namespace {

uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

inline uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

uint64_t DeriveSeed(uint64_t base, std::initializer_list<uint64_t> ids) {
  uint64_t state = base;
  uint64_t out = SplitMix64(state);
  for (uint64_t id : ids) {
    state ^= id + 0x632be59bd9b4e019ULL + (out << 6) + (out >> 2);
    out = SplitMix64(state);
  }
  return out;
}

Random::Random(uint64_t seed) {
  uint64_t state = seed;
  for (uint64_t& word : s_) word = SplitMix64(state);
}

uint64_t Random::Next64() {
  const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = Rotl(s_[3], 45);
  return result;
}

int64_t Random::Uniform(int64_t lo, int64_t hi) {
  const uint64_t range = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
  if (range == 0) return static_cast<int64_t>(Next64());  // full 64-bit range
  // Lemire's nearly divisionless method, with rejection for exact uniformity.
  unsigned __int128 m = static_cast<unsigned __int128>(Next64()) * range;
  auto low = static_cast<uint64_t>(m);
  if (low < range) {
    const uint64_t threshold = (0 - range) % range;
    while (low < threshold) {
      m = static_cast<unsigned __int128>(Next64()) * range;
      low = static_cast<uint64_t>(m);
    }
  }
  return lo + static_cast<int64_t>(static_cast<uint64_t>(m >> 64));
}

double Random::NextDouble() { return static_cast<double>(Next64() >> 11) * 0x1.0p-53; }

}  // namespace sb
