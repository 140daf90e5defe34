#include "backend/db/connect_error.h"

namespace sb::db {

Status ConnectError(const ConnectFailure& f) {
  std::string m = "cannot connect to " + f.product + " at host " + f.host + " port " + f.port +
                  " (" + f.url + "): " + f.why + "; is the server running? is the password right?";
  if (!f.password_sources.empty()) {
    m += " (passwords come from " + f.password_sources + ", never from the URL)";
  }
  if (f.no_server) {
    m += "; no server answers there: start it (the project's servers: scripts/services.sh start) "
         "or fix the host and port (scripts/services.sh env prints the DSNs)";
  }
  return Status::Db(f.category, std::move(m), kCannotConnectState, f.native_code);
}

bool IsConnectError(const Status& s) {
  return s.code() == StatusCode::kDbError && s.sqlstate() == kCannotConnectState;
}

}  // namespace sb::db
