// A sentence for a failed HTTP request of a power source (Redfish), instead of cpp-httplib's
// bare error names ("Read", "Connection").
#ifndef STOREBENCH_POWER_HTTP_ERROR_H_
#define STOREBENCH_POWER_HTTP_ERROR_H_

#include <string>

namespace httplib {
enum class Error;
}  // namespace httplib

namespace sb::power {

// What went wrong with a request to `base_url` (scheme://host:port, the port always shown)
// that ended with `error`, `timeout_sec` being the connection and read timeouts.
std::string HttpErrorSentence(httplib::Error error, const std::string& base_url,
                              double timeout_sec);

}  // namespace sb::power

#endif  // STOREBENCH_POWER_HTTP_ERROR_H_
