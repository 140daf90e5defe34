#include "cli/power_cli.h"

#include <cctype>
#include <cstdio>

#include "base/strings.h"
#include "cli/builtins.h"
#include "session/power_open.h"

namespace sb::cli {

void DeclarePowerOption(config::OptionSet* o) {
  o->Add(
      {.name = "power",
       .help =
           "measure power beside the run, once a second (repeat for several sources; their watts "
           "add up): ptd://host:8888, rapl:, ipmi:, ipmi://user@bmc?password_file=F, "
           "redfish://user@bmc?password_env=V, csv:FILE?time=T&watts=W&offset=S, cmd:\"COMMAND\" "
           "(docs/power.md)",
       .group = "power",
       .repeatable = true});
}

Result<std::unique_ptr<power::PowerSampler>> OpenPower(const config::OptionSet& o, Clock& clock) {
  return session::OpenPower(o.GetString("power"), MakePowerSources(), clock);
}

namespace {

// "opm" → "OPM"; "mib_per_sec" → "MIB_PER_SEC".
std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// The counted unit of a headline from its words: "orders per minute" → "order", "I/Os per
// second" → "I/O", "MiB per second" → "MiB".
std::string UnitWord(const std::vector<metrics::HeadlineSpec>& specs, const std::string& name) {
  for (const metrics::HeadlineSpec& h : specs) {
    if (h.name != name) continue;
    std::string w = h.words.substr(0, h.words.find(" per "));
    if (w.size() > 1 && w.back() == 's') w.pop_back();
    return w;
  }
  return "unit of " + name;
}

}  // namespace

std::string FormatPowerSummary(const metrics::RunResult& r,
                               const std::vector<metrics::HeadlineSpec>& specs) {
  const metrics::PowerResult& p = r.power;
  if (!p.present()) return "";
  std::string out;
  char buf[512];
  for (const metrics::PowerWindow& w : p.windows) {
    std::snprintf(buf, sizeof buf, "power %s: %.1f W average over %lld s%s, %.0f J",
                  EscapeForTerminal(w.label).c_str(), w.avg_w, static_cast<long long>(w.seconds),
                  w.missing > 0 ? (" (" + std::to_string(w.missing) + " s missing)").c_str() : "",
                  w.energy_j);
    out += buf;
    for (const auto& [name, value] : w.per_watt) {
      std::snprintf(buf, sizeof buf, ", %.4g %s/W", value, Upper(name).c_str());
      out += buf;
    }
    if (!w.joules_per_unit.empty()) {
      std::snprintf(buf, sizeof buf, ", %.4g J per %s", w.joules_per_unit[0].second,
                    UnitWord(specs, w.joules_per_unit[0].first).c_str());
      out += buf;
    }
    out += "\n";
  }
  for (const metrics::PowerSourceResult& s : p.sources) {
    std::snprintf(buf, sizeof buf, "  power source %s (%s): %lld readings, %lld s missing",
                  EscapeForTerminal(s.spec).c_str(), s.measures.c_str(),
                  static_cast<long long>(s.readings), static_cast<long long>(s.missing));
    out += buf;
    if (!s.errors.empty()) out += "; " + EscapeForTerminal(s.errors[0]);
    out += "\n";
  }
  return out;
}

}  // namespace sb::cli
