#include "workload/storage/access_generator.h"

namespace sb::storage {
namespace {

uint64_t AlignUp(uint64_t v, uint64_t a) {
  const uint64_t r = v % a;
  return r == 0 ? v : v + (a - r);
}

}  // namespace

AccessGenerator::AccessGenerator(const AccessSpec& spec, uint64_t worker_seed,
                                 const std::vector<GeneratorTarget>& targets)
    : spec_(spec), worker_rng_(worker_seed) {
  for (const GeneratorTarget& t : targets) {
    targets_.push_back(Target{t.start, t.start + t.bytes, t.bytes, IometerRandom(t.seed), t.start});
  }
  // Iometer's access grid: entry p names the line that governs a burst when Rand(100) == p.
  int p = 0;
  for (size_t i = 0; i < spec.lines.size(); ++i) {
    for (int k = 0; k < spec.lines[i].pct_of_size && p < 100; ++k) {
      grid_[p++] = static_cast<uint8_t>(i);
    }
  }
  while (p < 100) grid_[p++] = static_cast<uint8_t>(spec.lines.size() - 1);
}

IoDecision AccessGenerator::Next(int target) {
  IoDecision d;
  if (--remaining_in_burst_ <= 0) {
    line_ = grid_[worker_rng_.Rand(100)];
    remaining_in_burst_ = spec_.lines[line_].burst;
    d.delay_ms = spec_.lines[line_].delay_ms;
  }
  const AccessLine& l = spec_.lines[line_];
  Target& t = targets_[static_cast<size_t>(target)];
  d.line = line_;
  d.size = l.size;
  d.read = t.rng.Rand(100) < static_cast<uint64_t>(l.pct_read);
  d.random = t.rng.Rand(100) < static_cast<uint64_t>(l.pct_random);
  if (d.random) {
    t.offset = t.start + t.rng.Rand(t.range);
  } else {
    t.offset += t.last_size;
  }
  const uint64_t align = l.align != 0 ? l.align : kSectorBytes;
  t.offset = AlignUp(t.offset, align);
  if (t.offset + l.size > t.end) t.offset = AlignUp(t.start, align);
  t.last_size = l.size;
  d.offset = t.offset;
  return d;
}

}  // namespace sb::storage
