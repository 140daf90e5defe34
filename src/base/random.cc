#include "base/random.h"

namespace sb {
namespace {

uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

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

int64_t Random::Reject(unsigned __int128 m, uint64_t range) {
  const uint64_t threshold = (0 - range) % range;
  auto low = static_cast<uint64_t>(m);
  while (low < threshold) {
    m = static_cast<unsigned __int128>(Next64()) * range;
    low = static_cast<uint64_t>(m);
  }
  return static_cast<int64_t>(m >> 64);
}

}  // namespace sb
