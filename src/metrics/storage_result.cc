#include "metrics/storage_result.h"

#include <algorithm>

namespace sb::metrics {

const std::array<const char*, kIometerBins>& IometerBinNames() {
  static const std::array<const char*, kIometerBins> kNames = {
      "0 to 50 uS",   "50 to 100 uS", "100 to 200 uS", "200 to 500 uS", "0.5 to 1 mS",
      "1 to 2 mS",    "2 to 5 mS",    "5 to 10 mS",    "10 to 15 mS",   "15 to 20 mS",
      "20 to 30 mS",  "30 to 50 mS",  "50 to 100 mS",  "100 to 200 mS", "200 to 500 mS",
      "0.5 to 1 S",   "1 to 2 s",     "2 to 4.7 s",    "4.7 to 5 s",    "5 to 10 s",
      ">= 10 s"};
  return kNames;
}

std::array<uint64_t, kIometerBins> IometerLatencyBins(const Histogram& h) {
  std::array<uint64_t, kIometerBins> bins{};
  if (h.count() == 0) return bins;
  for (size_t b = 0; b < Histogram::kNumBuckets; ++b) {
    const uint64_t n = h.bucket_count(b);
    if (n == 0) continue;
    const double us = static_cast<double>(Histogram::BucketMid(b)) / 1000.0;
    const size_t bin = static_cast<size_t>(
        std::upper_bound(kIometerBinUpperUs.begin(), kIometerBinUpperUs.end(), us) -
        kIometerBinUpperUs.begin());
    bins[bin] += n;
  }
  return bins;
}

void IoCounts::Add(const IoCounts& o) {
  read_ios += o.read_ios;
  write_ios += o.write_ios;
  read_bytes += o.read_bytes;
  write_bytes += o.write_bytes;
  read_errors += o.read_errors;
  write_errors += o.write_errors;
  read_latency_sum_ns += o.read_latency_sum_ns;
  write_latency_sum_ns += o.write_latency_sum_ns;
  read_latency_max_ns = std::max(read_latency_max_ns, o.read_latency_max_ns);
  write_latency_max_ns = std::max(write_latency_max_ns, o.write_latency_max_ns);
  for (size_t i = 0; i < kIometerBins; ++i) latency_bins[i] += o.latency_bins[i];
}

std::vector<IoCounts> StorageTest::PerTarget() const {
  std::vector<IoCounts> out(targets.size());
  for (const auto& w : per_worker_target) {
    for (size_t t = 0; t < w.size() && t < out.size(); ++t) out[t].Add(w[t]);
  }
  return out;
}

double StorageTest::AvgResponseMs() const {
  const uint64_t n = totals.ios();
  return n > 0 ? static_cast<double>(totals.read_latency_sum_ns + totals.write_latency_sum_ns) /
                     static_cast<double>(n) / 1e6
               : 0;
}

double StorageTest::DriverCpuUsPerIo() const {
  const uint64_t n = totals.ios();
  return n > 0 ? driver_cpu_sec * 1e6 / static_cast<double>(n) : 0;
}

}  // namespace sb::metrics
