#include "backend/db/storage_space.h"

#include <sys/statvfs.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace sb::db {

StorageSpace SpaceOfDirectory(const std::string& dir) {
  StorageSpace space;
  space.where = dir;
  struct statvfs st {};
  if (::statvfs(dir.c_str(), &st) != 0) {
    space.why_unknown = "cannot measure the file system of " + dir + ": " + std::strerror(errno);
    return space;
  }
  space.known = true;
  space.free_bytes = static_cast<int64_t>(st.f_bavail) * static_cast<int64_t>(st.f_frsize);
  return space;
}

bool IsLocalHost(const std::string& host) {
  return host.empty() || host.front() == '/' || host == "localhost" || host == "127.0.0.1" ||
         host == "::1" || host == "[::1]";
}

namespace {

// The first column of the query's first row as text ("" when NULL or no row).
Result<std::string> QueryText(Connection& conn, const std::string& sql) {
  auto stmt = conn.Prepare(sql);
  if (!stmt.ok()) return stmt.status();
  SB_RETURN_IF_ERROR((*stmt)->Execute());
  std::string out;
  if ((*stmt)->Next() && !(*stmt)->IsNull(0)) out = std::string((*stmt)->GetText(0));
  SB_RETURN_IF_ERROR((*stmt)->status());
  (*stmt)->Reset();
  return out;
}

}  // namespace

Result<StorageSpace> ServerSpace(DbBackend& backend, const std::string& host,
                                 const std::string& used_sql, const std::string& datadir_sql) {
  auto conn = backend.Connect();
  if (!conn.ok()) return conn.status();
  int64_t used = 0;
  if (auto text = QueryText(**conn, used_sql); text.ok() && !text->empty()) {
    used = std::strtoll(text->c_str(), nullptr, 10);
  }
  if (!IsLocalHost(host)) {
    StorageSpace space;
    space.used_bytes = used;
    space.why_unknown = "the server runs on " + host +
                        ", not on this machine, so its free space cannot be measured from here";
    return space;
  }
  auto dir = QueryText(**conn, datadir_sql);
  if (!dir.ok() || dir->empty()) {
    StorageSpace space;
    space.used_bytes = used;
    space.why_unknown = "the server does not tell this account its data directory" +
                        (dir.ok() ? std::string() : " (" + dir.status().message() + ")");
    return space;
  }
  StorageSpace space = SpaceOfDirectory(*dir);
  space.used_bytes = used;
  return space;
}

}  // namespace sb::db
