// A compact binary form of recorder snapshots (and a few plain numbers) for sending between the
// ranks of a scaled-out run (dist/group.h). Histograms travel in the form of
// metrics/histogram_buckets.h (non-empty buckets, sum, min, max, saturated count, the bucket
// scheme), so the receiver rebuilds them exactly and merges them bucket by bucket: percentiles
// are never averaged.
#ifndef STOREBENCH_DIST_WIRE_H_
#define STOREBENCH_DIST_WIRE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "metrics/recorder.h"

namespace sb::dist {

class WireWriter {
 public:
  void Int(int64_t v);
  void Double(double v);
  void Str(const std::string& s);
  void Snapshots(const std::vector<metrics::RecorderSnapshot>& snaps);
  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
};

// Reads what a WireWriter wrote, in the same order. A short or malformed message sets ok()
// to false (and reads return zeros) instead of reading past the end.
class WireReader {
 public:
  explicit WireReader(const std::string& bytes) : bytes_(bytes) {}
  int64_t Int();
  double Double();
  std::string Str();
  std::vector<metrics::RecorderSnapshot> Snapshots();
  bool ok() const { return ok_; }

 private:
  const std::string& bytes_;
  size_t pos_ = 0;
  bool ok_ = true;
};

}  // namespace sb::dist

#endif  // STOREBENCH_DIST_WIRE_H_
