#include "workload/oltp/key_dist.h"

#include <algorithm>
#include <cmath>

namespace sb::oltp {
namespace {

// log(1 + x) / x and (exp(x) − 1) / x, exact near 0 (series) where the direct forms cancel.
double Log1pOverX(double x) {
  return std::fabs(x) > 1e-8 ? std::log1p(x) / x : 1 - x / 2 + x * x / 3 - x * x * x / 4;
}
double Expm1OverX(double x) {
  return std::fabs(x) > 1e-8 ? std::expm1(x) / x : 1 + x / 2 + x * x / 6 + x * x * x / 24;
}

}  // namespace

Result<KeyDistType> ParseKeyDistType(const std::string& name) {
  if (name == "uniform") return KeyDistType::kUniform;
  if (name == "gaussian") return KeyDistType::kGaussian;
  if (name == "special") return KeyDistType::kSpecial;
  if (name == "pareto") return KeyDistType::kPareto;
  if (name == "zipfian") return KeyDistType::kZipfian;
  return Status::InvalidArgument("rand_type '" + name +
                                 "' is not uniform, gaussian, special, pareto or zipfian");
}

KeyDist::KeyDist(const KeyDistParams& p, int64_t n) : p_(p), n_(std::max<int64_t>(1, n)) {
  pareto_power_ = std::log(p.pareto_h) / std::log(1 - p.pareto_h);
  // The hot share: uniform in a slice of spec_pct % of the keys, centred in the range.
  special_slice_ =
      std::max<int64_t>(1, static_cast<int64_t>(static_cast<double>(n_) * p.spec_pct / 100));
  special_first_ = 1 + (n_ - special_slice_) / 2;
  hot_limit_ = HotLimit(p.spec_res);
  if (p.type == KeyDistType::kZipfian) {
    const double s = p.zipf_exp;
    zipf_h_x1_ = H(1.5) - 1;
    zipf_h_n_ = H(static_cast<double>(n_) + 0.5);
    // The squeeze: for k with k − x <= s the acceptance test always passes (spec of the method).
    zipf_s_ = 2 - HInverse(H(2.5) - std::exp(-s * std::log(2.0)));
  }
}

uint64_t KeyDist::HotLimit(double spec_res) {
  // NextDouble's value for 53 bits k, times 100, as the draw computes it.
  auto times100 = [](uint64_t k) { return static_cast<double>(k) * 0x1.0p-53 * 100; };
  uint64_t lo = 0, hi = uint64_t{1} << 53;  // the answer is in [lo, hi]
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (times100(mid) >= spec_res) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}

// H(x) = (x^(1−s) − 1)/(1−s), or log x when s = 1, written to stay exact for s near 1.
double KeyDist::H(double x) const {
  const double lx = std::log(x);
  return Expm1OverX((1 - p_.zipf_exp) * lx) * lx;
}

double KeyDist::HInverse(double y) const {
  const double t = std::max(-1.0, y * (1 - p_.zipf_exp));
  return std::exp(Log1pOverX(t) * y);
}

// The mean of spec_iter uniform draws over all keys. The draws come from a local copy of the
// stream, written back after: the same numbers in the same order, but the compiler keeps the
// generator's state in registers through the loop instead of loading and storing it per draw
// (the cold share of "special" is a quarter of a point select's key draws and most of their
// cost; callgrind, docs/driver-cost.md).
//
// The sum is of the draws' 53 bits as doubles, scaled by 2^-53 once at the end: scaling by a
// power of two commutes with every rounding of the sum (the partial sums stay far from
// overflow and underflow), so it is the sum of the NextDouble values to the last bit, one
// multiplication per draw cheaper.
int64_t KeyDist::Gaussian(Random& rng) const {
  Random local = rng;
  double sum = 0;
  for (int i = 0; i < p_.spec_iter; ++i) sum += static_cast<double>(local.Next64() >> 11);
  rng = local;
  sum *= 0x1.0p-53;
  return 1 + std::min<int64_t>(n_ - 1,
                               static_cast<int64_t>(sum / p_.spec_iter * static_cast<double>(n_)));
}

int64_t KeyDist::NextOther(Random& rng) const {
  const double span = static_cast<double>(n_);  // keys 1..n
  switch (p_.type) {
    case KeyDistType::kUniform:
      return rng.Uniform(1, n_);
    case KeyDistType::kGaussian:
      return Gaussian(rng);
    case KeyDistType::kSpecial:
      return Special(rng);  // Next draws it without coming here
    case KeyDistType::kPareto: {
      const auto k = static_cast<int64_t>(span * std::pow(rng.NextDouble(), pareto_power_));
      return 1 + std::min<int64_t>(n_ - 1, k);
    }
    case KeyDistType::kZipfian: {
      // Rejection-inversion (Hörmann & Derflinger 1996) for P(k) ∝ k^−s on [1, n]: draw u under
      // the hat's integral, invert to x, round to k, accept when u lies under the true mass.
      for (;;) {
        const double u = zipf_h_n_ + rng.NextDouble() * (zipf_h_x1_ - zipf_h_n_);
        const double x = HInverse(u);
        const auto k = std::clamp<int64_t>(static_cast<int64_t>(x + 0.5), 1, n_);
        const auto kd = static_cast<double>(k);
        if (kd - x <= zipf_s_ || u >= H(kd + 0.5) - std::exp(-p_.zipf_exp * std::log(kd))) {
          return k;
        }
      }
    }
  }
  return 1;
}

}  // namespace sb::oltp
