// The per-I/O decisions of one worker on one target, as Iometer 1.1.0 makes them
// (IOGrunt.cpp Do_IOs, IOTargetDisk.cpp Seek; shared/spec/storage.md §1.3):
//  - at the start of each burst the worker's generator draws Rand(100) and picks the line from a
//    100-entry grid built from "% of size"; the line's delay precedes the burst;
//  - per I/O the target's generator draws Rand(100) < %read (read or write), then
//    Rand(100) < %random (random or sequential), then for a random I/O the offset
//    start + Rand(range);
//  - a sequential I/O starts where the previously *issued* I/O ended, read or write alike (one
//    cursor shared by reads and writes);
//  - the offset is rounded up to the alignment (the sector when align = 0) and wraps to the
//    start of the range when the transfer would pass its end.
// The generator is pure: no clock, no I/O; the driver asks it what to do next.
#ifndef STOREBENCH_WORKLOAD_STORAGE_ACCESS_GENERATOR_H_
#define STOREBENCH_WORKLOAD_STORAGE_ACCESS_GENERATOR_H_

#include <array>
#include <cstdint>

#include "workload/storage/access_spec.h"
#include "workload/storage/iometer_random.h"

namespace sb::storage {

struct IoDecision {
  bool read = true;
  bool random = true;
  uint64_t offset = 0;   // absolute file offset in bytes
  uint32_t size = 0;
  int line = 0;          // index of the spec line
  int delay_ms = 0;      // wait this long before issuing (first I/O of a delayed burst)
};

class AccessGenerator {
 public:
  // The I/O range is [range_start, range_start + range_bytes) of the file. REQUIRES: the spec
  // is valid and range_bytes ≥ its largest transfer plus its largest alignment.
  AccessGenerator(const AccessSpec& spec, uint64_t range_start, uint64_t range_bytes,
                  uint64_t worker_seed, uint64_t target_seed);

  IoDecision Next();

 private:
  const AccessSpec& spec_;
  uint64_t start_;
  uint64_t end_;
  uint64_t range_;
  IometerRandom worker_rng_;
  IometerRandom target_rng_;
  std::array<uint8_t, 100> grid_{};
  int line_ = 0;
  int remaining_in_burst_ = 0;
  uint64_t offset_;
  uint32_t last_size_ = 0;  // bytes of the previously issued I/O (Iometer's bytes_transferred)
};

}  // namespace sb::storage

#endif  // STOREBENCH_WORKLOAD_STORAGE_ACCESS_GENERATOR_H_
