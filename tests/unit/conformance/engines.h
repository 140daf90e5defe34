// The database back ends the conformance suites run on: SQLite on a real file, PostgreSQL and
// MariaDB on the servers of scripts/services.sh (STOREBENCH_PG_URL, STOREBENCH_MYSQL_URL); and
// where a suite lists them, the null back end and the skeleton a new back end starts from
// (backend/db/skeleton/), which this registry alone knows: cli/ never registers it.
#ifndef STOREBENCH_TESTS_UNIT_CONFORMANCE_ENGINES_H_
#define STOREBENCH_TESTS_UNIT_CONFORMANCE_ENGINES_H_

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <ostream>
#include <string>

#include "backend/db/mysql/mysql_backend.h"
#include "backend/db/null/null_backend.h"
#include "backend/db/postgres/postgres_backend.h"
#include "backend/db/registry.h"
#include "backend/db/skeleton/skeleton_backend.h"
#include "backend/db/sqlite/sqlite_backend.h"
#include "storebench/db.h"

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

// False when STOREBENCH_REQUIRE_SERVICES=1: a missing server fails the test instead.
inline bool SkipAllowed() {
  const char* required = std::getenv("STOREBENCH_REQUIRE_SERVICES");
  return required == nullptr || std::string(required) != "1";
}

// Opens the back end of `e` into *backend, without connecting. Without a server URL the calling
// test is skipped (*skip_reason is set; the caller's SetUp calls GTEST_SKIP), unless
// STOREBENCH_REQUIRE_SERVICES=1, when it fails.
inline void OpenBackend(const Engine& e, std::unique_ptr<db::DbBackend>* backend,
                        std::string* skip_reason) {
  db::BackendRegistry registry;
  registry.Register("sqlite", db::OpenSqlite);
  registry.Register("postgresql", db::OpenPostgres);
  registry.Register("mysql", db::OpenMysql);
  registry.Register("null", db::OpenNull);
  registry.Register("skeleton", db::OpenSkeleton);
  db::BackendOptions options;
  options.create_if_missing = true;
  std::filesystem::create_directories(STOREBENCH_TEST_TMP);
  if (e.server && e.url.empty()) {
    const std::string why =
        "no server URL for " + e.name +
        ": STOREBENCH_PG_URL / STOREBENCH_MYSQL_URL are not set (run make test, or "
        "eval \"$(scripts/services.sh env)\" after scripts/services.sh start)";
    if (SkipAllowed()) {
      *skip_reason = why;
      return;
    }
    FAIL() << why;
  }
  auto b = registry.Open(e.url, options);
  ASSERT_TRUE(b.ok()) << b.status().message();
  *backend = std::move(b).value();
}

// One connection of `backend` (opened from `e`) into *conn. Without a reachable server the
// calling test is skipped the same way.
inline void ConnectEngine(const Engine& e, db::DbBackend& backend,
                          std::unique_ptr<db::Connection>* conn, std::string* skip_reason) {
  auto c = backend.Connect();
  if (!c.ok()) {
    if (e.server && SkipAllowed()) {
      *skip_reason =
          "no server at " + e.url + " (scripts/services.sh start): " + c.status().message();
      return;
    }
    FAIL() << e.url << ": " << c.status().message();
  }
  *conn = std::move(c).value();
}

// OpenBackend, then ConnectEngine.
inline void OpenEngine(const Engine& e, std::unique_ptr<db::DbBackend>* backend,
                       std::unique_ptr<db::Connection>* conn, std::string* skip_reason) {
  ASSERT_NO_FATAL_FAILURE(OpenBackend(e, backend, skip_reason));
  if (!skip_reason->empty()) return;
  ASSERT_NO_FATAL_FAILURE(ConnectEngine(e, **backend, conn, skip_reason));
}

}  // namespace sb::conformance

#endif  // STOREBENCH_TESTS_UNIT_CONFORMANCE_ENGINES_H_
