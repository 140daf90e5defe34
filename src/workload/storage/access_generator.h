// The per-I/O decisions of one worker on its targets, as Iometer 1.1.0 makes them
// (IOGrunt.cpp Do_IOs, IOTargetDisk.cpp Seek; docs/storage.md):
//  - at the start of each burst the worker's generator draws Rand(100) and picks the line from a
//    100-entry grid built from "% of size"; the line's delay precedes the burst;
//  - per I/O the target's generator draws Rand(100) < %read (read or write), then
//    Rand(100) < %random (random or sequential), then for a random I/O the offset
//    start + Rand(range);
//  - a sequential I/O starts where the previously *issued* I/O on the same target ended, read or
//    write alike (one cursor per worker and target, shared by reads and writes);
//  - the offset is rounded up to the alignment (the sector when align = 0) and wraps to the
//    start of the range when the transfer would pass its end.
// The generator is pure: no clock, no I/O; the driver asks it what to do next.
#ifndef STOREBENCH_WORKLOAD_STORAGE_ACCESS_GENERATOR_H_
#define STOREBENCH_WORKLOAD_STORAGE_ACCESS_GENERATOR_H_

#include <array>
#include <cstdint>
#include <vector>

#include "workload/storage/access_spec.h"
#include "workload/storage/iometer_random.h"

namespace sb::storage {

struct IoDecision {
  bool read = true;
  bool random = true;
  uint64_t offset = 0;  // absolute file offset in bytes
  uint32_t size = 0;
  int line = 0;      // index of the spec line
  int delay_ms = 0;  // wait this long before issuing (first I/O of a delayed burst)
};

// One target of a worker: its I/O range [start, start + bytes) and the seed of its generator.
struct GeneratorTarget {
  uint64_t start = 0;
  uint64_t bytes = 0;
  uint64_t seed = 0;
};

class AccessGenerator {
 public:
  // REQUIRES: the spec is valid, at least one target, and every range ≥ the spec's largest
  // transfer plus its largest alignment.
  AccessGenerator(const AccessSpec& spec, uint64_t worker_seed,
                  const std::vector<GeneratorTarget>& targets);
  // One target.
  AccessGenerator(const AccessSpec& spec, uint64_t range_start, uint64_t range_bytes,
                  uint64_t worker_seed, uint64_t target_seed)
      : AccessGenerator(spec, worker_seed, {{range_start, range_bytes, target_seed}}) {}

  // The next I/O of the worker, which goes to `target` (Iometer: the target of the transaction
  // slot that became free). Bursts and lines are the worker's, across its targets.
  IoDecision Next(int target = 0);

 private:
  struct Target {
    uint64_t start, end, range;
    IometerRandom rng;
    uint64_t offset;         // the target's sequential cursor
    uint32_t last_size = 0;  // bytes of its previously issued I/O (Iometer's bytes_transferred)
  };
  const AccessSpec& spec_;
  IometerRandom worker_rng_;
  std::vector<Target> targets_;
  std::array<uint8_t, 100> grid_{};
  int line_ = 0;
  int remaining_in_burst_ = 0;
};

}  // namespace sb::storage

#endif  // STOREBENCH_WORKLOAD_STORAGE_ACCESS_GENERATOR_H_
