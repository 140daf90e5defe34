// Database URLs: one parser per scheme family with the parameters each accepts, percent-decoding,
// and no secret ever accepted (issue #20 items 4 and 14).
#include <gtest/gtest.h>

#include <string>

#include "storebench/db.h"

namespace sb::db {
namespace {

std::string ErrorOf(const std::string& url) {
  auto parsed = ParseDbUrl(url);
  if (parsed.ok()) return "";
  EXPECT_EQ(parsed.status().code(), StatusCode::kInvalidArgument);
  return parsed.status().message();
}

TEST(DbUrlTest, SecretParametersAreRefusedWithoutQuotingThem) {
  // libpq's sslpassword is the passphrase of the client key: a secret like password.
  const std::string pg = ErrorOf("postgresql://bench@127.0.0.1:5432/ds3?sslpassword=Tiger123");
  EXPECT_NE(pg.find("'sslpassword'"), std::string::npos) << pg;
  EXPECT_NE(pg.find("PGPASSWORD or ~/.pgpass"), std::string::npos) << pg;
  EXPECT_EQ(pg.find("Tiger123"), std::string::npos) << pg;
  const std::string my = ErrorOf("mysql://bench@127.0.0.1/ds3?password=Tiger123");
  EXPECT_NE(my.find("MYSQL_PWD"), std::string::npos) << my;
  EXPECT_NE(my.find("option file"), std::string::npos) << my;
  EXPECT_EQ(my.find("Tiger123"), std::string::npos) << my;
  // Spelled with percent-escapes, it is still a secret.
  EXPECT_NE(ErrorOf("postgresql://b@h/d?ssl%70assword=Tiger123"), "");
  const std::string userinfo = ErrorOf("postgresql://bench:Tiger123@host/ds3");
  EXPECT_NE(userinfo.find("PGPASSWORD"), std::string::npos) << userinfo;
  EXPECT_EQ(userinfo.find("Tiger123"), std::string::npos) << userinfo;
  // A malformed URL is quoted only up to where a secret could start.
  EXPECT_EQ(ErrorOf("nonsense@Tiger123").find("Tiger123"), std::string::npos);
}

TEST(DbUrlTest, EachSchemeRefusesUnknownParametersNamingTheAllowedOnes) {
  EXPECT_EQ(ErrorOf("sqlite:///tmp/x.db?mode=ro"),
            "database URL parameter 'mode' is not supported for sqlite:// URLs (it takes none)");
  const std::string my = ErrorOf("mysql://u@h/db?compress=1");
  EXPECT_EQ(my,
            "database URL parameter 'compress' is not supported for mysql:// URLs (allowed: "
            "connect_timeout, read_timeout, write_timeout, ssl)");
  const std::string pg = ErrorOf("postgresql://u@h/db?sslmod=require");
  EXPECT_NE(pg.find("parameter 'sslmod' is not supported for postgresql:// URLs (allowed: "),
            std::string::npos)
      << pg;
  EXPECT_NE(pg.find("sslmode"), std::string::npos) << pg;
  EXPECT_NE(ErrorOf("mariadb://u@h/db?connect_timeout=soon"), "");
  EXPECT_NE(ErrorOf("mysql://u@h/db?ssl=yes"), "");
  EXPECT_NE(ErrorOf("null://?x=1"), "");
  // null:// takes two parameters for harness tests: the time each statement takes, and whether
  // it counts as a back end with a server (watched for stalls).
  EXPECT_EQ(ErrorOf("null:///b?latency_us=900000"), "");
  EXPECT_EQ(ErrorOf("null://?server=1&latency_us=5"), "");
  EXPECT_EQ(ErrorOf("null://?server=yes"), "database URL parameter server='yes' is not 0 or 1");
  EXPECT_EQ(ErrorOf("null://?latency_us=-1"),
            "database URL parameter latency_us='-1' is not a whole number of microseconds up to "
            "10000000");
  EXPECT_EQ(ErrorOf("mysql://u@h/db?connect_timeout=5&ssl=1"), "");
  EXPECT_EQ(ErrorOf("postgres://u@h/db?sslmode=disable&application_name=sb"), "");
}

TEST(DbUrlTest, SqliteWithTwoSlashesSaysHowToWriteEitherPath) {
  // sqlite://tmp/x.db used to become the relative path tmp/x.db without a word.
  EXPECT_EQ(ErrorOf("sqlite://tmp/x.db"),
            "database URL 'sqlite://tmp/x.db' has two slashes: write sqlite:///tmp/x.db (three) "
            "for the absolute path /tmp/x.db, or sqlite://./tmp/x.db for a path relative to the "
            "current directory");
  EXPECT_EQ(ErrorOf("sqlite:///tmp/x.db"), "");
  EXPECT_EQ(ErrorOf("sqlite://./x.db"), "");
  EXPECT_EQ(ErrorOf("sqlite://../x.db"), "");
}

TEST(DbUrlTest, MysqlWithoutDatabaseSaysTheNameIsMissing) {
  for (const char* url : {"mysql://storebench@127.0.0.1:3306", "mysql://storebench@127.0.0.1/"}) {
    const std::string e = ErrorOf(url);
    EXPECT_NE(e.find("the database name is missing"), std::string::npos) << e;
  }
}

TEST(DbUrlTest, PartsArePercentDecoded) {
  auto u = ParseDbUrl("postgresql://be%40nch@my%2Dhost:5433/d%20s?application_name=a%26b");
  ASSERT_TRUE(u.ok()) << u.status().message();
  EXPECT_EQ(u->user, "be@nch");
  EXPECT_EQ(u->host, "my-host");
  EXPECT_EQ(u->port, 5433);
  EXPECT_EQ(u->database, "d s");
  EXPECT_EQ(u->params.at("application_name"), "a&b");
  auto s = ParseDbUrl("sqlite:///tmp/a%3Fb.db");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->database, "/tmp/a?b.db");
  EXPECT_NE(ErrorOf("postgresql://u@h/d%2"), "");
  EXPECT_NE(ErrorOf("postgresql://u@h/d%zz"), "");
}

}  // namespace
}  // namespace sb::db

namespace sb::db {
namespace {

// Found by the URL fuzzer: an unknown "scheme" holding user:password@host was quoted whole.
TEST(DbUrlSecretTest, AMalformedSchemeIsNeverQuoted) {
  for (const char* url : {"bench:Tiger123@host://ds3", "user:Tiger123@h://x", "a b://x"}) {
    auto parsed = ParseDbUrl(url);
    ASSERT_FALSE(parsed.ok()) << url;
    EXPECT_EQ(parsed.status().message().find("Tiger123"), std::string::npos)
        << parsed.status().message();
    EXPECT_NE(parsed.status().message().find("scheme"), std::string::npos);
  }
  auto no_scheme = ParseDbUrl("user:Tiger123@host/db");
  ASSERT_FALSE(no_scheme.ok());
  EXPECT_EQ(no_scheme.status().message().find("Tiger123"), std::string::npos)
      << no_scheme.status().message();
  EXPECT_TRUE(ParseDbUrl("odbc+x.y-z://dsn").ok());  // a valid scheme the registry may refuse
}

}  // namespace
}  // namespace sb::db
