// Installing, recognising and calling the stored procedures of --sql_mode=procedures.
#include <cstdio>

#include "workload/dvdstore/dvdstore_workload.h"
#include "workload/dvdstore/sql_files.h"

namespace sb::dvdstore {
namespace {

// FNV-1a: a fingerprint that is the same in every build and on every machine (std::hash is
// not), so a database loaded by one storebench binary is recognised by another.
std::string Fnv1aHex(const std::string& text) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (const unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace

std::string ProceduresFingerprint(const std::string& dialect, bool ds2_mode) {
  auto script = SqlScript(dialect, "procedures.sql", ds2_mode);
  if (!script.ok()) return "";
  return Fnv1aHex(*script);
}

Status DropProcedures(db::Connection& conn, const std::string& dialect) {
  auto drop = SqlScript(dialect, "drop_procedures.sql", false);
  if (!drop.ok()) return Status::Ok();  // this dialect installs none
  return conn.ExecuteScript(*drop);
}

Status InstallProcedures(db::Connection& conn, const std::string& dialect, bool ds2_mode,
                         const std::string& meta_set, bool drop_first) {
  auto script = SqlScript(dialect, "procedures.sql", ds2_mode);
  if (!script.ok()) return script.status();
  if (drop_first) SB_RETURN_IF_ERROR(DropProcedures(conn, dialect));
  SB_RETURN_IF_ERROR(conn.ExecuteScript(*script));
  auto set = conn.Prepare(meta_set);
  if (!set.ok()) return set.status();
  (*set)->BindText(1, "procedures");
  (*set)->BindText(2, Fnv1aHex(*script));
  return (*set)->Execute();
}

Result<std::map<std::string, std::string>> ProcedureCalls(const std::string& dialect) {
  auto calls = SqlQueries(dialect, "calls.sql");
  if (!calls.ok()) return calls.status();
  auto client = SqlQueries(dialect, "queries.sql");
  if (!client.ok()) return client.status();
  // The price lookup stays on the client in both modes, untimed (DVD Store's driver sends it
  // before calling its PURCHASE procedure).
  (*calls)["prices"] = client->at("prices");
  return calls;
}

}  // namespace sb::dvdstore
