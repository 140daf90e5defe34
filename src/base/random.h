// Seeded pseudo-random numbers with portable, documented distributions.
//
// The generator is xoshiro256** seeded through splitmix64. Distributions are implemented here
// (not with <random>'s distributions, whose output differs between standard libraries) so the
// same seed gives the same sequence on every platform. Every stream in a run derives from
// (run seed, instance, worker, purpose) through DeriveSeed, so a run can be repeated exactly.
#ifndef STOREBENCH_BASE_RANDOM_H_
#define STOREBENCH_BASE_RANDOM_H_

#include <cstdint>
#include <initializer_list>

namespace sb {

// Mixes a base seed with any number of stream identifiers into a new, well-spread seed.
uint64_t DeriveSeed(uint64_t base, std::initializer_list<uint64_t> ids);

// Next64, NextDouble and Uniform's common path are defined in this header so that they inline
// into the callers' loops: a sysbench point select draws up to 14 numbers (key distribution
// "special"), and as out-of-line calls they cost about 250 instructions of the driver's own per
// operation (callgrind, bench/driver_instructions.sh); inline, about 100.
class Random {
 public:
  explicit Random(uint64_t seed);

  // Next raw 64 random bits.
  uint64_t Next64() {
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
  // U[lo, hi], both ends inclusive. REQUIRES: lo <= hi. Unbiased (Lemire's method).
  int64_t Uniform(int64_t lo, int64_t hi) {
    const uint64_t range = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
    if (range == 0) return static_cast<int64_t>(Next64());  // full 64-bit range
    // Lemire's nearly divisionless method: the rejection (rare) is out of line.
    const unsigned __int128 m = static_cast<unsigned __int128>(Next64()) * range;
    if (static_cast<uint64_t>(m) < range) return lo + Reject(m, range);
    return lo + static_cast<int64_t>(m >> 64);
  }
  // .NET Random.Next(n): U[0, n-1]; returns 0 when n <= 0 (as .NET does for n == 0).
  int64_t Next(int64_t n) { return n <= 0 ? 0 : Uniform(0, n - 1); }
  // Uniform double in [0, 1) with 53 random bits.
  double NextDouble() { return static_cast<double>(Next64() >> 11) * 0x1.0p-53; }
  // A count with mean `mean`, drawn as DVD Store does: U[1, 2*mean - 1]. REQUIRES: mean >= 1.
  int64_t UniformMean(int64_t mean) { return Uniform(1, 2 * mean - 1); }
  // True with probability p.
  bool Bernoulli(double p) { return NextDouble() < p; }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  // Uniform's slow path: `m` is the first draw times `range`, with its low half below `range`.
  // Returns the offset from lo.
  int64_t Reject(unsigned __int128 m, uint64_t range);
  uint64_t s_[4];
};

}  // namespace sb

#endif  // STOREBENCH_BASE_RANDOM_H_
