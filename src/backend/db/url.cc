#include <cstdlib>

#include "backend/db/db.h"
#include "base/units.h"

namespace sb::db {

Result<DbUrl> ParseDbUrl(std::string_view url) {
  DbUrl out;
  const size_t colon = url.find("://");
  if (colon == std::string_view::npos || colon == 0) {
    return Status::InvalidArgument("database URL '" + std::string(url) +
                                   "' is not of the form scheme://... (e.g. sqlite:///tmp/ds.db)");
  }
  out.scheme = std::string(url.substr(0, colon));
  if (out.scheme == "postgres") out.scheme = "postgresql";
  if (out.scheme == "mariadb") out.scheme = "mysql";
  std::string_view rest = url.substr(colon + 3);
  const size_t q = rest.find('?');
  if (q != std::string_view::npos) {
    std::string_view query = rest.substr(q + 1);
    rest = rest.substr(0, q);
    while (!query.empty()) {
      const size_t amp = query.find('&');
      std::string_view kv = query.substr(0, amp);
      const size_t eq = kv.find('=');
      const std::string key(kv.substr(0, eq));
      if (key == "password") {
        return Status::InvalidArgument(
            "the database URL contains a password; put it in the environment or the client's "
            "own password file instead");
      }
      out.params[key] = eq == std::string_view::npos ? "" : std::string(kv.substr(eq + 1));
      if (amp == std::string_view::npos) break;
      query = query.substr(amp + 1);
    }
  }
  if (out.scheme == "sqlite") {
    // sqlite:///abs/path or sqlite://relative/path
    out.database = std::string(rest);
    if (out.database.empty()) {
      return Status::InvalidArgument("database URL '" + std::string(url) + "' names no file");
    }
    out.redacted = std::string(url);
    return out;
  }
  std::string_view authority = rest.substr(0, rest.find('/'));
  if (rest.find('/') != std::string_view::npos) out.database = std::string(rest.substr(rest.find('/') + 1));
  const size_t at = authority.rfind('@');
  if (at != std::string_view::npos) {
    std::string_view userinfo = authority.substr(0, at);
    if (userinfo.find(':') != std::string_view::npos) {
      return Status::InvalidArgument(
          "the database URL contains a password; put it in the environment or the client's own "
          "password file instead");
    }
    out.user = std::string(userinfo);
    authority = authority.substr(at + 1);
  }
  const size_t pc = authority.rfind(':');
  if (pc != std::string_view::npos && authority.find(']') == std::string_view::npos) {
    auto port = ParseInt(authority.substr(pc + 1), "port");
    if (!port.ok() || *port <= 0 || *port > 65535) {
      return Status::InvalidArgument("database URL '" + std::string(url) + "' has a bad port");
    }
    out.port = static_cast<int>(*port);
    authority = authority.substr(0, pc);
  }
  out.host = std::string(authority);
  out.redacted = std::string(url);
  return out;
}

}  // namespace sb::db
