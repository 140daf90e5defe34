// Swingbench XML configuration files: the VMware FT paper's configuration (docs/examples) sets
// the options it names; malformed XML is refused with its line; what storebench cannot honour is
// listed; the command line after the file wins.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "config/options.h"
#include "driver/run_options.h"
#include "workload/soe/soe_workload.h"

namespace sb::soe {
namespace {

struct Parsed {
  config::OptionSet options;
  Status status;
};

std::unique_ptr<Parsed> Parse(const std::vector<std::string>& args) {
  auto p = std::make_unique<Parsed>();
  SoeWorkload w;
  w.DeclareOptions(&p->options);
  driver::DeclareRunOptions(&p->options);
  p->status = config::ParseCommandLine(args, &p->options);
  return p;
}

std::string WriteFile(const std::string& name, const std::string& text) {
  std::filesystem::create_directories(STOREBENCH_TEST_TMP);
  const std::string path = std::string(STOREBENCH_TEST_TMP) + "/" + name;
  std::ofstream(path) << text;
  return path;
}

const std::string kPaper = std::string(STOREBENCH_SOURCE_DIR) + "/docs/examples/soe_vmware_ft.xml";

TEST(SwingbenchConfig, PaperConfigurationSetsItsOptions) {
  auto p = Parse({"--config_file", kPaper});
  ASSERT_TRUE(p->status.ok()) << p->status.message();
  const config::OptionSet& o = p->options;
  EXPECT_EQ(o.GetInt("n_threads"), 80);
  EXPECT_EQ(o.GetInt("min_delay"), 50);
  EXPECT_EQ(o.GetInt("max_delay"), 250);
  EXPECT_EQ(o.GetInt("inter_min_delay"), 0);
  EXPECT_EQ(o.GetInt("query_timeout"), 60);
  EXPECT_EQ(o.GetDurationNanos("run_time"), 30 * 60 * kNanosPerSecond);
  EXPECT_EQ(o.GetDurationNanos("warmup_time"), 0);
  EXPECT_EQ(o.GetInt("ramp_rate"), 1000000);  // logon delay 0: all at once
  EXPECT_FALSE(o.GetBool("timings_include_sleep"));
  EXPECT_EQ(o.GetInt("weight_ncr"), 20);
  EXPECT_EQ(o.GetInt("weight_bp"), 50);
  EXPECT_EQ(o.GetInt("weight_po"), 10);
  EXPECT_EQ(o.GetInt("weight_bo"), 50);
  // Not in the list: not run.
  EXPECT_EQ(o.GetInt("weight_op"), 0);
  EXPECT_EQ(o.GetInt("weight_ucd"), 0);
  EXPECT_EQ(o.GetInt("weight_wa"), 0);
  const std::string& notes = o.GetString("soe_config_not_honoured");
  EXPECT_NE(notes.find("Connection/ConnectString"), std::string::npos);
  EXPECT_NE(notes.find("Connection/Password"), std::string::npos);
  EXPECT_EQ(notes.find("change_me"), std::string::npos);  // the password is never echoed
  EXPECT_EQ(notes.find("dbhost"), std::string::npos);
  EXPECT_EQ(o.GetString("soe_config_name"), "Order Entry, VMware FT paper");
  SoeWorkload w;
  ASSERT_TRUE(w.Configure(o).ok());
  w.UseDialect("postgres");
  EXPECT_EQ(w.Warnings().size(), 1u);  // what the file asks for that storebench does not do
  w.UseDialect("sqlite");
  EXPECT_EQ(w.Warnings().size(), 2u);  // and the query timeout, which SQLite cannot honour
}

TEST(SwingbenchConfig, LaterCommandLineOptionsWin) {
  auto p = Parse({"--config_file", kPaper, "--n_threads", "4", "--run_time", "10s"});
  ASSERT_TRUE(p->status.ok()) << p->status.message();
  EXPECT_EQ(p->options.GetInt("n_threads"), 4);
  EXPECT_EQ(p->options.GetDurationNanos("run_time"), 10 * kNanosPerSecond);
}

// The JDBC classes (package orderentryjdbc) select their constants, --soe_variant=jdbc; a variant
// on the command line wins, before the file or after it; the PL/SQL classes keep plsql.
TEST(SwingbenchConfig, JdbcClassesSelectTheJdbcVariantUnlessTheCommandLineGivesOne) {
  const std::string jdbc =
      WriteFile("soe_jdbc.xml",
                "<SwingBenchConfiguration><Load><TransactionList>\n"
                "<Transaction><ClassName>com.dom.benchmarking.swingbench.benchmarks."
                "orderentryjdbc.BrowseProducts</ClassName><Weight>50</Weight></Transaction>\n"
                "<Transaction><ClassName>com.dom.benchmarking.swingbench.benchmarks."
                "orderentryjdbc.ProcessOrders</ClassName><Weight>10</Weight></Transaction>\n"
                "</TransactionList></Load></SwingBenchConfiguration>\n");
  auto p = Parse({"--config_file", jdbc});
  ASSERT_TRUE(p->status.ok()) << p->status.message();
  EXPECT_EQ(p->options.GetString("soe_variant"), "jdbc");
  EXPECT_EQ(p->options.GetInt("weight_bp"), 50);
  auto before = Parse({"--soe_variant", "plsql21", "--config_file", jdbc});
  ASSERT_TRUE(before->status.ok()) << before->status.message();
  EXPECT_EQ(before->options.GetString("soe_variant"), "plsql21");
  auto after = Parse({"--config_file", jdbc, "--soe_variant", "plsql21"});
  ASSERT_TRUE(after->status.ok()) << after->status.message();
  EXPECT_EQ(after->options.GetString("soe_variant"), "plsql21");
  SoeWorkload later;
  ASSERT_TRUE(later.Configure(after->options).ok());
  EXPECT_NE(later.Choices()["soe_variant"].find("given on the command line"), std::string::npos)
      << later.Choices()["soe_variant"];
  SoeWorkload w;
  ASSERT_TRUE(w.Configure(p->options).ok());
  EXPECT_EQ(w.Choices()["soe_variant"].rfind("jdbc:", 0), 0u) << w.Choices()["soe_variant"];
  auto paper = Parse({"--config_file", kPaper});  // orderentryplsql classes, none V2
  ASSERT_TRUE(paper->status.ok());
  EXPECT_EQ(paper->options.GetString("soe_variant"), "plsql20");
}

// A configuration of `classes` (the last part after the family), one transaction each.
std::string ClassesConfig(const std::string& name, const std::vector<std::string>& classes) {
  std::string xml = "<SwingBenchConfiguration><Load><TransactionList>\n";
  for (const std::string& c : classes) {
    xml += "<Transaction><ClassName>com.dom.benchmarking.swingbench." + c +
           "</ClassName><Weight>10</Weight></Transaction>\n";
  }
  return WriteFile(name, xml + "</TransactionList></Load></SwingBenchConfiguration>\n");
}

// Every class family runs the variant whose original it calls, or is refused with a sentence
// naming the class and the option that runs it anyway; never the default by guess.
TEST(SwingbenchConfig, EachClassFamilyChoosesItsVariantOrIsRefused) {
  const std::pair<std::vector<std::string>, const char*> chosen[] = {
      {{"benchmarks.orderentryplsql.NewCustomerProcessV2",
        "benchmarks.orderentryplsql.BrowseProducts"},
       "plsql21"},
      {{"benchmarks.orderentryplsql.NewCustomerProcess",
        "benchmarks.orderentryplsql.BrowseProducts"},
       "plsql20"},
      {{"plsqltransactions.NewCustomerProcess", "plsqltransactions.BrowseProducts"}, "plsql20"},
      {{"benchmarks.orderentryjdbc.NewCustomerProcess"}, "jdbc"},
  };
  int i = 0;
  for (const auto& [classes, variant] : chosen) {
    auto p = Parse(
        {"--config_file", ClassesConfig("soe_family" + std::to_string(i++) + ".xml", classes)});
    ASSERT_TRUE(p->status.ok()) << p->status.message();
    EXPECT_EQ(p->options.GetString("soe_variant"), variant) << classes[0];
    SoeWorkload w;
    ASSERT_TRUE(w.Configure(p->options).ok());
    EXPECT_NE(w.Choices()["soe_variant"].find("chosen by the configuration"), std::string::npos)
        << w.Choices()["soe_variant"];
  }
  const std::vector<std::string> refused[] = {
      // Swingbench's older client-side classes, and a mix of families.
      {"transactions.NewCustomerProcess", "transactions.BrowseProducts"},
      {"benchmarks.orderentryjdbc.BrowseProducts", "benchmarks.orderentryplsql.ProcessOrders"},
      {"benchmarks.orderentrytruecache.BrowseProducts"},
  };
  for (const auto& classes : refused) {
    const std::string path = ClassesConfig("soe_family" + std::to_string(i++) + ".xml", classes);
    auto p = Parse({"--config_file", path});
    ASSERT_TRUE(p->status.ok()) << p->status.message();
    SoeWorkload w;
    const Status s = w.Configure(p->options);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << classes[0];
    EXPECT_NE(s.message().find("--soe_variant"), std::string::npos) << s.message();
    EXPECT_NE(s.message().find(path + ":"), std::string::npos) << s.message();
    // A variant given on the command line runs it.
    auto given = Parse({"--config_file", path, "--soe_variant", "jdbc"});
    ASSERT_TRUE(given->status.ok());
    SoeWorkload g;
    EXPECT_TRUE(g.Configure(given->options).ok()) << classes[0];
  }
}

// Swingbench counts a timeout or deadlock as a failed transaction at once: a configuration file
// sets --retries 0 (one try per call), unless the command line gives --retries before it or
// after it; without a file the driver's 9 retries stay.
TEST(SwingbenchConfig, AConfigurationRetriesNothingUnlessTheCommandLineSays) {
  const std::pair<std::vector<std::string>, int> cases[] = {
      {{}, 10},
      {{"--config_file", kPaper}, 1},
      {{"--retries", "2", "--config_file", kPaper}, 3},
      {{"--config_file", kPaper, "--retries", "4"}, 5},
  };
  for (const auto& [args, tries] : cases) {
    auto p = Parse(args);
    ASSERT_TRUE(p->status.ok()) << p->status.message();
    SoeWorkload w;
    ASSERT_TRUE(w.Configure(p->options).ok());
    EXPECT_EQ(w.max_failures(), tries) << args.size();
    EXPECT_EQ(w.Choices()["retries"].rfind(std::to_string(tries - 1), 0), 0u)
        << w.Choices()["retries"];
  }
}

// Every element is honoured, listed as not honoured with its name and line, or refused: a
// misspelled Load or Transaction element is noted; booleans read as Java's parseBoolean; a
// transaction listed twice and another benchmark's class are refused; h:mm:ss is a time.
TEST(SwingbenchConfig, EveryElementIsHonouredNotedOrRefused) {
  const std::string path =
      WriteFile("soe_elements.xml",
                "<SwingBenchConfiguration>\n"
                "<Load><NumberOfUsers>4</NumberOfUsers>\n"
                "<MinDlay>10</MinDlay>\n"
                "<RunTime>0:5:30</RunTime>\n"
                "<TransactionList>\n"
                "<Transaction><ShortName>BP</ShortName><Weight>5</Weight><Enabled>False</Enabled>"
                "</Transaction>\n"
                "<Transaction><ShortName>PO</ShortName><Weight>7</Weight><Enabled>TRUE</Enabled>"
                "<Wieght>3</Wieght></Transaction>\n"
                "</TransactionList></Load>\n"
                "<Preferences><TimingsIncludeSleep>True</TimingsIncludeSleep></Preferences>\n"
                "</SwingBenchConfiguration>\n");
  auto p = Parse({"--config_file", path});
  ASSERT_TRUE(p->status.ok()) << p->status.message();
  const config::OptionSet& o = p->options;
  EXPECT_EQ(o.GetInt("weight_bp"), 0);  // Enabled False
  EXPECT_EQ(o.GetInt("weight_po"), 7);
  EXPECT_EQ(o.GetDurationNanos("run_time"), 330 * kNanosPerSecond);
  EXPECT_TRUE(o.GetBool("timings_include_sleep"));
  EXPECT_EQ(o.GetInt("min_delay"), 0);
  const std::string& notes = o.GetString("soe_config_not_honoured");
  EXPECT_NE(notes.find("Load/MinDlay (" + path + ":3"), std::string::npos) << notes;
  EXPECT_NE(notes.find("Transaction/Wieght (" + path + ":7"), std::string::npos) << notes;

  const std::string twice =
      WriteFile("soe_twice.xml",
                "<SwingBenchConfiguration><Load><TransactionList>\n"
                "<Transaction><ShortName>BP</ShortName><Weight>5</Weight></Transaction>\n"
                "<Transaction><ShortName>BP</ShortName><Weight>9</Weight></Transaction>\n"
                "</TransactionList></Load></SwingBenchConfiguration>\n");
  auto t = Parse({"--config_file", twice});
  EXPECT_EQ(t->status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(t->status.message().find("listed twice (" + twice + ":2 and " + twice + ":3)"),
            std::string::npos)
      << t->status.message();

  const std::string foreign =
      WriteFile("soe_foreign.xml",
                "<SwingBenchConfiguration><Load><TransactionList>\n"
                "<Transaction><Id>Update Customer Details</Id><ShortName>UCD</ShortName><ClassName>"
                "com.dom.benchmarking.swingbench.benchmarks.callingcircle.UpdateCustomerDetails"
                "</ClassName><Weight>5</Weight></Transaction>\n"
                "</TransactionList></Load></SwingBenchConfiguration>\n");
  auto f = Parse({"--config_file", foreign});
  EXPECT_EQ(f->status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(f->status.message().find("not one of Order Entry's"), std::string::npos)
      << f->status.message();
}

// Users and connections are separate limits: 5000 users on a pool of 80 are 80 connections,
// as --soe_users 5000 --n_threads 80 are.
TEST(SwingbenchConfig, ManyUsersOnASmallPoolAreNotConnections) {
  const std::string path = WriteFile(
      "soe_many_users.xml",
      "<SwingBenchConfiguration><Connection><ConnectionPooling>"
      "<PooledMaxLimit>80</PooledMaxLimit></ConnectionPooling></Connection>\n"
      "<Load><NumberOfUsers>5000</NumberOfUsers></Load></SwingBenchConfiguration>\n");
  auto p = Parse({"--config_file", path});
  ASSERT_TRUE(p->status.ok()) << p->status.message();
  EXPECT_EQ(p->options.GetInt("soe_users"), 5000);
  EXPECT_EQ(p->options.GetInt("n_threads"), 80);
}

TEST(SwingbenchConfig, MalformedXmlIsRefusedWithItsLine) {
  const std::string path = WriteFile("soe_bad.xml",
                                     "<?xml version=\"1.0\"?>\n"
                                     "<SwingBenchConfiguration>\n"
                                     "  <Load>\n"
                                     "    <NumberOfUsers>8</NumberOfUsers>\n"
                                     "    <MinDelay>5</MaxDelay>\n"
                                     "  </Load>\n"
                                     "</SwingBenchConfiguration>\n");
  auto p = Parse({"--config_file", path});
  ASSERT_FALSE(p->status.ok());
  EXPECT_EQ(p->status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(p->status.message().find(path + ":5"), std::string::npos) << p->status.message();
}

TEST(SwingbenchConfig, BadValuesAreRefusedWithTheirLine) {
  const std::string path = WriteFile("soe_negative.xml",
                                     "<SwingBenchConfiguration>\n"
                                     "  <Load>\n"
                                     "    <TransactionList>\n"
                                     "      <Transaction><ShortName>BP</ShortName>\n"
                                     "        <Weight>-3</Weight><Enabled>true</Enabled>\n"
                                     "      </Transaction>\n"
                                     "    </TransactionList>\n"
                                     "  </Load>\n"
                                     "</SwingBenchConfiguration>\n");
  auto p = Parse({"--config_file", path});
  ASSERT_FALSE(p->status.ok());
  EXPECT_NE(p->status.message().find(path + ":5"), std::string::npos) << p->status.message();
  const std::string other =
      WriteFile("soe_other.xml",
                "<SwingBenchConfiguration><Load><TransactionList>"
                "<Transaction><Id>TPC-DS query</Id><ClassName>a.Q1</ClassName>"
                "</Transaction></TransactionList></Load>"
                "</SwingBenchConfiguration>\n");
  auto q = Parse({"--config_file", other});
  ASSERT_FALSE(q->status.ok());
  EXPECT_NE(q->status.message().find("not one of Order Entry's"), std::string::npos);
  const std::string root = WriteFile("soe_root.xml", "<Results/>\n");
  auto r = Parse({"--config_file", root});
  ASSERT_FALSE(r->status.ok());
  EXPECT_NE(r->status.message().find("not a Swingbench configuration"), std::string::npos);
}

TEST(SwingbenchConfig, XmlWithoutAReaderIsRefused) {
  config::OptionSet o;  // no workload that reads XML declared
  const Status s = config::ParseCommandLine({"--config_file", kPaper}, &o);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("--workload soe"), std::string::npos) << s.message();
}

TEST(SwingbenchConfig, MaxTransactionsAndStatisticsWindow) {
  const std::string path = WriteFile("soe_window.xml",
                                     "<SwingBenchConfiguration><Load>\n"
                                     "<NumberOfUsers>3</NumberOfUsers>\n"
                                     "<MaxTransactions>10</MaxTransactions>\n"
                                     "<RunTime>1:10</RunTime>\n"
                                     "<StatsCollectionStart>0:5</StatsCollectionStart>\n"
                                     "<StatsCollectionEnd>0:50</StatsCollectionEnd>\n"
                                     "<LogonGroupCount>3</LogonGroupCount>\n"
                                     "<LogonDelay>500</LogonDelay>\n"
                                     "</Load></SwingBenchConfiguration>\n");
  auto p = Parse({"--config_file", path});
  ASSERT_TRUE(p->status.ok()) << p->status.message();
  EXPECT_EQ(p->options.GetInt("units_per_thread"), 4);  // ceil(10 / 3)
  EXPECT_EQ(p->options.GetDurationNanos("warmup_time"), 5 * 60 * kNanosPerSecond);
  EXPECT_EQ(p->options.GetDurationNanos("run_time"), 45 * 60 * kNanosPerSecond);
  EXPECT_EQ(p->options.GetInt("ramp_rate"), 2);  // groups of 1 user, 500 ms apart
  EXPECT_NE(p->options.GetString("soe_config_not_honoured").find("MaxTransactions 10"),
            std::string::npos);
}

// A pool smaller than the users: the users share PooledMaxLimit connections (--soe_users and
// --n_threads); the paper's pool of 80 for 80 users stays a connection per user.
TEST(SwingbenchConfig, ConnectionPoolSmallerThanTheUsers) {
  const std::string path =
      WriteFile("soe_pool.xml",
                "<SwingBenchConfiguration>\n"
                "<Connection><ConnectionPooling>\n"
                "<PooledInitialLimit>8</PooledInitialLimit>\n"
                "<PooledMaxLimit>8</PooledMaxLimit>\n"
                "<PooledConnectionWaitTimeout>5</PooledConnectionWaitTimeout>\n"
                "</ConnectionPooling></Connection>\n"
                "<Load><NumberOfUsers>40</NumberOfUsers></Load>\n"
                "</SwingBenchConfiguration>\n");
  auto p = Parse({"--config_file", path});
  ASSERT_TRUE(p->status.ok()) << p->status.message();
  EXPECT_EQ(p->options.GetInt("soe_users"), 40);
  EXPECT_EQ(p->options.GetInt("n_threads"), 8);
  const std::string& notes = p->options.GetString("soe_config_not_honoured");
  EXPECT_NE(notes.find("PooledConnectionWaitTimeout"), std::string::npos) << notes;
  EXPECT_EQ(notes.find("PooledInitialLimit"), std::string::npos) << notes;
  auto paper = Parse({"--config_file", kPaper});
  ASSERT_TRUE(paper->status.ok());
  EXPECT_EQ(paper->options.GetInt("soe_users"), 0);
  EXPECT_EQ(paper->options.GetInt("n_threads"), 80);
}

}  // namespace
}  // namespace sb::soe
