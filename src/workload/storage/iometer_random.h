// Iometer's random number generator: the 64-bit LCG X ← A·X + B (mod 2^64) with
// A = 136204069 and B = 28500701229, and Rand(n) = X mod n (IOGrunt.cpp, IOTarget.cpp). Used for
// the per-I/O decisions so that a spec's read/random/offset draws follow Iometer's procedure;
// the seeds come from the run seed (DeriveSeed), like Iometer 1.1.0's fixed-seed option.
#ifndef STOREBENCH_WORKLOAD_STORAGE_IOMETER_RANDOM_H_
#define STOREBENCH_WORKLOAD_STORAGE_IOMETER_RANDOM_H_

#include <cstdint>

namespace sb::storage {

class IometerRandom {
 public:
  static constexpr uint64_t kA = 136204069ULL;
  static constexpr uint64_t kB = 28500701229ULL;

  explicit IometerRandom(uint64_t seed) : x_(seed) {}
  // REQUIRES: limit > 0.
  uint64_t Rand(uint64_t limit) {
    x_ = kA * x_ + kB;
    return x_ % limit;
  }

 private:
  uint64_t x_;
};

}  // namespace sb::storage

#endif  // STOREBENCH_WORKLOAD_STORAGE_IOMETER_RANDOM_H_
