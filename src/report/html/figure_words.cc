#include "report/html/figure_words.h"

#include <map>

namespace sb::report::html {

namespace {

bool EndsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

bool StartsWith(const std::string& s, const std::string& head) {
  return s.compare(0, head.size(), head) == 0;
}

// DVD Store 3's driver prints these names on its Final line (ds3/drivers/ds3xdriver.cs, the
// "Final:" status); storebench keeps them (docs/output-schema.md), others from the workloads'
// own documentation (docs/tpcc.md, docs/soe.md, docs/oltp.md, docs/exec.md).
const std::map<std::string, FigureWords>& Known() {
  static const std::map<std::string, FigureWords> kKnown = {
      {"et", {"s", "elapsed time of the measured window"}},
      {"opm", {"orders per minute", "completed orders (rolled-back ones included) per minute"}},
      {"n_overall", {"count", "units (orders, transactions) completed in the measured window"}},
      {"rt_tot_lastn_max", {"ms", "longest order response time among the last orders"}},
      {"rt_tot_avg", {"ms", "mean order response time"}},
      {"rt_tot_sampled", {"ms", "response time of the last order sampled"}},
      {"n_rollbacks_overall", {"count", "orders rolled back (out of stock)"}},
      {"rollback_rate", {"%", "share of orders rolled back"}},
      {"rt_newhelpfulness", {"ms", "mean response time of new helpfulness ratings"}},
      {"n_reviewbrowse", {"count", "review browses"}},
      {"n_newreviews", {"count", "new reviews"}},
      {"n_newhelpfulness", {"count", "new helpfulness ratings"}},
      {"tpm", {"per minute", "transactions per minute"}},
      {"nopm_client", {"per minute", "New-Order transactions per minute, counted by the client"}},
      {"nopm_dnext",
       {"per minute", "New-Orders per minute from the districts' next order ids (HammerDB)"}},
      {"tpm_server", {"per minute", "commits and rollbacks per minute, counted by the server"}},
      {"tpm_client", {"per minute", "transactions per minute, counted by the client"}},
      {"exit_status", {"", "the command's exit status"}},
      {"signal", {"", "the signal that ended the command (0: none)"}},
      {"wall_sec", {"s", "wall-clock time of the command"}},
      {"cpu_sec", {"s", "user + system CPU time of the command and its children"}},
      {"user_sec", {"s", "user CPU time"}},
      {"system_sec", {"s", "system CPU time"}},
      {"maximum_tpm", {"per minute", "whole transactions per minute, as charbench prints it"}},
      {"extents", {"count", "extents of the file"}},
  };
  return kKnown;
}

// "n_purchase_overall" → "purchase".
std::string Subject(std::string name, const std::string& head, const std::string& tail) {
  name = name.substr(head.size(), name.size() - head.size() - tail.size());
  for (char& c : name) {
    if (c == '_') c = ' ';
  }
  return name;
}

}  // namespace

FigureWords DescribeFigure(const std::string& name) {
  if (auto it = Known().find(name); it != Known().end()) return it->second;
  if (StartsWith(name, "n_")) {
    const std::string tail = EndsWith(name, "_overall") ? "_overall" : "";
    return {"count", Subject(name, "n_", tail) + " completed"};
  }
  if (StartsWith(name, "rt_") && EndsWith(name, "_avg_msec")) {
    return {"ms", "mean response time of " + Subject(name, "rt_", "_avg_msec")};
  }
  if (StartsWith(name, "rt_") && EndsWith(name, "_p90_msec")) {
    return {"ms", "90th percentile response time of " + Subject(name, "rt_", "_p90_msec")};
  }
  if (EndsWith(name, "_msec") || EndsWith(name, "_ms") || EndsWith(name, "_ms_mean")) {
    return {"ms", ""};
  }
  // Rates before times: "ops_per_sec" ends in "_sec" too.
  if (EndsWith(name, "_per_sec") || name == "tps" || name == "qps" || EndsWith(name, "_tps")) {
    return {"per second", ""};
  }
  if (EndsWith(name, "_sec")) return {"s", ""};
  if (EndsWith(name, "_pct")) return {"%", ""};
  if (EndsWith(name, "_w") || StartsWith(name, "idle_w")) return {"W", "average power"};
  if (EndsWith(name, "_per_minute") || StartsWith(name, "tpm") || StartsWith(name, "nopm")) {
    return {"per minute", ""};
  }
  if (StartsWith(name, "ratio")) return {"ratio", ""};
  return {"", ""};
}

std::string HeadlineUnit(const std::string& name, double per_second) {
  if (name == "mib_per_sec") return "MiB per second";
  if (per_second == 60) return "per minute";
  if (per_second == 1) return EndsWith(name, "_sec") ? "s" : "per second";
  return "";
}

}  // namespace sb::report::html
