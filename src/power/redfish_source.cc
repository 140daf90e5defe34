#include "power/redfish_source.h"

#include <httplib.h>

#include <chrono>
#include <ctime>
#include <nlohmann/json.hpp>
#include <vector>

#include "power/http_error.h"

namespace sb::power {

using Json = nlohmann::json;

namespace {

// A number at j[key] or j[key]["Reading"].
bool Reading(const Json& j, const char* key, double* out) {
  if (!j.is_object() || !j.contains(key)) return false;
  const Json& v = j[key];
  if (v.is_number()) {
    *out = v.get<double>();
    return true;
  }
  if (v.is_object() && v.contains("Reading") && v["Reading"].is_number()) {
    *out = v["Reading"].get<double>();
    return true;
  }
  return false;
}

std::string Link(const Json& j, const char* key) {
  if (j.is_object() && j.contains(key) && j[key].is_object() && j[key].contains("@odata.id") &&
      j[key]["@odata.id"].is_string()) {
    return j[key]["@odata.id"].get<std::string>();
  }
  return "";
}

std::vector<std::string> Members(const Json& j) {
  std::vector<std::string> out;
  if (!j.is_object() || !j.contains("Members") || !j["Members"].is_array()) return out;
  for (const Json& m : j["Members"]) {
    if (m.is_object() && m.contains("@odata.id") && m["@odata.id"].is_string()) {
      out.push_back(m["@odata.id"].get<std::string>());
    }
  }
  return out;
}

}  // namespace

Result<double> RedfishDocumentWatts(const std::string& json_text, int member) {
  Json j = Json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Status::InvalidArgument("the document is not JSON");
  if (j.is_object() && j.contains("PowerControl") && j["PowerControl"].is_array()) {
    const Json& pc = j["PowerControl"];
    if (member < 0 || static_cast<size_t>(member) >= pc.size()) {
      return Status::InvalidArgument("PowerControl has no member " + std::to_string(member));
    }
    double w = 0;
    if (Reading(pc[static_cast<size_t>(member)], "PowerConsumedWatts", &w)) return w;
    return Status::InvalidArgument("PowerControl[" + std::to_string(member) +
                                   "] has no PowerConsumedWatts (the BMC reports null)");
  }
  double w = 0;
  if (Reading(j, "PowerWatts", &w) || Reading(j, "InputPowerWatts", &w)) return w;
  return Status::NotFound("the document holds no power reading");
}

namespace {

class RedfishSource final : public PowerSource {
 public:
  explicit RedfishSource(const PowerSpec& spec) : spec_(spec) {
    caps_.measures = Measures::kWall;
    caps_.note = "BMC-reported (Redfish); accuracy and averaging are the vendor's";
    member_ = std::atoi(spec.Option("member", "0").c_str());
    timeout_ms_ = std::atoi(spec.Option("timeout_ms", "2000").c_str());
    if (timeout_ms_ <= 0) timeout_ms_ = 2000;
  }

  Status Open() override {
    const std::string what = "power source redfish://" +
                             (spec_.user.empty() ? "" : spec_.user + "@") + spec_.host +
                             (spec_.port > 0 ? ":" + std::to_string(spec_.port) : "") + spec_.path;
    const std::string scheme = spec_.Option("scheme", "https");
    if (scheme != "https" && scheme != "http") {
      return Status::InvalidArgument(what + ": scheme='" + scheme + "' is neither https nor http");
    }
    std::string url = scheme + "://" + spec_.host;
    if (spec_.host.find(':') != std::string::npos) url = scheme + "://[" + spec_.host + "]";
    if (spec_.port > 0) url += ":" + std::to_string(spec_.port);
    // The port always shown in messages, the scheme's default included.
    base_url_ = url + (spec_.port > 0 ? "" : scheme == "https" ? ":443" : ":80");
    client_ = std::make_unique<httplib::Client>(url);
    const time_t sec = timeout_ms_ / 1000;
    const time_t usec = static_cast<time_t>(timeout_ms_ % 1000) * 1000;
    client_->set_connection_timeout(sec, usec);
    client_->set_read_timeout(sec, usec);
    if (scheme == "https") {
      if (spec_.Option("insecure") == "1") client_->enable_server_certificate_verification(false);
      if (const std::string ca = spec_.Option("ca"); !ca.empty()) client_->set_ca_cert_path(ca);
    }
    if (!spec_.user.empty()) {
      auto pw = ReadPassword(spec_, what);
      if (!pw.ok()) return pw.status();
      client_->set_basic_auth(spec_.user, *pw);
    }
    const std::string start = spec_.path.empty() ? "/redfish/v1/Chassis" : spec_.path;
    if (Status s = Resolve(start, 0); !s.ok()) {
      return Status::FailedPrecondition(what + ": " + s.message());
    }
    if (targets_.empty()) {
      return Status::FailedPrecondition(what + ": " + start + " leads to no power reading");
    }
    auto r = Read();
    if (!r.ok()) return Status::FailedPrecondition(what + ": " + r.status().message());
    return Status::Ok();
  }

  Result<PowerReading> Read() override {
    PowerReading r;
    double sum = 0;
    for (const std::string& t : targets_) {
      auto doc = Get(t, &r);
      if (!doc.ok()) return doc.status();
      auto w = RedfishDocumentWatts(*doc, member_);
      if (!w.ok()) return Status::IoError(t + ": " + w.status().message());
      sum += *w;
    }
    r.has_watts = true;
    r.watts = sum;
    return r;
  }

  const PowerCapabilities& capabilities() const override { return caps_; }
  const std::string& spec() const override { return spec_.text; }
  std::string Describe() const override {
    std::string d = "BMC " + spec_.host + " over Redfish:";
    for (const std::string& t : targets_) d += " " + t;
    return d;
  }

 private:
  // The body of GET `path`; a Date header sets the clock offset of `r` (when given).
  Result<std::string> Get(const std::string& path, PowerReading* r) {
    auto res = client_->Get(path);
    if (!res) {
      return Status::IoError(
          "GET " + path + ": " +
          HttpErrorSentence(res.error(), base_url_, static_cast<double>(timeout_ms_) / 1000));
    }
    if (res->status == 401 || res->status == 403) {
      return Status::IoError("GET " + path + ": HTTP " + std::to_string(res->status) +
                             " (check the user and password)");
    }
    if (res->status != 200) {
      return Status::IoError("GET " + path + ": HTTP " + std::to_string(res->status));
    }
    if (r != nullptr && res->has_header("Date")) {
      std::tm tm{};
      const std::string date = res->get_header_value("Date");
      if (strptime(date.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm) != nullptr) {
        r->has_clock_offset = true;
        r->clock_offset_sec = static_cast<double>(timegm(&tm)) - UnixNow();
      }
    }
    return res->body;
  }

  Status Resolve(const std::string& path, int depth) {
    if (depth > 6) return Status::FailedPrecondition("links nest too deep at " + path);
    auto body = Get(path, nullptr);
    if (!body.ok()) return body.status();
    auto w = RedfishDocumentWatts(*body, member_);
    if (w.ok()) {
      targets_.push_back(path);
      return Status::Ok();
    }
    if (w.status().code() != StatusCode::kNotFound) {
      return Status::FailedPrecondition(path + ": " + w.status().message());
    }
    const Json j = Json::parse(*body, nullptr, false);
    // A chassis links to several: the first that leads to a reading wins (a BMC may publish
    // EnvironmentMetrics without PowerWatts).
    Status first_error;
    for (const char* key : {"EnvironmentMetrics", "PowerSubsystem", "Power", "Metrics"}) {
      const std::string l = Link(j, key);
      if (l.empty()) continue;
      const size_t before = targets_.size();
      Status s = Resolve(l, depth + 1);
      if (s.ok() && targets_.size() > before) return s;
      targets_.resize(before);
      if (first_error.ok()) first_error = s;
    }
    if (!first_error.ok()) return first_error;
    if (const std::string l = Link(j, "PowerSupplies"); !l.empty()) {
      auto coll = Get(l, nullptr);
      if (!coll.ok()) return coll.status();
      for (const std::string& m : Members(Json::parse(*coll, nullptr, false))) {
        SB_RETURN_IF_ERROR(Resolve(m, depth + 1));
      }
      return Status::Ok();
    }
    const std::vector<std::string> members = Members(j);
    if (!members.empty()) return Resolve(members[0], depth + 1);
    return Status::FailedPrecondition(path + " holds no power reading and no link to one");
  }

  PowerSpec spec_;
  PowerCapabilities caps_;
  int member_ = 0;
  int timeout_ms_ = 2000;
  std::unique_ptr<httplib::Client> client_;
  std::string base_url_;
  std::vector<std::string> targets_;
};

}  // namespace

std::unique_ptr<PowerSource> MakeRedfishSource(const PowerSpec& spec) {
  return std::make_unique<RedfishSource>(spec);
}

}  // namespace sb::power
