// ipmi: — the system's power through the BMC's DCMI "Get Power Reading" command (DCMI 1.5
// §6.6.1; what `ipmi-dcmi --get-system-power-statistics` prints), through FreeIPMI's library:
//
//   ipmi:                                        the local BMC (/dev/ipmi0 and the like)
//   ipmi://admin@bmc1?password_file=/root/bmc.pw  over the LAN (IPMI 2.0, cipher suite 3)
//   ipmi://admin@bmc1?password_env=BMC_PASSWORD
//
// The reading is the BMC's "current power"; BMCs update it at most once a second and whether it
// is instantaneous or averaged is the vendor's choice, so results call it BMC-reported. The
// response's time stamp (BMC seconds) gives the BMC's clock offset.
#ifndef STOREBENCH_POWER_IPMI_SOURCE_H_
#define STOREBENCH_POWER_IPMI_SOURCE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "power/power_spec.h"
#include "storebench/power_source.h"

namespace sb::power {

// The fields of a DCMI Get Power Reading response.
struct DcmiPowerReading {
  uint16_t current_w = 0, minimum_w = 0, maximum_w = 0, average_w = 0;
  uint32_t time_stamp = 0;          // BMC time, Unix seconds
  uint32_t period_ms = 0;           // statistics reporting time period
  bool measurement_active = false;  // power reading state: measurement active
};

// Parses a response as it comes off the wire (command byte, completion code, group extension
// 0xDC, then the fields little-endian), with FreeIPMI's template for it. A non-zero completion
// code, a wrong group extension, a short response or an inactive measurement are errors naming
// what was wrong.
Result<DcmiPowerReading> ParseDcmiPowerReading(const uint8_t* data, size_t size);

std::unique_ptr<PowerSource> MakeIpmiSource(const PowerSpec& spec);

}  // namespace sb::power

#endif  // STOREBENCH_POWER_IPMI_SOURCE_H_
