// redfish://[user@]host[:port][/path] — the chassis power a BMC reports over Redfish (DMTF
// DSP0268), polled over HTTPS once a second:
//
//   redfish://admin@bmc1?password_env=BMC_PW                 finds the first chassis
//   redfish://admin@bmc1/redfish/v1/Chassis/1/Power?password_file=/root/bmc.pw
//
// The path may name a chassis collection (its first member is used), a chassis (its
// EnvironmentMetrics, else PowerSubsystem, else the legacy Power resource), a PowerSubsystem (the
// sum of its power supplies' InputPowerWatts), or a document holding a reading itself: the legacy
// Power resource's PowerControl[].PowerConsumedWatts (the first entry, or member=N), or a
// PowerWatts / InputPowerWatts sensor excerpt (EnvironmentMetrics, PowerSupplyMetrics). The
// resolution happens once, at Open; each read then fetches the resolved documents.
//
// Options: password_file= / password_env= (with a user), insecure=1 (accept a BMC's self-signed
// certificate), ca=FILE (trust this CA), scheme=http (plain HTTP, e.g. a local simulator),
// timeout_ms= (default 2000: BMCs often take a second to answer). The response's Date header
// gives the BMC's clock offset (1 s resolution).
#ifndef STOREBENCH_POWER_REDFISH_SOURCE_H_
#define STOREBENCH_POWER_REDFISH_SOURCE_H_

#include <memory>
#include <string>

#include "power/power_spec.h"
#include "storebench/power_source.h"

namespace sb::power {

// The reading a Redfish document holds itself (see above): PowerControl[member] .
// PowerConsumedWatts, PowerWatts.Reading or InputPowerWatts.Reading. NotFound when the document
// holds none (it may link to one), InvalidArgument when it is not JSON.
Result<double> RedfishDocumentWatts(const std::string& json_text, int member);

std::unique_ptr<PowerSource> MakeRedfishSource(const PowerSpec& spec);

}  // namespace sb::power

#endif  // STOREBENCH_POWER_REDFISH_SOURCE_H_
