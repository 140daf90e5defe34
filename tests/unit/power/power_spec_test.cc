// Power source specs: the URL-like forms, credentials from files and environment variables, and
// passwords refused (without being repeated) when given on the command line.
#include "power/power_spec.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "power/registry.h"

namespace sb::power {
namespace {

TEST(PowerSpec, ParsesTheForms) {
  auto p = ParsePowerSpec("ptd://meter1:8889");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->scheme, "ptd");
  EXPECT_TRUE(p->has_authority);
  EXPECT_EQ(p->host, "meter1");
  EXPECT_EQ(p->port, 8889);

  p = ParsePowerSpec("ipmi://admin@bmc1.lab?password_file=/root/pw");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->user, "admin");
  EXPECT_EQ(p->host, "bmc1.lab");
  EXPECT_EQ(p->port, 0);
  EXPECT_EQ(p->Option("password_file"), "/root/pw");

  p = ParsePowerSpec("redfish://[fe80::1]:8443/redfish/v1/Chassis/1/Power?insecure=1");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->host, "fe80::1");
  EXPECT_EQ(p->port, 8443);
  EXPECT_EQ(p->path, "/redfish/v1/Chassis/1/Power");
  EXPECT_EQ(p->Option("insecure"), "1");

  p = ParsePowerSpec("csv:/logs/a b.csv?time=Date+Time&watts=P-1&offset=-2.5");
  ASSERT_TRUE(p.ok());
  EXPECT_FALSE(p->has_authority);
  EXPECT_EQ(p->body, "/logs/a b.csv");
  EXPECT_EQ(p->Option("time"), "Date+Time");
  EXPECT_EQ(p->Option("offset"), "-2.5");

  p = ParsePowerSpec("rapl:");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->scheme, "rapl");
  EXPECT_TRUE(p->body.empty());

  // A command is taken whole, '?' and '&' included; the quotes the shell left are removed.
  p = ParsePowerSpec("cmd:\"curl -s 'http://pdu/x?a=1&b=2' | cut -d, -f3\"");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->body, "curl -s 'http://pdu/x?a=1&b=2' | cut -d, -f3");
  EXPECT_TRUE(p->options.empty());
}

TEST(PowerSpec, BadSpecsAreOneSentence) {
  EXPECT_EQ(ParsePowerSpec("meter1").status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(ParsePowerSpec("ptd://m:99999").status().message().find("bad port"), std::string::npos);
  EXPECT_NE(ParsePowerSpec("ptd://:8888").status().message().find("names no host"),
            std::string::npos);
  EXPECT_NE(ParsePowerSpec("csv:x?offset").status().message().find("not key=value"),
            std::string::npos);
}

TEST(PowerSpec, APasswordInTheSpecIsRefusedAndNeverRepeated) {
  for (const std::string text :
       {"ipmi://admin:hunter2pw@bmc1", "redfish://admin:hunter2pw@bmc1/redfish/v1?x",
        "redfish://bmc1?password=hunter2pw", "ipmi://admin:hunter2pw@bmc1?bad"}) {
    auto p = ParsePowerSpec(text);
    ASSERT_FALSE(p.ok()) << text;
    EXPECT_EQ(p.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(p.status().message().find("password_file"), std::string::npos);
    EXPECT_EQ(p.status().message().find("hunter2pw"), std::string::npos) << p.status().message();
  }
}

TEST(ReadPassword, FromAFileOrAnEnvironmentVariable) {
  const std::string dir = std::string(STOREBENCH_TEST_TMP) + "/power";
  std::filesystem::create_directories(dir);
  const std::string file = dir + "/pw-" + std::to_string(getpid());
  std::ofstream(file) << "from-file-pw\n";
  auto spec = ParsePowerSpec("ipmi://admin@bmc?password_file=" + file);
  ASSERT_TRUE(spec.ok());
  EXPECT_EQ(*ReadPassword(*spec, "power source ipmi://admin@bmc"), "from-file-pw");
  std::filesystem::remove(file);

  setenv("SB_TEST_POWER_PW", "from-env-pw", 1);
  spec = ParsePowerSpec("ipmi://admin@bmc?password_env=SB_TEST_POWER_PW");
  EXPECT_EQ(*ReadPassword(*spec, "x"), "from-env-pw");

  spec = ParsePowerSpec("ipmi://admin@bmc?password_env=SB_TEST_POWER_UNSET_VARIABLE");
  auto missing = ReadPassword(*spec, "power source ipmi://admin@bmc");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("SB_TEST_POWER_UNSET_VARIABLE"), std::string::npos);

  spec = ParsePowerSpec("ipmi://admin@bmc");
  EXPECT_EQ(ReadPassword(*spec, "x").status().code(), StatusCode::kInvalidArgument);
}

PowerRegistry Registry() {
  PowerRegistry r;
  for (const char* s : {"ptd", "rapl", "cmd", "csv"}) {
    r.Register(s, std::string(s) + ":",
               [](const PowerSpec&, Clock&) { return std::unique_ptr<PowerSource>(); });
  }
  return r;
}

TEST(PowerRegistry, AnUnknownSchemeNamesTheKnownOnes) {
  SteadyClock clock;
  auto s = Registry().Create("snmp://pdu1", clock);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.status().message().find("'snmp:...' has an unknown scheme"), std::string::npos)
      << s.status().message();
  EXPECT_NE(s.status().message().find("ptd:"), std::string::npos);
}

TEST(SplitPowerSpecs, SplitsOnlyBeforeAKnownScheme) {
  const PowerRegistry r = Registry();
  EXPECT_EQ(SplitPowerSpecs("rapl:,ptd://m:8888", r),
            (std::vector<std::string>{"rapl:", "ptd://m:8888"}));
  EXPECT_EQ(SplitPowerSpecs("cmd:awk -F, '{print $2}' f,rapl:", r),
            (std::vector<std::string>{"cmd:awk -F, '{print $2}' f", "rapl:"}));
  EXPECT_EQ(SplitPowerSpecs("csv:/a.csv?time=t,x:y", r),
            (std::vector<std::string>{"csv:/a.csv?time=t,x:y"}));
}

}  // namespace
}  // namespace sb::power
