#include "power/power_spec.h"

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "base/input_file.h"
#include "base/limits.h"
#include "base/strings.h"

namespace sb::power {

std::string PowerSpec::Option(const std::string& key, const std::string& def) const {
  auto it = options.find(key);
  return it == options.end() ? def : it->second;
}

namespace {

Status ParseOptions(const std::string& text, const std::string& query, PowerSpec* s) {
  size_t pos = 0;
  while (pos <= query.size()) {
    size_t amp = query.find('&', pos);
    if (amp == std::string::npos) amp = query.size();
    const std::string kv = query.substr(pos, amp - pos);
    pos = amp + 1;
    if (kv.empty()) continue;
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) {
      return Status::InvalidArgument("power source '" + s->scheme + ":...': option '" + kv +
                                     "' is not key=value");
    }
    const std::string key = kv.substr(0, eq);
    if (key == "password") {
      return Status::InvalidArgument("power source '" + s->scheme +
                                     ":...' gives a password in the spec; use password_file= or "
                                     "password_env= so it never shows on the command line");
    }
    s->options[key] = kv.substr(eq + 1);
  }
  return Status::Ok();
}

}  // namespace

Result<PowerSpec> ParsePowerSpec(const std::string& text) {
  PowerSpec s;
  s.text = text;
  const size_t colon = text.find(':');
  if (colon == std::string::npos || colon == 0) {
    return Status::InvalidArgument("power source '" + text +
                                   "' has no scheme; use ptd://host:port, rapl:, ipmi:, "
                                   "redfish://host/..., csv:FILE or cmd:COMMAND");
  }
  s.scheme = text.substr(0, colon);
  for (char& c : s.scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string rest = text.substr(colon + 1);
  if (s.scheme != "cmd" && rest.rfind("//", 0) == 0) {
    // Refused before anything else, so no later message can quote the password.
    const std::string authority = rest.substr(2, rest.find_first_of("/?", 2) - 2);
    const size_t at = authority.rfind('@');
    if (at != std::string::npos && authority.substr(0, at).find(':') != std::string::npos) {
      return Status::InvalidArgument("power source '" + s.scheme +
                                     "://...' gives a password in the spec; use password_file= "
                                     "or password_env= so it never shows on the command line");
    }
  }
  if (s.scheme == "cmd") {
    // The command is taken whole: it may hold '?' and '&'. Quotes the shell left are removed.
    if (rest.size() >= 2 && rest.front() == '"' && rest.back() == '"') {
      rest = rest.substr(1, rest.size() - 2);
    }
    s.body = rest;
    return s;
  }
  const size_t q = rest.find('?');
  if (q != std::string::npos) {
    SB_RETURN_IF_ERROR(ParseOptions(text, rest.substr(q + 1), &s));
    rest = rest.substr(0, q);
  }
  if (rest.rfind("//", 0) != 0) {
    s.body = rest;
    return s;
  }
  s.has_authority = true;
  rest = rest.substr(2);
  const size_t slash = rest.find('/');
  std::string authority = rest.substr(0, slash);
  if (slash != std::string::npos) s.path = rest.substr(slash);
  const size_t at = authority.rfind('@');
  if (at != std::string::npos) {
    s.user = authority.substr(0, at);
    authority = authority.substr(at + 1);
  }
  // [v6]:port, host:port or host.
  std::string port_text;
  if (!authority.empty() && authority.front() == '[') {
    const size_t close = authority.find(']');
    if (close == std::string::npos) {
      return Status::InvalidArgument("power source '" + text + "' has an unclosed '['");
    }
    s.host = authority.substr(1, close - 1);
    if (close + 1 < authority.size() && authority[close + 1] == ':') {
      port_text = authority.substr(close + 2);
    }
  } else {
    const size_t pc = authority.rfind(':');
    s.host = authority.substr(0, pc);
    if (pc != std::string::npos) port_text = authority.substr(pc + 1);
  }
  if (s.host.empty()) {
    return Status::InvalidArgument("power source '" + text + "' names no host");
  }
  if (!port_text.empty()) {
    char* end = nullptr;
    const int64_t p = std::strtoll(port_text.c_str(), &end, 10);
    if (*end != '\0' || p <= 0 || p > 65535) {
      return Status::InvalidArgument("power source '" + text + "' has a bad port '" + port_text +
                                     "' (1-65535)");
    }
    s.port = static_cast<int>(p);
  }
  return s;
}

Result<std::string> ReadPassword(const PowerSpec& spec, const std::string& what) {
  const std::string file = spec.Option("password_file");
  const std::string env = spec.Option("password_env");
  if (!file.empty()) {
    // Its first line; /dev/zero, a FIFO or a large file is refused (base/input_file.h).
    auto text = ReadInputFile(file, what + ": password_file", limits::kMaxPasswordFileBytes);
    if (!text.ok()) {
      return Status(text.status().code() == StatusCode::kNotFound ? StatusCode::kFailedPrecondition
                                                                  : text.status().code(),
                    text.status().message());
    }
    std::string pw = text->substr(0, text->find('\n'));
    while (!pw.empty() && (pw.back() == '\r' || pw.back() == '\n')) pw.pop_back();
    return pw;
  }
  if (!env.empty()) {
    const char* v = std::getenv(env.c_str());
    if (v == nullptr) {
      return Status::FailedPrecondition(what + ": the environment variable " + env +
                                        " (password_env) is not set");
    }
    return std::string(v);
  }
  return Status::InvalidArgument(what + " names user '" + spec.user +
                                 "' but no password source; add ?password_file=PATH or "
                                 "?password_env=NAME");
}

}  // namespace sb::power
