#include "report/console/hammerdb_lines.h"

#include <cmath>
#include <cstdio>
#include <map>

namespace sb::report {
namespace {

// TPC-C's five transaction types, in the order the workload names them in its figures, with the
// 90th-percentile limits of clause 5.2.5.7 in seconds. Delivery's is 5 s for the queuing when
// deferred; in line, its whole response time is held to the 80 s its deferred execution would
// have.
// Each type's minimum share of the mix (clause 5.2.3; New-Order has none).
struct TxnLimit {
  const char* name;
  double limit_sec;
  double min_share_pct;
};
constexpr TxnLimit kTxnLimits[] = {{"new_order", 5, 0},
                                   {"payment", 5, 43},
                                   {"order_status", 5, 4},
                                   {"delivery", 80, 4},
                                   {"stock_level", 20, 4}};
constexpr double kDeferredLimitSec = 80;
constexpr double kDeferredQueueLimitSec = 5;

// With keying and thinking (the figures hold the constraints' verdict): the constraints and the
// efficiency against the specification's ceiling.
void ConstraintLines(std::map<std::string, double>& by_name, std::vector<std::string>* lines) {
  const bool deferred = by_name.count("rt_delivery_deferred_p90_msec") > 0;
  std::string line = "response-time constraints (90th percentile, TPC-C clause 5.2.5.7):";
  for (const TxnLimit& t : kTxnLimits) {
    const bool queued = deferred && std::string(t.name) == "delivery";
    char part[96];
    std::snprintf(part, sizeof part, " %s %.3f s <= %.0f s;", t.name,
                  by_name[std::string("rt_") + t.name + "_p90_msec"] / 1000,
                  queued ? kDeferredQueueLimitSec : t.limit_sec);
    line += part;
  }
  if (deferred) {
    char part[96];
    std::snprintf(part, sizeof part, " delivery_deferred %.3f s <= %.0f s;",
                  by_name["rt_delivery_deferred_p90_msec"] / 1000, kDeferredLimitSec);
    line += part;
  }
  line += by_name["response_time_constraints_met"] > 0 ? " PASS" : " FAIL";
  lines->push_back(line);
  char eff[200];
  std::snprintf(eff, sizeof eff,
                "efficiency: %.1f %% of the %.2f New-Orders per minute per warehouse's worth "
                "(10) of terminals that this mix's keying and think times allow",
                by_name["efficiency_pct"], by_name["ceiling_tpmc_per_warehouse"]);
  lines->emplace_back(eff);
}

// The mix as run against the specification's minimum shares (clause 5.2.3).
void MixLine(std::map<std::string, double>& by_name, std::vector<std::string>* lines) {
  std::string line = "transaction mix (TPC-C clause 5.2.3 minimums):";
  for (const TxnLimit& t : kTxnLimits) {
    char part[96];
    const double pct = by_name[std::string("mix_") + t.name + "_pct"];
    if (t.min_share_pct > 0) {
      std::snprintf(part, sizeof part, " %s %.2f %% >= %.0f %%;", t.name, pct, t.min_share_pct);
    } else {
      std::snprintf(part, sizeof part, " %s %.2f %%;", t.name, pct);
    }
    line += part;
  }
  line += by_name["mix_minimums_met"] > 0 ? " PASS" : " FAIL";
  lines->push_back(line);
}

}  // namespace

std::vector<std::string> HammerDbResultLines(
    const std::vector<std::pair<std::string, double>>& figures, const std::string& db_product) {
  double nopm = -1, tpm = -1, tpm_client = -1;
  for (const auto& [name, v] : figures) {
    if (name == "nopm_dnext") nopm = v;
    if (name == "tpm_server") tpm = v;
    if (name == "tpm_client") tpm_client = v;
  }
  std::vector<std::string> lines;
  std::map<std::string, double> by_name(figures.begin(), figures.end());
  if (by_name.count("response_time_constraints_met")) ConstraintLines(by_name, &lines);
  if (by_name.count("mix_minimums_met") && by_name["transactions"] > 0) MixLine(by_name, &lines);
  if (by_name.count("delivery_skips_within_limit") && by_name["deliveries_with_skips"] > 0) {
    char buf[200];
    if (by_name.count("delivery_skips_expected")) {
      std::snprintf(buf, sizeof buf,
                    "deliveries with skipped districts: %.0f (%.2f %% of those executed; "
                    "expected on a back end that keeps no data: there are no new orders to "
                    "deliver, so clause 2.7.4's 1 %% limit does not apply)",
                    by_name["deliveries_with_skips"], by_name["delivery_skip_pct"]);
    } else {
      std::snprintf(buf, sizeof buf,
                    "deliveries with skipped districts: %.0f (%.2f %% of those executed; %s the "
                    "specification's 1 %% limit, clause 2.7.4)",
                    by_name["deliveries_with_skips"], by_name["delivery_skip_pct"],
                    by_name["delivery_skips_within_limit"] > 0 ? "within" : "OVER");
    }
    lines.emplace_back(buf);
  }
  if (nopm < 0) return lines;
  char buf[200];
  if (tpm >= 0) {
    std::snprintf(buf, sizeof buf, "TEST RESULT : System achieved %.0f NOPM from %.0f %s TPM", nopm,
                  tpm, db_product.c_str());
  } else {
    std::snprintf(buf, sizeof buf,
                  "TEST RESULT : System achieved %.0f NOPM from %.0f %s TPM (client count: %s "
                  "has no server transaction counter)",
                  nopm, std::floor(tpm_client), db_product.c_str(), db_product.c_str());
  }
  lines.insert(lines.begin(), buf);
  return lines;
}

}  // namespace sb::report
