// The storage submit/reap loop: runs one access specification as one test (Iometer semantics),
// with `workers` threads, each keeping `outstanding` I/Os in flight on each of its targets
// through its own engine instance, and returns the measured StorageTest. Every worker runs on
// every target (Iometer's workers × targets): a free transaction slot belongs to one target, and
// the next I/O goes to the target of the slot that became free first (slots start round-robin
// over the targets), so each target keeps its own queue depth.
//
// Submission: as Iometer and fio do by default, each I/O goes to the kernel as soon as it is
// generated (one submit call per I/O); `submit_batch` hands several to one call instead, which
// costs fewer system calls but makes the I/Os travel in waves (on a virtio disk 4 KiB random
// reads at QD 32 lost 15-25 % IOPS that way).
//
// Timing: each I/O is timed from just before the batch holding it is submitted to just after the
// reap that returned it (one clock read per submit batch and per reap). Ramp: I/Os completing
// during the ramp are not counted (Iometer excludes I/Os *started* during the ramp; the difference
// is at most one queue's worth at the boundary). At the end, workers stop issuing and drain what
// is in flight; those completions are not counted.
#ifndef STOREBENCH_DRIVER_IO_RUNNER_H_
#define STOREBENCH_DRIVER_IO_RUNNER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "driver/io_run_config.h"
#include "metrics/storage_result.h"
#include "storebench/io_engine.h"
#include "workload/storage/access_spec.h"
#include "workload/storage/test_file.h"

namespace sb::driver {

// Runs `spec` (the `spec_index`-th of the run: its random streams derive from it).
Result<metrics::StorageTest> RunStorageTest(
    const io::EngineRegistry& engines, const storage::AccessSpec& spec, int spec_index,
    const IoRunConfig& config, Clock& clock,
    const std::function<void(const std::string&)>& progress);

}  // namespace sb::driver

#endif  // STOREBENCH_DRIVER_IO_RUNNER_H_
