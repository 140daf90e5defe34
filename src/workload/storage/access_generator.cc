#include "workload/storage/access_generator.h"

namespace sb::storage {
namespace {

uint64_t AlignUp(uint64_t v, uint64_t a) {
  const uint64_t r = v % a;
  return r == 0 ? v : v + (a - r);
}

}  // namespace

AccessGenerator::AccessGenerator(const AccessSpec& spec, uint64_t range_start,
                                 uint64_t range_bytes, uint64_t worker_seed, uint64_t target_seed)
    : spec_(spec),
      start_(range_start),
      end_(range_start + range_bytes),
      range_(range_bytes),
      worker_rng_(worker_seed),
      target_rng_(target_seed),
      offset_(range_start) {
  // Iometer's access grid: entry p names the line that governs a burst when Rand(100) == p.
  int p = 0;
  for (size_t i = 0; i < spec.lines.size(); ++i) {
    for (int k = 0; k < spec.lines[i].pct_of_size && p < 100; ++k) {
      grid_[p++] = static_cast<uint8_t>(i);
    }
  }
  while (p < 100) grid_[p++] = static_cast<uint8_t>(spec.lines.size() - 1);
}

IoDecision AccessGenerator::Next() {
  IoDecision d;
  if (--remaining_in_burst_ <= 0) {
    line_ = grid_[worker_rng_.Rand(100)];
    remaining_in_burst_ = spec_.lines[line_].burst;
    d.delay_ms = spec_.lines[line_].delay_ms;
  }
  const AccessLine& l = spec_.lines[line_];
  d.line = line_;
  d.size = l.size;
  d.read = target_rng_.Rand(100) < static_cast<uint64_t>(l.pct_read);
  d.random = target_rng_.Rand(100) < static_cast<uint64_t>(l.pct_random);
  if (d.random) {
    offset_ = start_ + target_rng_.Rand(range_);
  } else {
    offset_ += last_size_;
  }
  const uint64_t align = l.align != 0 ? l.align : kSectorBytes;
  offset_ = AlignUp(offset_, align);
  if (offset_ + l.size > end_) offset_ = AlignUp(start_, align);
  last_size_ = l.size;
  d.offset = offset_;
  return d;
}

}  // namespace sb::storage
