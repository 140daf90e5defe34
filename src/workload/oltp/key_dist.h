// Key distributions of the sysbench-style workload (--rand_type), with sysbench 1.0's defaults
// and meanings:
//   uniform   every key equally likely
//   gaussian  the mean of 12 uniform draws over the range (bell-shaped around the middle)
//   special   75 % of draws hit a slice of 1 % of the keys in the middle of the range; the
//             other 25 % are gaussian over the whole range (--rand_spec_pct, --rand_spec_res)
//   pareto    a + n·U^(log h / log(1−h)) with h = 0.2: heavily skewed towards the low keys
//   zipfian   P(k) ∝ 1/k^s with s = 0.8, by Hörmann and Derflinger's rejection-inversion method
#ifndef STOREBENCH_WORKLOAD_OLTP_KEY_DIST_H_
#define STOREBENCH_WORKLOAD_OLTP_KEY_DIST_H_

#include <cstdint>
#include <string>

#include "base/random.h"
#include "storebench/status.h"

namespace sb::oltp {

enum class KeyDistType { kUniform, kGaussian, kSpecial, kPareto, kZipfian };

struct KeyDistParams {
  KeyDistType type = KeyDistType::kSpecial;  // sysbench 1.0's default
  int spec_iter = 12;                        // uniform draws averaged for gaussian
  double spec_pct = 1;                       // special: size of the hot slice, % of keys
  double spec_res = 75;                      // special: % of draws that hit the hot slice
  double pareto_h = 0.2;
  double zipf_exp = 0.8;
};

Result<KeyDistType> ParseKeyDistType(const std::string& name);

// Draws keys in [1, n]. Not thread-safe: one per session (it uses the session's stream).
class KeyDist {
 public:
  KeyDist(const KeyDistParams& p, int64_t n);
  // Defined here for sysbench's default, "special", so that it inlines into the session's
  // unit: out of line, the one function for every type saved and restored six registers and
  // jumped through a table per draw (about 30 of a point select's instructions; callgrind,
  // docs/driver-cost.md).
  [[gnu::always_inline]] int64_t Next(Random& rng) const {
    if (p_.type == KeyDistType::kSpecial) [[likely]]
      return Special(rng);
    return NextOther(rng);
  }
  // The least k in [0, 2^53] whose NextDouble value (k · 2^-53) times 100 is at least
  // `spec_res`: NextDouble() * 100 < spec_res exactly when the double's 53 bits are below it
  // (k · 2^-53 · 100 rounds monotonically in k, so the keys below the limit are a prefix).
  static uint64_t HotLimit(double spec_res);

 private:
  [[gnu::always_inline]] int64_t Special(Random& rng) const {
    // rng.NextDouble() * 100 >= spec_res, decided on NextDouble's 53 bits (HotLimit).
    if ((rng.Next64() >> 11) >= hot_limit_) return Gaussian(rng);  // the cold share
    return special_first_ + rng.Uniform(0, special_slice_ - 1);    // the hot share
  }
  int64_t NextOther(Random& rng) const;  // the types other than special
  int64_t Gaussian(Random& rng) const;   // the gaussian draw, also special's cold share
  double H(double x) const;              // integral of the zipfian hat function 1/x^s
  double HInverse(double y) const;
  KeyDistParams p_;
  int64_t n_;
  double pareto_power_;
  // special: the hot slice [special_first_, special_first_ + special_slice_), fixed by p_ and n_
  // (computed once: a point select draws a key per operation).
  int64_t special_slice_ = 1, special_first_ = 1;
  uint64_t hot_limit_ = 0;  // HotLimit(spec_res)
  double zipf_h_x1_ = 0, zipf_h_n_ = 0, zipf_s_ = 0;
};

}  // namespace sb::oltp

#endif  // STOREBENCH_WORKLOAD_OLTP_KEY_DIST_H_
