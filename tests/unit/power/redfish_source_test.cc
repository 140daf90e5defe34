// redfish:// against Redfish documents served from loopback (cpp-httplib's server): the legacy
// Power resource, the PowerSubsystem with its power supplies, the chassis walk, HTTP basic
// authentication with the password from an environment variable, and refusals.
#include "power/redfish_source.h"

#include <gtest/gtest.h>
#include <httplib.h>
#include <stdlib.h>

#include <ctime>
#include <map>
#include <string>
#include <thread>

#include "power/power_spec.h"

namespace sb::power {
namespace {

constexpr char kPassword[] = "s3cret-Redfish-pw";

std::string Base64(const std::string& in) {
  static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(in[i]) << 16) |
                       (static_cast<unsigned char>(in[i + 1]) << 8) |
                       static_cast<unsigned char>(in[i + 2]);
    out += {k[(v >> 18) & 63], k[(v >> 12) & 63], k[(v >> 6) & 63], k[v & 63]};
  }
  if (i + 1 == in.size()) {
    const unsigned v = static_cast<unsigned char>(in[i]) << 16;
    out += {k[(v >> 18) & 63], k[(v >> 12) & 63], '=', '='};
  } else if (i + 2 == in.size()) {
    const unsigned v =
        (static_cast<unsigned char>(in[i]) << 16) | (static_cast<unsigned char>(in[i + 1]) << 8);
    out += {k[(v >> 18) & 63], k[(v >> 12) & 63], k[(v >> 6) & 63], '='};
  }
  return out;
}

// A BMC on loopback serving fixed documents, requiring basic auth "admin:<kPassword>" when
// `auth` is set.
class FakeBmc {
 public:
  FakeBmc(std::map<std::string, std::string> docs, bool auth) : docs_(std::move(docs)) {
    server_.Get(".*", [this, auth](const httplib::Request& req, httplib::Response& res) {
      if (auth) {
        const std::string want = "Basic " + Base64(std::string("admin:") + kPassword);
        if (req.get_header_value("Authorization") != want) {
          res.status = 401;
          return;
        }
      }
      auto it = docs_.find(req.path);
      if (it == docs_.end()) {
        res.status = 404;
        return;
      }
      // A BMC whose clock runs an hour ahead.
      const std::time_t ahead = std::time(nullptr) + 3600;
      char date[64];
      std::strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S GMT", std::gmtime(&ahead));
      res.set_header("Date", date);
      res.set_content(it->second, "application/json");
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    // Bound and listening already: connections wait in the backlog until the loop accepts.
    thread_ = std::thread([this] { server_.listen_after_bind(); });
  }
  ~FakeBmc() {
    server_.stop();
    thread_.join();
  }
  int port() const { return port_; }

 private:
  std::map<std::string, std::string> docs_;
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
};

const std::map<std::string, std::string> kLegacy = {
    {"/redfish/v1/Chassis",
     R"({"Members": [{"@odata.id": "/redfish/v1/Chassis/1U"}], "Members@odata.count": 1})"},
    {"/redfish/v1/Chassis/1U",
     R"({"Id": "1U", "Power": {"@odata.id": "/redfish/v1/Chassis/1U/Power"}})"},
    {"/redfish/v1/Chassis/1U/Power",
     R"({"@odata.type": "#Power.v1_7_1.Power", "PowerControl": [{"Name": "System Power Control",
        "PowerConsumedWatts": 344, "PowerMetrics": {"IntervalInMin": 20,
        "AverageConsumedWatts": 319}}, {"Name": "CPU", "PowerConsumedWatts": 120}]})"},
};

const std::map<std::string, std::string> kSubsystem = {
    {"/redfish/v1/Chassis/1",
     R"({"PowerSubsystem": {"@odata.id": "/redfish/v1/Chassis/1/PowerSubsystem"}})"},
    {"/redfish/v1/Chassis/1/PowerSubsystem",
     R"({"@odata.type": "#PowerSubsystem.v1_1_0.PowerSubsystem", "CapacityWatts": 1600,
        "PowerSupplies": {"@odata.id": "/redfish/v1/Chassis/1/PowerSubsystem/PowerSupplies"}})"},
    {"/redfish/v1/Chassis/1/PowerSubsystem/PowerSupplies",
     R"({"Members": [{"@odata.id": "/redfish/v1/Chassis/1/PowerSubsystem/PowerSupplies/0"},
                     {"@odata.id": "/redfish/v1/Chassis/1/PowerSubsystem/PowerSupplies/1"}]})"},
    {"/redfish/v1/Chassis/1/PowerSubsystem/PowerSupplies/0",
     R"({"Metrics": {"@odata.id": "/redfish/v1/Chassis/1/PowerSubsystem/PowerSupplies/0/Metrics"}})"},
    {"/redfish/v1/Chassis/1/PowerSubsystem/PowerSupplies/1",
     R"({"Metrics": {"@odata.id": "/redfish/v1/Chassis/1/PowerSubsystem/PowerSupplies/1/Metrics"}})"},
    {"/redfish/v1/Chassis/1/PowerSubsystem/PowerSupplies/0/Metrics",
     R"({"InputPowerWatts": {"Reading": 201.5}})"},
    {"/redfish/v1/Chassis/1/PowerSubsystem/PowerSupplies/1/Metrics",
     R"({"InputPowerWatts": {"Reading": 198.25}})"},
};

std::unique_ptr<PowerSource> Make(const std::string& text) {
  auto spec = ParsePowerSpec(text);
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  return MakeRedfishSource(*spec);
}

TEST(RedfishDocumentWatts, ReadsEachKindOfDocument) {
  EXPECT_DOUBLE_EQ(*RedfishDocumentWatts(kLegacy.at("/redfish/v1/Chassis/1U/Power"), 0), 344);
  EXPECT_DOUBLE_EQ(*RedfishDocumentWatts(kLegacy.at("/redfish/v1/Chassis/1U/Power"), 1), 120);
  EXPECT_DOUBLE_EQ(*RedfishDocumentWatts(R"({"PowerWatts": {"Reading": 512.5}})", 0), 512.5);
  EXPECT_EQ(RedfishDocumentWatts(R"({"Id": "1"})", 0).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(RedfishDocumentWatts("<html>", 0).status().code(), StatusCode::kInvalidArgument);
  // A BMC that reports null (the sensor is not ready) has no reading.
  auto null_reading =
      RedfishDocumentWatts(R"({"PowerControl": [{"PowerConsumedWatts": null}]})", 0);
  ASSERT_FALSE(null_reading.ok());
  EXPECT_NE(null_reading.status().message().find("null"), std::string::npos);
}

TEST(RedfishSource, WalksFromTheChassisCollectionToThePowerResource) {
  FakeBmc bmc(kLegacy, /*auth=*/true);
  setenv("SB_TEST_REDFISH_PW", kPassword, 1);
  auto src = Make("redfish://admin@127.0.0.1:" + std::to_string(bmc.port()) +
                  "?scheme=http&password_env=SB_TEST_REDFISH_PW");
  Status s = src->Open();
  ASSERT_TRUE(s.ok()) << s.message();
  auto r = src->Read();
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_DOUBLE_EQ(r->watts, 344);
  ASSERT_TRUE(r->has_clock_offset);  // from the Date header
  EXPECT_NEAR(r->clock_offset_sec, 3600, 5);
  EXPECT_NE(src->Describe().find("/redfish/v1/Chassis/1U/Power"), std::string::npos);
  // The password is in no text the source gives out.
  EXPECT_EQ(src->Describe().find(kPassword), std::string::npos);
  EXPECT_EQ(src->spec().find(kPassword), std::string::npos);
}

TEST(RedfishSource, SumsThePowerSuppliesOfAPowerSubsystem) {
  FakeBmc bmc(kSubsystem, /*auth=*/false);
  auto src = Make("redfish://127.0.0.1:" + std::to_string(bmc.port()) +
                  "/redfish/v1/Chassis/1?scheme=http");
  Status s = src->Open();
  ASSERT_TRUE(s.ok()) << s.message();
  auto r = src->Read();
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_DOUBLE_EQ(r->watts, 201.5 + 198.25);
}

TEST(RedfishSource, AWrongPasswordFailsOpenWithoutShowingIt) {
  FakeBmc bmc(kLegacy, /*auth=*/true);
  setenv("SB_TEST_REDFISH_WRONG", "not-the-password", 1);
  auto src = Make("redfish://admin@127.0.0.1:" + std::to_string(bmc.port()) +
                  "?scheme=http&password_env=SB_TEST_REDFISH_WRONG");
  Status s = src->Open();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("HTTP 401"), std::string::npos) << s.message();
  EXPECT_EQ(s.message().find("not-the-password"), std::string::npos) << s.message();
}

TEST(RedfishSource, AUserWithoutAPasswordSourceIsRefused) {
  auto src = Make("redfish://admin@127.0.0.1:1?scheme=http");
  Status s = src->Open();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("password_file"), std::string::npos) << s.message();
}

TEST(RedfishSource, APathWithoutAReadingIsRefused) {
  FakeBmc bmc({{"/redfish/v1/Systems/1", R"({"Id": "1"})"}}, false);
  auto src = Make("redfish://127.0.0.1:" + std::to_string(bmc.port()) +
                  "/redfish/v1/Systems/1?scheme=http");
  Status s = src->Open();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("no power reading"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace sb::power
