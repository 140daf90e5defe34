// rapl: the CPU's RAPL energy counters through Linux powercap sysfs
// (Documentation/ABI/testing/sysfs-class-powercap; docs/power.md):
//
//   rapl:                         every package zone and its DRAM subzone
//   rapl:?zones=package           package zones only (zones=dram: DRAM only)
//   rapl:?root=/tmp/powercap      another tree (tests; a copy of a machine's tree)
//
// Each zone's energy_uj is a µJ counter that wraps at max_energy_range_uj; the watts of an
// interval are the summed energy since the previous read divided by the time between the reads,
// a wrap counted once (Δ = max − e1 + e2 when e2 < e1). At a few hundred watts a 32-bit counter
// wraps in minutes, so reading once a second never misses a wrap. RAPL measures the CPU packages
// and memory, not wall power; most virtual machines have no RAPL tree.
#ifndef STOREBENCH_POWER_RAPL_SOURCE_H_
#define STOREBENCH_POWER_RAPL_SOURCE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/clock.h"
#include "power/power_spec.h"
#include "storebench/power_source.h"

namespace sb::power {

// The default tree.
inline constexpr const char* kPowercapRoot = "/sys/class/powercap";

// The energy between two readings of a counter that wraps at `max_range_uj`.
uint64_t EnergyDeltaUj(uint64_t before_uj, uint64_t after_uj, uint64_t max_range_uj);

// The one-sentence error for a zone file that cannot be read (`err` is errno): a permission error
// says why (root-only since Linux 5.10, CVE-2020-8694) and how to fix it.
std::string RaplReadError(const std::string& path, int err);

std::unique_ptr<PowerSource> MakeRaplSource(const PowerSpec& spec, Clock& clock);

}  // namespace sb::power

#endif  // STOREBENCH_POWER_RAPL_SOURCE_H_
