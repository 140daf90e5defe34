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

class Random {
 public:
  explicit Random(uint64_t seed);

  // Next raw 64 random bits.
  uint64_t Next64();
  // U[lo, hi], both ends inclusive. REQUIRES: lo <= hi. Unbiased (Lemire's method).
  int64_t Uniform(int64_t lo, int64_t hi);
  // .NET Random.Next(n): U[0, n-1]; returns 0 when n <= 0 (as .NET does for n == 0).
  int64_t Next(int64_t n) { return n <= 0 ? 0 : Uniform(0, n - 1); }
  // Uniform double in [0, 1) with 53 random bits.
  double NextDouble();
  // A count with mean `mean`, drawn as DVD Store does: U[1, 2*mean - 1]. REQUIRES: mean >= 1.
  int64_t UniformMean(int64_t mean) { return Uniform(1, 2 * mean - 1); }
  // True with probability p.
  bool Bernoulli(double p) { return NextDouble() < p; }

 private:
  uint64_t s_[4];
};

}  // namespace sb

#endif  // STOREBENCH_BASE_RANDOM_H_
