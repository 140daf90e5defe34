// Maps workload names to factories. cli/ registers the concrete workloads at start-up (as it
// does back ends and engines); a command line or a plan file names one, nothing else does.
#ifndef STOREBENCH_WORKLOAD_REGISTRY_H_
#define STOREBENCH_WORKLOAD_REGISTRY_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "storebench/status.h"
#include "storebench/workload.h"

namespace sb::workload {

using WorkloadFactory = std::function<std::unique_ptr<Workload>()>;

class WorkloadRegistry {
 public:
  // `help` is one line for --help ("dvdstore: DVD Store 3 order loop").
  void Register(const std::string& name, const std::string& help, WorkloadFactory factory);
  // A new workload; an unknown name is InvalidArgument naming the known ones.
  Result<std::unique_ptr<Workload>> Create(const std::string& name) const;
  // In registration order.
  std::vector<std::string> Names() const;
  // The help line of `name` ("" when unknown).
  std::string HelpOf(const std::string& name) const;
  // "name (help), name (help), ..." in registration order.
  std::string Describe() const;

 private:
  struct Entry {
    std::string name, help;
    WorkloadFactory factory;
  };
  std::vector<Entry> entries_;
};

}  // namespace sb::workload

#endif  // STOREBENCH_WORKLOAD_REGISTRY_H_
