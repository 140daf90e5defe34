// DVD Store 3's --target list: each host in place of the --db URL's host (session/rank_share.h).
#include <gtest/gtest.h>

#include "cli/db_run.h"

namespace sb::cli {
namespace {

using V = std::vector<std::string>;

V Expand(const std::string& db, const std::string& target) {
  auto r = ExpandTargets(db, target, nullptr);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? *r : V{};
}

TEST(TargetListTest, LocalhostLeavesTheUrlAlone) {
  EXPECT_EQ(Expand("postgresql://sb@127.0.0.1:5432/ds3", "localhost"),
            V{"postgresql://sb@127.0.0.1:5432/ds3"});
  EXPECT_EQ(Expand("sqlite:///tmp/a.db", "localhost"), V{"sqlite:///tmp/a.db"});
  // A DriverConfig.txt written for a server carries its host; a file database has none.
  EXPECT_EQ(Expand("sqlite:///tmp/a.db", "dbserver"), V{"sqlite:///tmp/a.db"});
  EXPECT_EQ(Expand("sqlite:///tmp/a.db", "db1;db2"), V{"sqlite:///tmp/a.db"});
  bool ignored = false;
  ASSERT_TRUE(ExpandTargets("sqlite:///tmp/a.db", "db1", &ignored).ok());
  EXPECT_TRUE(ignored);
}

TEST(TargetListTest, EachHostReplacesTheHostAndKeepsUserPortDatabaseAndParameters) {
  EXPECT_EQ(Expand("postgresql://sb@127.0.0.1:5432/ds3?sslmode=disable", "db1;db2"),
            (V{"postgresql://sb@db1:5432/ds3?sslmode=disable",
               "postgresql://sb@db2:5432/ds3?sslmode=disable"}));
  EXPECT_EQ(Expand("mysql://sb@h/ds3", " db1 ; db2:3307 "),
            (V{"mysql://sb@db1/ds3", "mysql://sb@db2:3307/ds3"}));
  EXPECT_EQ(Expand("mysql://h:3306/ds3", "[::1];[::1]:3307"),
            (V{"mysql://[::1]:3306/ds3", "mysql://[::1]:3307/ds3"}));
}

TEST(TargetListTest, RefusesWhatCannotBeMeant) {
  EXPECT_FALSE(ExpandTargets("postgresql://h/ds3", "db\x1b]0;owned\x07host", nullptr).ok());
  EXPECT_FALSE(ExpandTargets("postgresql://h/a;postgresql://h/b", "db1;db2", nullptr).ok());
  EXPECT_FALSE(ExpandTargets("postgresql://h/ds3", "db1/x", nullptr).ok());
}

}  // namespace
}  // namespace sb::cli
