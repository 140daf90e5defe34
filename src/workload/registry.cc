#include "workload/registry.h"

namespace sb::workload {

void WorkloadRegistry::Register(const std::string& name, const std::string& help,
                                WorkloadFactory factory) {
  entries_.push_back({name, help, std::move(factory)});
}

Result<std::unique_ptr<Workload>> WorkloadRegistry::Create(const std::string& name) const {
  for (const Entry& e : entries_) {
    if (e.name == name) return e.factory();
  }
  std::string known;
  for (const Entry& e : entries_) known += (known.empty() ? "" : ", ") + e.name;
  return Status::InvalidArgument("unknown workload '" + name + "' (known: " + known + ")");
}

std::vector<std::string> WorkloadRegistry::Names() const {
  std::vector<std::string> names;
  for (const Entry& e : entries_) names.push_back(e.name);
  return names;
}

std::string WorkloadRegistry::HelpOf(const std::string& name) const {
  for (const Entry& e : entries_) {
    if (e.name == name) return e.help;
  }
  return "";
}

std::string WorkloadRegistry::Describe() const {
  std::string out;
  for (const Entry& e : entries_) out += (out.empty() ? "" : ", ") + e.name + " (" + e.help + ")";
  return out;
}

}  // namespace sb::workload
