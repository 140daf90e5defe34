#include "dist/wire.h"

#include <cstring>

#include "metrics/histogram_buckets.h"

namespace sb::dist {

void WireWriter::Int(int64_t v) {
  char b[sizeof v];
  std::memcpy(b, &v, sizeof v);
  bytes_.append(b, sizeof v);
}

void WireWriter::Double(double v) {
  int64_t bits = 0;
  std::memcpy(&bits, &v, sizeof v);
  Int(bits);
}

void WireWriter::Str(const std::string& s) {
  Int(static_cast<int64_t>(s.size()));
  bytes_ += s;
}

void WireWriter::Snapshots(const std::vector<metrics::RecorderSnapshot>& snaps) {
  Int(static_cast<int64_t>(snaps.size()));
  for (const metrics::RecorderSnapshot& s : snaps) {
    Int(static_cast<int64_t>(s.types.size()));
    for (const metrics::Histogram& h : s.types) {
      const metrics::HistogramData d = metrics::ToBuckets(h);
      Int(d.sub_bits);
      Int(static_cast<int64_t>(d.buckets.size()));
      for (const metrics::HistogramBucket& b : d.buckets) {
        Int(b.low_ns);
        Int(static_cast<int64_t>(b.count));
      }
      Int(d.sum_ns);
      Int(d.min_ns);
      Int(d.max_ns);
      Int(static_cast<int64_t>(d.saturated));
    }
    Int(static_cast<int64_t>(s.counters.size()));
    for (int64_t c : s.counters) Int(c);
  }
}

int64_t WireReader::Int() {
  int64_t v = 0;
  if (!ok_ || pos_ + sizeof v > bytes_.size()) {
    ok_ = false;
    return 0;
  }
  std::memcpy(&v, bytes_.data() + pos_, sizeof v);
  pos_ += sizeof v;
  return v;
}

double WireReader::Double() {
  const int64_t bits = Int();
  double v = 0;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

std::string WireReader::Str() {
  const int64_t n = Int();
  if (!ok_ || n < 0 || static_cast<size_t>(n) > bytes_.size() - pos_) {
    ok_ = false;
    return {};
  }
  std::string s = bytes_.substr(pos_, static_cast<size_t>(n));
  pos_ += static_cast<size_t>(n);
  return s;
}

std::vector<metrics::RecorderSnapshot> WireReader::Snapshots() {
  std::vector<metrics::RecorderSnapshot> out;
  const int64_t n = Int();
  // Every element takes at least 8 bytes: a count larger than the rest of the message is bad.
  const auto plausible = [&](int64_t count) {
    ok_ = ok_ && count >= 0 && static_cast<size_t>(count) <= (bytes_.size() - pos_) / 8;
    return ok_;
  };
  if (!plausible(n)) {
    ok_ = false;
    return {};
  }
  for (int64_t i = 0; i < n && ok_; ++i) {
    metrics::RecorderSnapshot s;
    const int64_t types = Int();
    if (!plausible(types)) break;
    s.types.resize(static_cast<size_t>(types));
    for (metrics::Histogram& h : s.types) {
      metrics::HistogramData d;
      d.sub_bits = static_cast<int>(Int());
      const int64_t nonempty = Int();
      if (!plausible(nonempty)) break;
      for (int64_t k = 0; k < nonempty; ++k) {
        metrics::HistogramBucket b;
        b.low_ns = Int();
        b.count = static_cast<uint64_t>(Int());
        d.buckets.push_back(b);
      }
      d.sum_ns = Int();
      d.min_ns = Int();
      d.max_ns = Int();
      d.saturated = static_cast<uint64_t>(Int());
      // Checks the bucket scheme and every bound: a message from another build is refused.
      Result<metrics::Histogram> got = metrics::FromBuckets(d);
      if (!ok_ || !got.ok()) {
        ok_ = false;
        break;
      }
      h = std::move(got).value();
    }
    const int64_t counters = Int();
    if (!plausible(counters)) break;
    for (int64_t k = 0; k < counters; ++k) s.counters.push_back(Int());
    out.push_back(std::move(s));
  }
  if (!ok_) out.clear();
  return out;
}

}  // namespace sb::dist
