// A plan's expansion at the config layer (config/plan.h): every instance's database in order
// from templates and lists, the options of [run] and [group.options] as text in the order
// written, the scale group, and the plan file read from disk. The instances' options and
// databases are built from these by the session layer; here only the plan's own data.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "config/plan.h"

namespace sb::config {
namespace {

// Every instance's database URL, group by group, as the instances are numbered ("<group>_<i>").
std::vector<std::string> Expand(const Plan& plan) {
  std::vector<std::string> out;
  for (const PlanGroup& g : plan.groups) {
    for (int i = 1; i <= g.count; ++i) {
      auto url = InstanceDatabase(plan, g, i);
      EXPECT_TRUE(url.ok()) << url.status().message();
      out.push_back(g.name + "_" + std::to_string(i) + " " + (url.ok() ? *url : "?"));
    }
  }
  return out;
}

TEST(PlanExpansionTest, EveryInstanceGetsItsDatabaseInOrder) {
  auto plan = ParsePlan(R"([[group]]
count = 3
db = "sqlite:///d/{i}/ds{i}.db"

[[group]]
workload = "tpcc"
db = ["postgresql://u@h:5433/tpcc", "postgresql://u@h:5434/tpcc"]
count = 1

[[group]]
name = "sb-2"
db = "mysql://u@h/sb{i"
count = 2
)",
                        "e.toml");
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  // Groups without a name are g<k>, by their position in the file.
  EXPECT_EQ(Expand(*plan), (std::vector<std::string>{
                               "g1_1 sqlite:///d/1/ds1.db", "g1_2 sqlite:///d/2/ds2.db",
                               "g1_3 sqlite:///d/3/ds3.db", "g2_1 postgresql://u@h:5433/tpcc",
                               "sb-2_1 mysql://u@h/sb{i", "sb-2_2 mysql://u@h/sb{i"}));
  EXPECT_EQ(plan->groups[0].workload, "dvdstore");
  EXPECT_EQ(plan->groups[1].workload, "tpcc");
  EXPECT_EQ(plan->Instances(), 6);
  EXPECT_EQ(plan->ScaleGroup(), 0);  // no group says scale = true: the first
  EXPECT_EQ(plan->groups[1].line, 5);
  // Instance 0 does not exist, in a list as in a template's group.
  auto zero = InstanceDatabase(*plan, plan->groups[1], 0);
  ASSERT_FALSE(zero.ok());
  EXPECT_EQ(zero.status().message(),
            "e.toml:5: group 'g2' lists 2 database(s) in 'db', so it cannot have 0 instances "
            "(add databases to the list, or use a template with {i})");
}

TEST(PlanExpansionTest, OptionsAsTextInTheOrderWritten) {
  auto plan = ParsePlan(R"([run]
warmup_time = "1m"
run_time = 5
baseline = "opm>=100@run"

[[group]]
db = "sqlite:///x.db"
[group.options]
think_time = 0.25
n_threads = 4
ds2_mode = true
search_batch_size = 1e3
db_size = "20MB"
)",
                        "o.toml");
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  // toml++ keeps keys sorted; the plan keeps the file's order, since later options win.
  ASSERT_EQ(plan->run.size(), 3u);
  EXPECT_EQ(plan->run[0].key, "warmup_time");
  EXPECT_EQ(plan->run[1].key, "run_time");
  EXPECT_EQ(plan->run[1].value, "5");
  EXPECT_EQ(plan->run[2].line, 4);
  const std::vector<PlanValue>& o = plan->groups[0].options;
  ASSERT_EQ(o.size(), 5u);
  std::vector<std::string> written;
  for (const PlanValue& v : o) written.push_back(v.key + "=" + v.value);
  EXPECT_EQ(written, (std::vector<std::string>{"think_time=0.25", "n_threads=4", "ds2_mode=Y",
                                               "search_batch_size=1000", "db_size=20MB"}));
  EXPECT_EQ(o[0].line, 9);
  EXPECT_EQ(o[4].line, 13);
}

TEST(PlanExpansionTest, ShapesThatAreNotAPlanAreRefusedWithTheirLine) {
  auto refused = [](const std::string& text) {
    auto p = ParsePlan(text, "s.toml");
    EXPECT_FALSE(p.ok()) << text;
    return p.ok() ? std::string("(accepted)") : p.status().message();
  };
  EXPECT_EQ(refused("run = 1\n[[group]]\ndb = \"x\"\n"), "s.toml:1: [run] must be a table");
  EXPECT_EQ(refused("group = 1\n"), "s.toml:1: groups are written [[group]]");
  EXPECT_EQ(refused("group = [1]\n"), "s.toml:1: a [[group]] must be a table");
  EXPECT_EQ(refused("[[group]]\ndb = \"x\"\noptions = 3\n"),
            "s.toml:3: [group.options] must be a table");
  EXPECT_EQ(refused("[[group]]\ndb = \"x\"\nspread_threads = 0\n"),
            "s.toml:3: key 'spread_threads' must be a whole number from 1 to 65536");
  EXPECT_EQ(refused("[[group]]\ndb = \"x\"\ncount = \"2\"\n"),
            "s.toml:3: key 'count' must be a whole number from 1 to 1024");
  EXPECT_EQ(refused("[[group]]\ndb = \"\"\n"), "s.toml:2: key 'db' must be a non-empty string");
  EXPECT_EQ(refused("[[group]]\ndb = \"x\"\nworkload = 5\n"),
            "s.toml:3: key 'workload' must be a non-empty string");
  EXPECT_EQ(refused("[[group]]\ndb = \"x\"\n[group.options]\nn_threads = { a = 1 }\n"),
            "s.toml:4: key 'n_threads' must be a string, number or boolean");
}

TEST(PlanExpansionTest, ReadPlanFileReadsARegularFileAndRefusesAHugeOne) {
  const char* tmp = std::getenv("STOREBENCH_TEST_TMP");
  const std::filesystem::path dir =
      std::filesystem::path(tmp != nullptr ? tmp : "/tmp") / "plan_expansion_test";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "p.toml").string();
  {
    std::ofstream f(path);
    f << "[[group]]\nname = \"a\"\ncount = 2\ndb = \"sqlite:///a{i}.db\"\n";
  }
  auto plan = ReadPlanFile(path);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  EXPECT_EQ(plan->path, path);
  EXPECT_EQ(Expand(*plan),
            (std::vector<std::string>{"a_1 sqlite:///a1.db", "a_2 sqlite:///a2.db"}));
  const std::string huge = (dir / "huge.toml").string();
  {
    std::ofstream f(huge);
    f << std::string(kMaxPlanBytes + 1, '#');
  }
  auto big = ReadPlanFile(huge);
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.status().message(), "the plan '" + huge + "' is larger than 1 MiB");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace sb::config
