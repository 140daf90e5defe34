// Database URLs: scheme://[user@]host[:port]/database?key=value&... (servers) and
// sqlite:///path (files). One parser per scheme family, each with the list of parameters it
// accepts: an unknown parameter is refused (naming the allowed ones) instead of being ignored or
// passed on, and a parameter that carries a secret is refused before anything quotes the URL, so
// a secret never reaches the settings echo, a message or the result (docs/servers.md).
#include <algorithm>
#include <cctype>
#include <iterator>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/limits.h"
#include "base/strings.h"
#include "base/units.h"
#include "storebench/db.h"

namespace sb::db {
namespace {

// Parameters that carry a secret, in any scheme: libpq's password and sslpassword (the client
// key's passphrase, https://www.postgresql.org/docs/current/libpq-connect.html), and MySQL's
// password spellings.
constexpr std::string_view kSecretParams[] = {"password", "sslpassword", "passwd", "pwd"};

// libpq connection keywords a URL may set (the same page), without the secrets above and
// without those the URL's own parts set (host, port, user, dbname).
constexpr std::string_view kPostgresParams[] = {
    "application_name", "channel_binding", "client_encoding",
    "connect_timeout",  "gssencmode",      "keepalives",
    "keepalives_count", "keepalives_idle", "keepalives_interval",
    "krbsrvname",       "options",         "passfile",
    "require_auth",     "requirepeer",     "service",
    "sslcert",          "sslcompression",  "sslcrl",
    "sslcrldir",        "sslkey",          "sslmode",
    "sslrootcert",      "sslsni",          "target_session_attrs",
    "tcp_user_timeout"};

// What the MySQL back end applies (mysql_backend.cc).
// null:// takes two, both for harness tests: a fixed time every statement takes (what happens to
// work in flight at the end of a run, docs/scale-out.md), and server=1, which makes it count as a
// back end with a server, whose units the driver watches for stalls
// (docs/measurement.md#stalled-workers).
constexpr std::string_view kNullParams[] = {"latency_us", "server"};
constexpr int64_t kMaxNullLatencyMicros = 10'000'000;
constexpr std::string_view kMysqlParams[] = {"connect_timeout", "read_timeout", "write_timeout",
                                             "ssl"};

std::string Join(const std::string_view* begin, const std::string_view* end) {
  std::string out;
  for (const std::string_view* p = begin; p != end; ++p) {
    if (!out.empty()) out += ", ";
    out += *p;
  }
  return out;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// RFC 3986 percent-decoding of one URL part ("my%20db" -> "my db"). A '%' not followed by two
// hex digits is an error naming `what`.
Result<std::string> Decode(std::string_view s, std::string_view what) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
      continue;
    }
    const int hi = i + 2 < s.size() ? HexValue(s[i + 1]) : -1;
    const int lo = i + 2 < s.size() ? HexValue(s[i + 2]) : -1;
    if (hi < 0 || lo < 0) {
      return Status::InvalidArgument("the " + std::string(what) +
                                     " of the database URL has a '%' that is not followed by two "
                                     "hex digits (write %25 for a '%')");
    }
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return out;
}

std::string PasswordSentence(std::string_view scheme) {
  if (scheme == "postgresql") return "use PGPASSWORD or ~/.pgpass";
  if (scheme == "mysql") return "use MYSQL_PWD or the [client] group of an option file (~/.my.cnf)";
  return "put it in the environment or the client's own password file";
}

// The query string split into decoded key/value pairs. A secret is refused here, by name only.
Result<std::map<std::string, std::string>> ParseQuery(std::string_view query,
                                                      std::string_view scheme) {
  std::map<std::string, std::string> params;
  while (!query.empty()) {
    const size_t amp = query.find('&');
    const std::string_view kv = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (kv.empty()) continue;
    const size_t eq = kv.find('=');
    auto key = Decode(kv.substr(0, eq), "parameter name");
    if (!key.ok()) return key.status();
    for (std::string_view secret : kSecretParams) {
      if (*key == secret) {
        return Status::InvalidArgument(
            "the database URL carries a secret in its '" + *key +
            "' parameter; secrets never go on the command line: " + PasswordSentence(scheme));
      }
    }
    auto value = Decode(eq == std::string_view::npos ? "" : kv.substr(eq + 1),
                        "value of parameter '" + *key + "'");
    if (!value.ok()) return value.status();
    if (params.count(*key) != 0) {
      return Status::InvalidArgument("the database URL sets parameter '" + *key + "' twice");
    }
    params[*key] = std::move(value).value();
  }
  return params;
}

// Refuses parameters outside `allowed` (an empty list: the scheme takes none).
Status CheckAllowed(const DbUrl& url, const std::string_view* begin, const std::string_view* end) {
  for (const auto& [key, value] : url.params) {
    if (std::find(begin, end, key) != end) continue;
    const std::string allowed = begin == end ? "it takes none" : "allowed: " + Join(begin, end);
    return Status::InvalidArgument("database URL parameter '" + key + "' is not supported for " +
                                   url.scheme + ":// URLs (" + allowed + ")");
  }
  return Status::Ok();
}

Status CheckWholeNumber(const DbUrl& url, std::string_view key, int64_t max) {
  auto it = url.params.find(std::string(key));
  if (it == url.params.end()) return Status::Ok();
  auto n = ParseInt(it->second, key);
  if (!n.ok() || *n > max) {
    return Status::InvalidArgument("database URL parameter " + std::string(key) + "='" +
                                   it->second + "' is not a whole number of seconds up to " +
                                   std::to_string(max));
  }
  return Status::Ok();
}

// sqlite:///abs/path or sqlite://./relative/path: the rest is the file path.
Status ParseFileUrl(std::string_view rest, std::string_view whole, DbUrl* out) {
  auto path = Decode(rest, "file path");
  if (!path.ok()) return path.status();
  out->database = std::move(path).value();
  if (out->database.empty()) {
    return Status::InvalidArgument("database URL '" + std::string(whole) + "' names no file");
  }
  // "sqlite://tmp/x.db" is almost always meant as /tmp/x.db (two slashes where three were
  // meant); a relative path must say so, as ./ or ../.
  const std::string& p = out->database;
  if (p[0] != '/' && p.rfind("./", 0) != 0 && p.rfind("../", 0) != 0) {
    const std::string shown = QuotablePrefix(p, limits::kMaxQuotedChars);
    return Status::InvalidArgument("database URL 'sqlite://" + shown +
                                   "' has two slashes: write sqlite:///" + shown +
                                   " (three) for the absolute path /" + shown + ", or sqlite://./" +
                                   shown + " for a path relative to the current directory");
  }
  // SQLite's own URI parameters (mode=ro, cache=shared, ...) are not applied by this back end:
  // refusing them says so instead of silently writing to a file asked to be read-only.
  static constexpr std::string_view* kNone = nullptr;
  return CheckAllowed(*out, kNone, kNone);
}

// [user@]host[:port][/database] for the server schemes.
Status ParseServerUrl(std::string_view rest, std::string_view whole, DbUrl* out) {
  const size_t slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  if (slash != std::string_view::npos) {
    auto db = Decode(rest.substr(slash + 1), "database name");
    if (!db.ok()) return db.status();
    out->database = std::move(db).value();
  }
  const size_t at = authority.rfind('@');
  if (at != std::string_view::npos) {
    const std::string_view userinfo = authority.substr(0, at);
    if (userinfo.find(':') != std::string_view::npos) {
      return Status::InvalidArgument(
          "the database URL contains a password; secrets never go on the command line: " +
          PasswordSentence(out->scheme));
    }
    auto user = Decode(userinfo, "user name");
    if (!user.ok()) return user.status();
    out->user = std::move(user).value();
    authority = authority.substr(at + 1);
  }
  const size_t pc = authority.rfind(':');
  if (pc != std::string_view::npos && authority.find(']') == std::string_view::npos) {
    auto port = ParseInt(authority.substr(pc + 1), "port");
    if (!port.ok() || *port <= 0 || *port > 65535) {
      return Status::InvalidArgument("database URL '" + std::string(whole) +
                                     "' has a bad port (1 to 65535)");
    }
    out->port = static_cast<int>(*port);
    authority = authority.substr(0, pc);
  }
  auto host = Decode(authority, "host");
  if (!host.ok()) return host.status();
  out->host = std::move(host).value();
  if (out->scheme == "postgresql") {
    // libpq uses the user name when no database is given (its documented default).
    return CheckAllowed(*out, std::begin(kPostgresParams), std::end(kPostgresParams));
  }
  if (out->scheme == "mysql") {
    SB_RETURN_IF_ERROR(CheckAllowed(*out, std::begin(kMysqlParams), std::end(kMysqlParams)));
    if (out->database.empty()) {
      return Status::InvalidArgument("database URL '" + std::string(whole) +
                                     "' names no database: the database name is missing (add "
                                     "/NAME, e.g. mysql://storebench@127.0.0.1:3306/ds3)");
    }
    for (std::string_view key : {"connect_timeout", "read_timeout", "write_timeout"}) {
      SB_RETURN_IF_ERROR(CheckWholeNumber(*out, key, 86400));
    }
    if (auto it = out->params.find("ssl"); it != out->params.end()) {
      if (it->second != "0" && it->second != "1") {
        return Status::InvalidArgument("database URL parameter ssl='" + it->second +
                                       "' is not 0 or 1");
      }
    }
  }
  return Status::Ok();
}

}  // namespace

Result<DbUrl> ParseDbUrl(std::string_view url) {
  DbUrl out;
  const size_t colon = url.find("://");
  if (colon == std::string_view::npos || colon == 0) {
    // Quoted only up to a '?', '@' or ':', where a secret could start.
    const std::string_view shown =
        url.substr(0, std::min({url.find('?'), url.find('@'), url.find(':')}));
    return Status::InvalidArgument("database URL '" + std::string(shown) +
                                   "' is not of the form scheme://... (e.g. sqlite:///tmp/ds.db)");
  }
  out.scheme = std::string(url.substr(0, colon));
  // RFC 3986 3.1: a letter, then letters, digits, '+', '-', '.'. Anything else (e.g.
  // "user:secret@host://db") is not quoted: a secret could be in it.
  const bool valid_scheme =
      std::isalpha(static_cast<unsigned char>(out.scheme[0])) != 0 &&
      std::all_of(out.scheme.begin(), out.scheme.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '+' || c == '-' || c == '.';
      });
  if (!valid_scheme) {
    return Status::InvalidArgument(
        "the database URL does not start with a scheme (a letter, then letters, digits, '+', "
        "'-' or '.') before '://' (e.g. sqlite:///tmp/ds.db); it is not shown, as it may hold "
        "a secret");
  }
  if (out.scheme == "postgres") out.scheme = "postgresql";
  if (out.scheme == "mariadb") out.scheme = "mysql";
  std::string_view rest = url.substr(colon + 3);
  const size_t q = rest.find('?');
  if (q != std::string_view::npos) {
    auto params = ParseQuery(rest.substr(q + 1), out.scheme);
    if (!params.ok()) return params.status();
    out.params = std::move(params).value();
    rest = rest.substr(0, q);
  }
  if (out.scheme == "sqlite") {
    SB_RETURN_IF_ERROR(ParseFileUrl(rest, url, &out));
  } else if (out.scheme == "postgresql" || out.scheme == "mysql") {
    SB_RETURN_IF_ERROR(ParseServerUrl(rest, url, &out));
  } else if (out.scheme == "null") {
    SB_RETURN_IF_ERROR(CheckAllowed(out, std::begin(kNullParams), std::end(kNullParams)));
    if (auto it = out.params.find("latency_us"); it != out.params.end()) {
      auto n = ParseInt(it->second, "latency_us");
      if (!n.ok() || *n < 0 || *n > kMaxNullLatencyMicros) {
        return Status::InvalidArgument("database URL parameter latency_us='" + it->second +
                                       "' is not a whole number of microseconds up to " +
                                       std::to_string(kMaxNullLatencyMicros));
      }
    }
    if (auto it = out.params.find("server");
        it != out.params.end() && it->second != "0" && it->second != "1") {
      return Status::InvalidArgument("database URL parameter server='" + it->second +
                                     "' is not 0 or 1");
    }
  }
  // Other schemes: the registry names the supported ones.
  out.redacted = std::string(url);  // no secret passes the checks above
  return out;
}

}  // namespace sb::db
