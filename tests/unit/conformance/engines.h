// The database back ends the conformance suites run on: SQLite on a real file, PostgreSQL and
// MariaDB on the servers of scripts/services.sh (STOREBENCH_PG_URL, STOREBENCH_MYSQL_URL).
#ifndef STOREBENCH_TESTS_UNIT_CONFORMANCE_ENGINES_H_
#define STOREBENCH_TESTS_UNIT_CONFORMANCE_ENGINES_H_

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <ostream>
#include <string>

#include "backend/db/db.h"
#include "backend/db/mysql/mysql_backend.h"
#include "backend/db/postgres/postgres_backend.h"
#include "backend/db/registry.h"
#include "backend/db/sqlite/sqlite_backend.h"

namespace sb::conformance {

struct Engine {
  std::string name;  // in test names
  std::string url;
  bool server = false;
  std::string sql_mode = "client";  // DVD Store: procedures = the servers' stored procedures
};
inline void PrintTo(const Engine& e, std::ostream* os) { *os << e.name; }
inline std::string EngineName(const ::testing::TestParamInfo<Engine>& info) {
  return info.param.name;
}

// The URL in environment variable `env` (scripts/services.sh env, as `make test` sets it) with
// its database replaced by `database` (empty: kept); "" when the variable is not set: a test
// never guesses a server's address, so it never uses a server it did not start.
inline std::string ServerUrl(const char* env, const std::string& database) {
  const char* v = std::getenv(env);
  std::string url = v != nullptr && *v != '\0' ? v : "";
  if (url.empty() || database.empty()) return url;
  const size_t q = url.find('?');
  if (q != std::string::npos) url.resize(q);
  return url.substr(0, url.rfind('/') + 1) + database;
}

// Opens `e` and one connection into *backend / *conn. Without a reachable server the calling
// test is skipped (GTEST_SKIP in the caller's SetUp after this returns false and
// *skip_reason is set), unless STOREBENCH_REQUIRE_SERVICES=1, when it fails.
inline void OpenEngine(const Engine& e, std::unique_ptr<db::DbBackend>* backend,
                       std::unique_ptr<db::Connection>* conn, std::string* skip_reason) {
  db::BackendRegistry registry;
  registry.Register("sqlite", db::OpenSqlite);
  registry.Register("postgresql", db::OpenPostgres);
  registry.Register("mysql", db::OpenMysql);
  db::BackendOptions options;
  options.create_if_missing = true;
  std::filesystem::create_directories(STOREBENCH_TEST_TMP);
  const char* required = std::getenv("STOREBENCH_REQUIRE_SERVICES");
  const bool skip_allowed = required == nullptr || std::string(required) != "1";
  if (e.server && e.url.empty()) {
    const std::string why =
        "no server URL for " + e.name +
        ": STOREBENCH_PG_URL / STOREBENCH_MYSQL_URL are not set (run make test, or "
        "eval \"$(scripts/services.sh env)\" after scripts/services.sh start)";
    if (skip_allowed) {
      *skip_reason = why;
      return;
    }
    FAIL() << why;
  }
  auto b = registry.Open(e.url, options);
  ASSERT_TRUE(b.ok()) << b.status().message();
  *backend = std::move(b).value();
  auto c = (*backend)->Connect();
  if (!c.ok()) {
    if (e.server && skip_allowed) {
      *skip_reason =
          "no server at " + e.url + " (scripts/services.sh start): " + c.status().message();
      return;
    }
    FAIL() << e.url << ": " << c.status().message();
  }
  *conn = std::move(c).value();
}

}  // namespace sb::conformance

#endif  // STOREBENCH_TESTS_UNIT_CONFORMANCE_ENGINES_H_
