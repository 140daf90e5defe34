// Plan files: what a valid plan holds, and that every mistake names the file, line and key.
#include "config/plan.h"

#include <gtest/gtest.h>

#include <string>

namespace sb::config {
namespace {

constexpr const char* kPlan = R"(# three DVD Store instances and one oltp instance
[run]
run_time = "30s"
baseline = "opm>=100@10s-30s"

[[group]]
name = "ds3"
count = 3
db = "sqlite:///tmp/sb/ds3_{i}.db"
load = true
spread_threads = 8
[group.options]
db_size = "S"
think_time = 0.5
server_check = false

[[group]]
name = "sb"
workload = "oltp"
db = "postgresql://storebench@127.0.0.1:5432/sbtest"
scale = true
)";

TEST(PlanTest, ReadsGroupsOptionsAndLines) {
  auto plan = ParsePlan(kPlan, "p.toml");
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  ASSERT_EQ(plan->run.size(), 2u);
  EXPECT_EQ(plan->run[0].key, "run_time");
  EXPECT_EQ(plan->run[0].value, "30s");
  EXPECT_EQ(plan->run[0].line, 3);
  ASSERT_EQ(plan->groups.size(), 2u);
  const PlanGroup& ds3 = plan->groups[0];
  EXPECT_EQ(ds3.name, "ds3");
  EXPECT_EQ(ds3.count, 3);
  EXPECT_EQ(ds3.workload, "dvdstore");  // the default
  EXPECT_TRUE(ds3.load);
  EXPECT_EQ(ds3.spread_threads, 8);
  ASSERT_EQ(ds3.options.size(), 3u);
  EXPECT_EQ(ds3.options[1].key, "think_time");
  EXPECT_EQ(ds3.options[1].value, "0.5");
  EXPECT_EQ(ds3.options[2].value, "N");  // booleans as DVD Store's Y/N
  EXPECT_EQ(ds3.options[2].line, 15);
  EXPECT_EQ(plan->groups[1].workload, "oltp");
  EXPECT_EQ(plan->groups[1].count, 1);
  EXPECT_EQ(plan->Instances(), 4);
  EXPECT_EQ(plan->ScaleGroup(), 1);
  EXPECT_EQ(plan->Where(7), "p.toml:7");
}

TEST(PlanTest, TemplateNumbersInstancesFromOne) {
  EXPECT_EQ(ExpandInstanceTemplate("postgresql://u@h:5432/ds3_{i}", 12),
            "postgresql://u@h:5432/ds3_12");
  EXPECT_EQ(ExpandInstanceTemplate("sqlite:///d/{i}/ds{i}.db", 2), "sqlite:///d/2/ds2.db");
  EXPECT_EQ(ExpandInstanceTemplate("sqlite:///plain.db", 3), "sqlite:///plain.db");
}

void ExpectRefused(const std::string& text, const std::string& where, const std::string& words) {
  auto plan = ParsePlan(text, "bad.toml");
  ASSERT_FALSE(plan.ok()) << text;
  EXPECT_EQ(plan.status().code(), StatusCode::kInvalidArgument);
  const std::string& m = plan.status().message();
  EXPECT_EQ(m.rfind(where, 0), 0u) << m;
  EXPECT_NE(m.find(words), std::string::npos) << m;
}

TEST(PlanTest, ListOfDatabasesGivesTheIthToTheIthInstance) {
  constexpr const char* kList = R"([[group]]
name = "pg"
db = ["postgresql://u@h:25433/ds3",
      "postgresql://u@h:25434/ds3", "postgresql://u@h:25435/ds3"]
)";
  auto plan = ParsePlan(kList, "l.toml");
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  const PlanGroup& g = plan->groups[0];
  EXPECT_EQ(g.count, 3);  // no count: the list's length
  EXPECT_EQ(InstanceDatabase(*plan, g, 1).value(), "postgresql://u@h:25433/ds3");
  EXPECT_EQ(InstanceDatabase(*plan, g, 3).value(), "postgresql://u@h:25435/ds3");
  // A consolidation search's count above the list: refused, naming the group's line.
  auto fourth = InstanceDatabase(*plan, g, 4);
  ASSERT_FALSE(fourth.ok());
  EXPECT_EQ(fourth.status().message(),
            "l.toml:1: group 'pg' lists 3 database(s) in 'db', so it cannot have 4 instances "
            "(add databases to the list, or use a template with {i})");
  // A template still expands.
  auto tmpl = ParsePlan("[[group]]\ncount = 2\ndb = \"sqlite:///d/{i}.db\"\n", "t.toml");
  ASSERT_TRUE(tmpl.ok());
  EXPECT_EQ(InstanceDatabase(*tmpl, tmpl->groups[0], 2).value(), "sqlite:///d/2.db");
}

TEST(PlanTest, ListOfDatabasesShorterThanTheCountIsRefused) {
  auto plan = ParsePlan(
      "[[group]]\nname = \"a\"\ncount = 3\ndb = [\"sqlite:///1.db\", "
      "\"sqlite:///2.db\"]\n",
      "c.toml");
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().message(),
            "c.toml:1: group 'a' has count = 3 but lists 2 database(s) in 'db'; each instance "
            "needs one of its own");
  // A count below the list's length takes the first ones.
  auto fewer =
      ParsePlan("[[group]]\ncount = 1\ndb = [\"sqlite:///1.db\", \"sqlite:///2.db\"]\n", "f.toml");
  ASSERT_TRUE(fewer.ok());
  EXPECT_EQ(fewer->groups[0].count, 1);
  for (const char* bad : {"db = []", "db = [1, 2]", "db = [\"\"]"}) {
    auto p = ParsePlan(std::string("[[group]]\n") + bad + "\n", "b.toml");
    ASSERT_FALSE(p.ok()) << bad;
    EXPECT_NE(p.status().message().find("b.toml:2: key 'db'"), std::string::npos)
        << p.status().message();
  }
}

TEST(PlanTest, MistakesNameFileLineAndKey) {
  ExpectRefused("[[group]]\nname = \"a\"\ndb = \"sqlite:///x\"\ncuont = 2\n", "bad.toml:4:",
                "unknown key 'cuont'");
  ExpectRefused("[[group]]\ndb = \"sqlite:///x\"\ncount = 0\n", "bad.toml:3:", "'count'");
  ExpectRefused("[[group]]\ndb = \"sqlite:///x\"\ncount = 100000\n", "bad.toml:3:", "'count'");
  ExpectRefused("[[group]]\nname = \"a\"\ncount = 2\n", "bad.toml:1:", "has no 'db'");
  ExpectRefused("[[group]]\ndb = \"sqlite:///x\"\nload = \"yes\"\n", "bad.toml:3:",
                "'load' must be true or false");
  ExpectRefused("[[group]]\ndb = \"sqlite:///x\"\n[group.options]\nwindow = [1, 2]\n",
                "bad.toml:4:", "key 'window'");
  ExpectRefused("[run]\nrun_time = \"30s\"\n", "bad.toml:1:", "no [[group]]");
  ExpectRefused("[rnu]\nrun_time = 1\n", "bad.toml:1:", "unknown key 'rnu'");
  ExpectRefused("[[group]]\ndb = \"sqlite:///x\"\nname = \"a b\"\n", "bad.toml:1:",
                "group name 'a b'");
  ExpectRefused("[[group]]\nname = \"a\"\ndb = \"x\"\n[[group]]\nname = \"a\"\ndb = \"y\"\n",
                "bad.toml:4:", "used twice");
  ExpectRefused("[[group]]\ndb = \"x\"\nscale = true\n[[group]]\ndb = \"y\"\nscale = true\n",
                "bad.toml:1:", "only one group");
  ExpectRefused("[[group]\ndb = 1\n", "bad.toml:1:", "not valid TOML");
  // More instances than supported, over several groups.
  ExpectRefused("[[group]]\ndb = \"x\"\ncount = 1000\n[[group]]\ndb = \"y\"\ncount = 1000\n",
                "bad.toml:1:", "2000 instances");
}

// Table headers whose key starts with a character no key starts with broke a precondition of
// toml++ 3.3.0's parser (an abort, or undefined behavior under clang with NDEBUG); found by
// tests/fuzz/plan_fuzz.cc (corpus/plan/regression-table-header-colon.toml).
TEST(PlanTest, TableHeaderWithoutKeyIsNotValidToml) {
  for (const char* text :
       {"[[:///x\"\n", "[[:", "[=", "[ %]", "[[[1]]]", "[[group]]\ndb = \"x\"\n[{"}) {
    ExpectRefused(text, "bad.toml:", "not valid TOML");
  }
}

// Non-ASCII characters where toml++ 3.3.0 looks for whitespace reached __builtin_unreachable()
// in its Unicode tables (undefined behavior); found by tests/fuzz/plan_fuzz.cc
// (corpus/plan/regression-non-ascii-after-value.toml). In strings and comments they are fine.
TEST(PlanTest, NonAsciiOutsideStringsIsNotValidToml) {
  for (const char* text : {"[run]\nrun_time = 1\xC3\xA9\n", "[run]\nx = [1.5, 1979\xD0\x9F]\n",
                           "\xE3\x80\x81 = 1\n"}) {
    ExpectRefused(text, "bad.toml:", "not valid TOML");
  }
  // A line-ending backslash in a multi-line string trims the whitespace before the U+00A7.
  auto plan = ParsePlan(
      "# f\xC3\xBCr die Datenbank \xE2\x80\x94 \xD0\x9F\n[run]\nx = \"\"\"\\\n  \xC2\xA7\"\"\"\n"
      "[[group]]\ndb = \"sqlite:///tmp/\xC3\xA9t\xC3\xA9.db\"\n",
      "ok.toml");
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  ASSERT_EQ(plan->run.size(), 1u);
  EXPECT_EQ(plan->run[0].value, "\xC2\xA7");
  EXPECT_EQ(plan->groups[0].db, "sqlite:///tmp/\xC3\xA9t\xC3\xA9.db");
}

TEST(PlanTest, ReadPlanFileRefusesWhatIsNotARegularFile) {
  auto dir = ReadPlanFile("/tmp");
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(dir.status().message().find("not a regular file"), std::string::npos);
  auto missing = ReadPlanFile("/nonexistent/plan.toml");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("cannot read the plan"), std::string::npos);
}

}  // namespace
}  // namespace sb::config
