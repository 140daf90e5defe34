#include "power/registry.h"

namespace sb::power {

void PowerRegistry::Register(const std::string& scheme, const std::string& words, Factory factory) {
  entries_[scheme] = {words, std::move(factory)};
}

std::string PowerRegistry::Describe() const {
  std::string out;
  for (const auto& [scheme, e] : entries_) out += (out.empty() ? "" : ", ") + e.words;
  return out;
}

Result<std::unique_ptr<PowerSource>> PowerRegistry::Create(const std::string& text,
                                                           Clock& clock) const {
  auto spec = ParsePowerSpec(text);
  if (!spec.ok()) return spec.status();
  auto it = entries_.find(spec->scheme);
  if (it == entries_.end()) {
    return Status::InvalidArgument("power source '" + spec->scheme +
                                   ":...' has an unknown scheme; known: " + Describe());
  }
  return it->second.factory(*spec, clock);
}

Result<std::vector<std::unique_ptr<PowerSource>>> OpenPowerSources(
    const PowerRegistry& registry, const std::vector<std::string>& specs, Clock& clock) {
  std::vector<std::unique_ptr<PowerSource>> out;
  for (const std::string& text : specs) {
    auto source = registry.Create(text, clock);
    if (!source.ok()) return source.status();
    if (Status s = (*source)->Open(); !s.ok()) return s;
    out.push_back(std::move(source).value());
  }
  return out;
}

std::vector<std::string> SplitPowerSpecs(const std::string& text, const PowerRegistry& registry) {
  std::vector<std::string> out;
  std::string cur;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == ',' && !cur.empty()) {
      const size_t colon = text.find(':', i + 1);
      if (colon != std::string::npos) {
        const std::string scheme = text.substr(i + 1, colon - i - 1);
        if (registry.Knows(scheme)) {
          out.push_back(cur);
          cur.clear();
          continue;
        }
      }
    }
    cur += text[i];
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

}  // namespace sb::power
