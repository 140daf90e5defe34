// sysbench's command line with `storebench oltp` in front of it: the test name as a word or a
// script path, --test=oltp_<test>, and the options storebench takes from sysbench 1.0.20
// (src/sysbench.c, its general_args and --forced-shutdown parsing).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/sysbench_options.h"
#include "config/options.h"

namespace sb::cli {
namespace {

using Args = std::vector<std::string>;

Args Take(Args a) {
  TakeSysbenchTestName(&a);
  return a;
}

TEST(SysbenchCommandLineTest, TheTestNameWordNamesTheOltpTest) {
  EXPECT_EQ(Take({"oltp_read_write", "--tables=4", "run"}),
            (Args{"--test=read_write", "--workload=oltp", "--tables=4", "run"}));
  EXPECT_EQ(Take({"--threads=2", "/usr/share/sysbench/oltp_point_select.lua", "prepare"}),
            (Args{"--threads=2", "--test=point_select", "--workload=oltp", "prepare"}));
  // A workload already named is kept; sysbench's --test= spelling is read the same way.
  EXPECT_EQ(Take({"--workload=oltp", "--test=oltp_update_index", "run"}),
            (Args{"--workload=oltp", "--test=update_index", "run"}));
  EXPECT_EQ(Take({"--test", "oltp_insert.lua", "run"}), (Args{"--test", "insert", "run"}));
  // An option's value is not a test name; other words are left for the command line's checks.
  EXPECT_EQ(Take({"--db", "sqlite:///tmp/oltp_x.db", "run"}),
            (Args{"--db", "sqlite:///tmp/oltp_x.db", "run"}));
  EXPECT_EQ(Take({"fileio", "run"}), (Args{"fileio", "run"}));
}

TEST(SysbenchCommandLineTest, ForcedShutdownAsSysbenchReadsIt) {
  EXPECT_EQ(*ForcedShutdownSeconds("off", 60), -1);
  EXPECT_EQ(*ForcedShutdownSeconds("5", 60), 5);
  EXPECT_EQ(*ForcedShutdownSeconds("10%", 60), 6);
  EXPECT_FALSE(ForcedShutdownSeconds("soon", 60).ok());
  EXPECT_FALSE(ForcedShutdownSeconds("5s", 60).ok());
  EXPECT_FALSE(ForcedShutdownSeconds("", 60).ok());
}

TEST(SysbenchCommandLineTest, SysbenchsOptionsAreTakenWithANoteWhereTheyDiffer) {
  config::OptionSet o;
  DeclareSysbenchOptions(&o);
  ASSERT_TRUE(
      config::ParseCommandLine({"--db-ps-mode=auto", "--verbosity=5", "--auto_inc=on",
                                "--forced-shutdown=off", "--mysql-ignore-errors=1213,1020,1205"},
                               &o)
          .ok());
  EXPECT_TRUE(SysbenchNotes(o).empty());
  config::OptionSet d;
  DeclareSysbenchOptions(&d);
  ASSERT_TRUE(config::ParseCommandLine(
                  {"--db-ps-mode=disable", "--mysql-ignore-errors=all", "--auto_inc=off"}, &d)
                  .ok());
  EXPECT_EQ(SysbenchNotes(d).size(), 3u);
  config::OptionSet bad;
  DeclareSysbenchOptions(&bad);
  EXPECT_FALSE(config::ParseCommandLine({"--db-ps-mode=never"}, &bad).ok());
  EXPECT_FALSE(config::ParseCommandLine({"--verbosity=6"}, &bad).ok());
}

// sysbench's table with the options of storebench's own that ApplySysbenchOptions reads (--db,
// --run_time), parsed from `args`; ApplySysbenchOptions's outcome, the --db it set in `db`.
Status Apply(const Args& args, std::string* db = nullptr) {
  config::OptionSet o;
  DeclareSysbenchOptions(&o);
  o.Add({.name = "db"});
  o.Add({.name = "run_time", .type = config::OptionType::kDuration, .default_value = "60s"});
  Status parsed = config::ParseCommandLine(args, &o);
  if (!parsed.ok()) return parsed;
  Status s = ApplySysbenchOptions(&o);
  if (db != nullptr) *db = o.GetString("db");
  return s;
}

TEST(SysbenchCommandLineTest, DbDriverAndItsOptionsBuildTheDbUrl) {
  std::string db;
  ASSERT_TRUE(Apply({"--db-driver=pgsql", "--pgsql-host=db1.example", "--pgsql-port=5433",
                     "--pgsql-user=sb", "--pgsql-db=bench_1"},
                    &db)
                  .ok());
  EXPECT_EQ(db, "postgresql://sb@db1.example:5433/bench_1");
  // sysbench's defaults: the mysql driver, localhost, sbtest.
  ASSERT_TRUE(Apply({"--mysql-port=3307"}, &db).ok());
  EXPECT_EQ(db, "mysql://sbtest@localhost:3307/sbtest");
  ASSERT_TRUE(Apply({"--db-driver=pgsql"}, &db).ok());
  EXPECT_EQ(db, "postgresql://sbtest@localhost:5432/sbtest");
  // Neither: --db is left alone.
  ASSERT_TRUE(Apply({"--db=sqlite:///x.db"}, &db).ok());
  EXPECT_EQ(db, "sqlite:///x.db");
}

TEST(SysbenchCommandLineTest, ConflictingOrUnsafeConnectionOptionsAreRefused) {
  EXPECT_EQ(Apply({"--db=sqlite:///x.db", "--pgsql-host=h"}).message(),
            "--db and --db-driver/--pgsql-*/--mysql-* name the database twice; give one of them");
  EXPECT_EQ(Apply({"--db-driver=oracle"}).message(),
            "option db_driver: 'oracle' is not pgsql or mysql (or give --db URL)");
  EXPECT_EQ(Apply({"--pgsql-host=h"}).message(),
            "--pgsql_host does not apply to --db-driver=mysql (sysbench's default); add "
            "--db-driver=pgsql");
  EXPECT_EQ(Apply({"--db-driver=pgsql", "--mysql-user=u"}).message(),
            "--mysql_user does not apply to --db-driver=pgsql; add --db-driver=mysql");
  EXPECT_EQ(Apply({"--db-driver=mysql", "--mysql-db=a/b"}).message(),
            "option mysql_db takes letters, digits, '.', '_' and '-' only; for other names give "
            "--db URL");
  EXPECT_FALSE(Apply({"--forced-shutdown=soon"}).ok());
  EXPECT_TRUE(Apply({"--forced-shutdown=10%"}).ok());
}

}  // namespace
}  // namespace sb::cli
