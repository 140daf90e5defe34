#include "power/rapl_source.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace sb::power {

uint64_t EnergyDeltaUj(uint64_t before_uj, uint64_t after_uj, uint64_t max_range_uj) {
  if (after_uj >= before_uj) return after_uj - before_uj;
  // One wrap: the counter ran from `before` up to its range and restarted at 0.
  return max_range_uj > before_uj ? (max_range_uj - before_uj) + after_uj : after_uj;
}

std::string RaplReadError(const std::string& path, int err) {
  std::string m = "power source rapl: cannot read " + path + ": " + std::strerror(err);
  if (err == EACCES || err == EPERM) {
    m += "; since Linux 5.10 energy_uj is readable by root only (CVE-2020-8694): run storebench "
         "as root, or give your group read access, e.g. a udev rule SUBSYSTEM==\"powercap\", "
         "KERNEL==\"intel-rapl*\", RUN+=\"/bin/chgrp power /sys%p/energy_uj\", RUN+=\"/bin/chmod "
         "g+r "
         "/sys%p/energy_uj\" (docs/power.md)";
  }
  return m;
}

namespace {

namespace fs = std::filesystem;

struct Zone {
  std::string dir;
  std::string name;  // "package-0", "dram"
  uint64_t max_range_uj = 0;
  uint64_t last_uj = 0;
};

Result<uint64_t> ReadCounter(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::FailedPrecondition(RaplReadError(path, errno));
  char buf[32];
  const ssize_t n = ::read(fd, buf, sizeof buf - 1);
  const int err = errno;
  ::close(fd);
  if (n < 0) return Status::FailedPrecondition(RaplReadError(path, err));
  buf[n] = '\0';
  char* end = nullptr;
  const uint64_t v = std::strtoull(buf, &end, 10);
  if (end == buf) {
    return Status::FailedPrecondition("power source rapl: " + path + " does not hold a number");
  }
  return static_cast<uint64_t>(v);
}

class RaplSource final : public PowerSource {
 public:
  RaplSource(const PowerSpec& spec, Clock& clock)
      : spec_text_(spec.text),
        clock_(clock),
        root_(spec.Option("root", kPowercapRoot)),
        which_(spec.Option("zones", "package,dram")) {
    caps_.interval_average = true;
    caps_.resolution_w = 1e-6;  // 1 µJ over one second
    caps_.note = "CPU package and memory energy (RAPL), not wall power";
  }

  Status Open() override {
    std::error_code ec;
    if (!fs::is_directory(root_, ec)) {
      return Status::FailedPrecondition(
          "power source rapl: there is no powercap tree at " + root_ +
          " (no RAPL here: most virtual machines and non-x86 CPUs have none); measure wall power "
          "with ptd://, ipmi: or redfish:// instead");
    }
    const bool want_pkg = which_.find("package") != std::string::npos;
    const bool want_dram = which_.find("dram") != std::string::npos;
    if (!want_pkg && !want_dram) {
      return Status::InvalidArgument("power source rapl: zones='" + which_ +
                                     "' names neither package nor dram");
    }
    // The class directory lists every zone flat: intel-rapl:0 (a package), intel-rapl:0:1 (its
    // subzones). The MMIO interface (intel-rapl-mmio:0) duplicates the package zone and is
    // skipped so nothing is counted twice.
    std::vector<std::string> dirs;
    for (const auto& entry : fs::directory_iterator(root_, ec)) {
      const std::string base = entry.path().filename().string();
      if (base.rfind("intel-rapl:", 0) == 0) dirs.push_back(entry.path().string());
    }
    std::sort(dirs.begin(), dirs.end());
    bool has_pkg = false, has_dram = false;
    for (const std::string& d : dirs) {
      std::ifstream nf(d + "/name");
      std::string name;
      if (!nf || !(nf >> name)) continue;
      const bool pkg = name.rfind("package", 0) == 0;
      const bool dram = name == "dram";
      if (!((pkg && want_pkg) || (dram && want_dram))) continue;
      Zone z;
      z.dir = d;
      z.name = name;
      auto max = ReadCounter(d + "/max_energy_range_uj");
      if (!max.ok()) return max.status();
      z.max_range_uj = *max;
      auto e = ReadCounter(d + "/energy_uj");
      if (!e.ok()) return e.status();
      z.last_uj = *e;
      has_pkg = has_pkg || pkg;
      has_dram = has_dram || dram;
      zones_.push_back(z);
    }
    if (zones_.empty()) {
      return Status::FailedPrecondition("power source rapl: no " + which_ + " zones under " +
                                        root_ + " (no RAPL here: most virtual machines have none)");
    }
    caps_.measures = has_pkg && has_dram ? Measures::kPackageAndDram
                     : has_pkg           ? Measures::kPackage
                                         : Measures::kDram;
    last_at_ = clock_.NowNanos();
    return Status::Ok();
  }

  Result<PowerReading> Read() override {
    const int64_t now = clock_.NowNanos();
    uint64_t total = 0;
    for (Zone& z : zones_) {
      auto e = ReadCounter(z.dir + "/energy_uj");
      if (!e.ok()) return e.status();
      total += EnergyDeltaUj(z.last_uj, *e, z.max_range_uj);
      z.last_uj = *e;
    }
    PowerReading r;
    const double secs = static_cast<double>(now - last_at_) / 1e9;
    last_at_ = now;
    if (secs > 0) {
      r.has_watts = true;
      r.watts = static_cast<double>(total) / 1e6 / secs;
    }
    return r;
  }

  const PowerCapabilities& capabilities() const override { return caps_; }
  const std::string& spec() const override { return spec_text_; }
  std::string Describe() const override {
    std::string names;
    for (const Zone& z : zones_) names += (names.empty() ? "" : ", ") + z.name;
    return "RAPL energy counters under " + root_ + " (" + names + ")";
  }

 private:
  std::string spec_text_;
  Clock& clock_;
  std::string root_;
  std::string which_;
  PowerCapabilities caps_;
  std::vector<Zone> zones_;
  int64_t last_at_ = 0;
};

}  // namespace

std::unique_ptr<PowerSource> MakeRaplSource(const PowerSpec& spec, Clock& clock) {
  return std::make_unique<RaplSource>(spec, clock);
}

}  // namespace sb::power
