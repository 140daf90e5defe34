#include "power/ipmi_source.h"

#include <freeipmi/freeipmi.h>

#include <chrono>
#include <utility>
#include <vector>

namespace sb::power {

namespace {

// Owns a fiid object.
struct FiidObj {
  fiid_obj_t obj = nullptr;
  explicit FiidObj(fiid_template_t tmpl) : obj(fiid_obj_create(tmpl)) {}
  ~FiidObj() {
    if (obj != nullptr) fiid_obj_destroy(obj);
  }
  FiidObj(const FiidObj&) = delete;
  FiidObj& operator=(const FiidObj&) = delete;
};

}  // namespace

Result<DcmiPowerReading> ParseDcmiPowerReading(const uint8_t* data, size_t size) {
  FiidObj rs(tmpl_cmd_dcmi_get_power_reading_rs);
  if (rs.obj == nullptr) return Status::Internal("cannot create a FreeIPMI object");
  if (size < 2) return Status::IoError("the DCMI power reading response is empty");
  if (fiid_obj_set_all(rs.obj, data, static_cast<unsigned int>(size)) < 0) {
    return Status::IoError(std::string("cannot parse the DCMI power reading response: ") +
                           fiid_obj_errormsg(rs.obj));
  }
  uint64_t v = 0;
  const auto get = [&](const char* field) -> bool { return fiid_obj_get(rs.obj, field, &v) == 1; };
  if (!get("comp_code")) return Status::IoError("the DCMI response has no completion code");
  if (v != 0) {
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "the BMC refused the DCMI power reading (completion code 0x%02X%s)",
                  static_cast<unsigned>(v),
                  v == 0xC1 ? ": command not supported, the BMC has no DCMI power reading" : "");
    return Status::IoError(buf);
  }
  const int full = fiid_template_len_bytes(tmpl_cmd_dcmi_get_power_reading_rs);
  if (static_cast<int>(size) < full) {
    return Status::IoError("the DCMI power reading response is " + std::to_string(size) +
                           " bytes, not " + std::to_string(full));
  }
  if (!get("group_extension_identification") ||
      v != IPMI_NET_FN_GROUP_EXTENSION_IDENTIFICATION_DCMI) {
    return Status::IoError("the response is not a DCMI one (group extension is not 0xDC)");
  }
  DcmiPowerReading r;
  get("current_power");
  r.current_w = static_cast<uint16_t>(v);
  get("minimum_power_over_sampling_duration");
  r.minimum_w = static_cast<uint16_t>(v);
  get("maximum_power_over_sampling_duration");
  r.maximum_w = static_cast<uint16_t>(v);
  get("average_power_over_sampling_duration");
  r.average_w = static_cast<uint16_t>(v);
  get("time_stamp");
  r.time_stamp = static_cast<uint32_t>(v);
  get("statistics_reporting_time_period");
  r.period_ms = static_cast<uint32_t>(v);
  get("power_reading_state.power_measurement");
  r.measurement_active = v != 0;
  if (!r.measurement_active) {
    return Status::IoError("the BMC reports its power measurement as not active");
  }
  return r;
}

namespace {

class IpmiSource final : public PowerSource {
 public:
  explicit IpmiSource(PowerSpec spec) : spec_(std::move(spec)) {
    caps_.measures = Measures::kWall;
    caps_.resolution_w = 1;
    caps_.note = "BMC-reported (DCMI); accuracy and averaging are the vendor's";
  }
  ~IpmiSource() override { Close(); }

  Status Open() override {
    const std::string what =
        "power source " +
        (spec_.has_authority ? "ipmi://" + spec_.user + "@" + spec_.host : "ipmi");
    ctx_ = ipmi_ctx_create();
    if (ctx_ == nullptr) return Status::Internal(what + ": cannot create a FreeIPMI context");
    if (spec_.has_authority) {
      if (spec_.user.empty()) {
        return Status::InvalidArgument(what + " names no user (ipmi://user@host)");
      }
      auto pw = ReadPassword(spec_, what);
      if (!pw.ok()) return pw.status();
      if (ipmi_ctx_open_outofband_2_0(ctx_, spec_.host.c_str(), spec_.user.c_str(), pw->c_str(),
                                      nullptr, 0, IPMI_PRIVILEGE_LEVEL_USER, 3, 0, 0,
                                      IPMI_WORKAROUND_FLAGS_DEFAULT, IPMI_FLAGS_DEFAULT) < 0) {
        const std::string e = ipmi_ctx_errormsg(ctx_);
        Close();
        return Status::FailedPrecondition(what + ": cannot open an IPMI 2.0 session (" + e + ")");
      }
    } else {
      const int found = ipmi_ctx_find_inband(ctx_, nullptr, 0, 0, 0, nullptr,
                                             IPMI_WORKAROUND_FLAGS_DEFAULT, IPMI_FLAGS_DEFAULT);
      if (found != 1) {
        const std::string e = found < 0 ? ipmi_ctx_errormsg(ctx_) : "no IPMI driver found";
        Close();
        return Status::FailedPrecondition(
            what + ": no local BMC (" + e +
            "; virtual machines have none, and /dev/ipmi0 needs the ipmi_si and ipmi_devintf "
            "modules and root)");
      }
    }
    auto r = Read();
    if (!r.ok()) {
      Close();
      return Status::FailedPrecondition(what + ": " + r.status().message());
    }
    return Status::Ok();
  }

  Result<PowerReading> Read() override {
    if (ctx_ == nullptr) return Status::IoError("no IPMI session");
    FiidObj rs(tmpl_cmd_dcmi_get_power_reading_rs);
    if (ipmi_cmd_dcmi_get_power_reading(ctx_, IPMI_DCMI_POWER_READING_MODE_SYSTEM_POWER_STATISTICS,
                                        0, rs.obj) < 0) {
      // A refusal still carries its completion code: let the parser word it.
      if (ipmi_ctx_errnum(ctx_) != IPMI_ERR_BAD_COMPLETION_CODE) {
        return Status::IoError(std::string("DCMI power reading: ") + ipmi_ctx_errormsg(ctx_));
      }
    }
    std::vector<uint8_t> bytes(
        static_cast<size_t>(fiid_template_len_bytes(tmpl_cmd_dcmi_get_power_reading_rs)));
    const int n = fiid_obj_get_all(rs.obj, bytes.data(), static_cast<unsigned int>(bytes.size()));
    if (n < 0) return Status::IoError("cannot read the DCMI response");
    auto parsed = ParseDcmiPowerReading(bytes.data(), static_cast<size_t>(n));
    if (!parsed.ok()) return parsed.status();
    PowerReading r;
    r.has_watts = true;
    r.watts = parsed->current_w;
    if (parsed->time_stamp != 0) {
      r.has_clock_offset = true;
      r.clock_offset_sec = static_cast<double>(parsed->time_stamp) - UnixNow();
    }
    return r;
  }

  void Close() override {
    if (ctx_ != nullptr) {
      ipmi_ctx_close(ctx_);
      ipmi_ctx_destroy(ctx_);
      ctx_ = nullptr;
    }
  }

  const PowerCapabilities& capabilities() const override { return caps_; }
  const std::string& spec() const override { return spec_.text; }
  std::string Describe() const override {
    return spec_.has_authority
               ? "BMC " + spec_.host + " over IPMI 2.0 (DCMI power reading), user " + spec_.user
               : "local BMC (DCMI power reading)";
  }

 private:
  PowerSpec spec_;
  PowerCapabilities caps_;
  ipmi_ctx_t ctx_ = nullptr;
};

}  // namespace

std::unique_ptr<PowerSource> MakeIpmiSource(const PowerSpec& spec) {
  return std::make_unique<IpmiSource>(spec);
}

}  // namespace sb::power
