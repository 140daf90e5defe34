#include "metrics/headline.h"

namespace sb::metrics {

double HeadlineSpec::Count(const RecorderSnapshot& s) const {
  double n = 0;
  for (const auto& [type, weight] : types) {
    if (type >= 0 && static_cast<size_t>(type) < s.types.size()) {
      n += weight * static_cast<double>(s.types[type].count());
    }
  }
  for (const auto& [counter, weight] : counters) {
    if (counter >= 0 && static_cast<size_t>(counter) < s.counters.size()) {
      n += weight * static_cast<double>(s.counters[counter]);
    }
  }
  return n;
}

double HeadlineSpec::Count(const IntervalPoint& p) const {
  double n = 0;
  for (const auto& [type, weight] : types) {
    if (type >= 0 && static_cast<size_t>(type) < p.type_counts.size()) {
      n += weight * static_cast<double>(p.type_counts[type]);
    }
  }
  for (const auto& [counter, weight] : counters) {
    if (counter >= 0 && static_cast<size_t>(counter) < p.counters.size()) {
      n += weight * static_cast<double>(p.counters[counter]);
    }
  }
  return n;
}

HeadlineSpec UnitsPerMinute(const std::string& name, const std::string& words) {
  HeadlineSpec h;
  h.name = name;
  h.words = words;
  h.per_second = 60;
  h.types = {{0, 1.0}};
  return h;
}

HeadlineSpec UnitsPerSecond(const std::string& name, const std::string& words) {
  HeadlineSpec h = UnitsPerMinute(name, words);
  h.per_second = 1;
  return h;
}

std::vector<HeadlineSpec> StorageHeadlines() {
  HeadlineSpec iops = UnitsPerSecond("iops", "I/Os per second");
  HeadlineSpec reads = UnitsPerSecond("read_iops", "reads per second");
  reads.types = {{1, 1.0}};
  HeadlineSpec writes = UnitsPerSecond("write_iops", "writes per second");
  writes.types = {{2, 1.0}};
  HeadlineSpec mib;
  mib.name = "mib_per_sec";
  mib.words = "MiB per second";
  mib.counters = {{0, 1.0 / 1048576}, {1, 1.0 / 1048576}};
  return {iops, reads, writes, mib};
}

const HeadlineSpec* FindHeadline(const std::vector<HeadlineSpec>& specs, const std::string& name) {
  for (const HeadlineSpec& h : specs) {
    if (h.name == name) return &h;
  }
  return nullptr;
}

}  // namespace sb::metrics
