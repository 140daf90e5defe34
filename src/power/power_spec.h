// The URL-like spec that names a power source on the command line:
//
//   scheme:body                    cmd:"ipmitool ... | awk ..."   (body taken as is)
//   scheme:body?key=value&...      csv:/logs/wt310.csv?time=Date&watts=P&offset=-1.5
//   scheme://[user@]host[:port][/path][?key=value&...]
//                                  ptd://meter1:8888   ipmi://admin@bmc1?password_file=/root/pw
//
// A password in the spec itself (user:password@host) is refused: it would show in the process
// list and the shell history. Passwords come from a file (password_file=PATH) or an environment
// variable (password_env=NAME).
#ifndef STOREBENCH_POWER_POWER_SPEC_H_
#define STOREBENCH_POWER_POWER_SPEC_H_

#include <map>
#include <string>

#include "storebench/status.h"

namespace sb::power {

struct PowerSpec {
  std::string text;    // as given (never shown when it held a secret: ParsePowerSpec refuses those)
  std::string scheme;  // "ptd", "rapl", ...
  std::string body;    // after "scheme:" without the options (scheme:// forms: empty)
  bool has_authority = false;  // scheme://...
  std::string user, host, path;
  int port = 0;  // 0: the scheme's default
  std::map<std::string, std::string> options;

  // The option's value or `def`.
  std::string Option(const std::string& key, const std::string& def = "") const;
};

// Parses `text`. InvalidArgument with one sentence for a missing scheme, a password in the spec,
// a bad port or option.
Result<PowerSpec> ParsePowerSpec(const std::string& text);

// The password for `spec` (which names source `what` in messages) from password_file= or
// password_env=; InvalidArgument when neither is given, FailedPrecondition when the file cannot
// be read or the variable is unset. The password itself never appears in a message.
Result<std::string> ReadPassword(const PowerSpec& spec, const std::string& what);

}  // namespace sb::power

#endif  // STOREBENCH_POWER_POWER_SPEC_H_
