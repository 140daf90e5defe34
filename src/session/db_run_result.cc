#include "session/db_run_result.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "driver/run_options.h"
#include "report/console/charbench_console.h"
#include "session/environment.h"
#include "storebench/session.h"

namespace sb::session {

std::string LoopModel(const driver::RunOptions& r, const workload::Workload& wl) {
  const std::string unit = wl.shape().unit_name;
  char buf[360];
  if (wl.terminals() > 0) {
    std::snprintf(buf, sizeof buf,
                  "terminals: %lld terminals on timers (the workload's keying and think times) "
                  "served by %d connections; %s latency measured from the terminal's due time "
                  "(waiting for a connection included), lag recorded separately",
                  static_cast<long long>(wl.terminals()), r.threads, unit.c_str());
  } else if (r.rate_per_sec > 0) {
    std::snprintf(buf, sizeof buf,
                  "open loop: %g %ss/s requested (%s arrivals) over %d threads; %s latency "
                  "measured from the intended start (queueing included), schedule lag recorded "
                  "separately",
                  r.rate_per_sec, unit.c_str(), r.poisson ? "Poisson" : "evenly spaced", r.threads,
                  unit.c_str());
  } else {
    std::snprintf(buf, sizeof buf,
                  "closed loop: %d threads, think time %.3g s mean (uniform [0, 2T)) after each "
                  "%s; response time = sum of the %s's timed database calls",
                  r.threads, r.think_time_sec, unit.c_str(), unit.c_str());
  }
  return buf;
}

namespace {

// The "db." facts of the server an instance ran on: product, version and settings.
void AddDatabaseFacts(const DbSetup& s, std::map<std::string, std::string>* env) {
  if (!s.info) return;
  (*env)["db.product"] = s.info->product;
  (*env)["db.version"] = s.info->version;
  for (const auto& [k, v] : s.info->settings) (*env)["db.setting." + k] = v;
}

// The instance's options as the whole run has them: under mpirun each rank's spec holds its share
// of the threads (and of --rate), and the result describes all of them.
driver::RunOptions WholeOptions(const DbSetup& s, const driver::DbInstanceSpec& spec) {
  auto whole =
      driver::RunOptionsFrom(*s.options, s.workload->max_failures(), s.workload->shape().headlines);
  return whole.ok() ? std::move(whole).value() : spec.options;
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// The options as JSON, with the values the workload learned during the run in place of the
// defaults it was given (Workload::RanOptions).
std::string RanConfigJson(const config::OptionSet& options, const workload::Workload& w) {
  const auto ran = w.RanOptions();
  if (ran.empty()) return options.ToJson();
  config::OptionSet copy = options;
  for (const auto& [name, value] : ran) {
    if (copy.Has(name)) copy.Set(name, value, "the run").IgnoreError();
  }
  return copy.ToJson();
}

// The run as a whole: what ran, how, where, with which options.
void DescribeWhole(const std::vector<DbSetup>& setups,
                   const std::vector<driver::DbInstanceSpec>& specs,
                   const config::OptionSet& common, const driver::RunOptions& ro,
                   metrics::RunResult* r) {
  const workload::Workload& first = *setups[0].workload;
  r->workload = first.name();
  r->loop_model = LoopModel(WholeOptions(setups[0], specs[0]), first);
  if (setups.size() > 1) {
    r->loop_model = std::to_string(setups.size()) + " instances started together (instance " +
                    setups[0].name + ": " + r->loop_model + ")";
  }
  r->config_json = RanConfigJson(common, first);
  r->label = common.GetString("label");
  r->environment = CollectEnvironment(DbPathForEnvironment(setups[0].url));
  AddDatabaseFacts(setups[0], &r->environment);
  for (const auto& [k, v] : first.Choices()) r->choices[k] = v;  // keeps scale_out's
  for (const std::string& w : first.Warnings()) r->warnings.push_back(w);
  if (first.shape().console == "charbench") {
    // Whole transactions per minute, as charbench reports it: the figure and the summary line's
    // "maximum TPM" then print the same number.
    r->figures.emplace_back("maximum_tpm",
                            std::floor(report::MaximumTpm(r->series, r->measured_sec)));
  }
  r->choices["driver_cpu"] =
      "CPU of the storebench process; with an embedded database (SQLite) this includes the "
      "database engine's own work";
  r->choices["seed"] = std::to_string(ro.seed);
}

// How long bringing each database back to its pristine copy took (--restore).
void DescribeRestores(const std::vector<DbSetup>& setups, metrics::RunResult* r) {
  const bool several = setups.size() > 1;
  for (size_t i = 0; i < setups.size(); ++i) {
    const DbSetup& s = setups[i];
    if (s.restore_seconds < 0) continue;
    if (several) {
      r->instances[i].restore_method = s.restore_method;
      r->instances[i].restore_seconds = s.restore_seconds;
    }
    r->restore_method = s.restore_method;
    r->restore_seconds = std::max(0.0, r->restore_seconds) + s.restore_seconds;
    r->choices["restore"] =
        "every database was brought back to its pristine copy before the run (--restore); the "
        "time that took is recorded under \"restore\" and is not part of the run";
  }
}

// Several instances: how they ran together, each one's loop model and options.
void DescribeInstances(const std::vector<DbSetup>& setups,
                       const std::vector<driver::DbInstanceSpec>& specs, metrics::RunResult* r) {
  const workload::Workload& first = *setups[0].workload;
  r->choices["instances"] =
      "every instance ran its own workers against its own database, all started together; the "
      "aggregate merges their histograms and counters exactly; a baseline passes when it "
      "passes for every instance";
  for (const DbSetup& s : setups) {
    if (s.workload->name() != first.name()) {
      r->choices["instances.aggregate"] =
          "the instances run different workloads: the aggregate figures merge the " + first.name() +
          " instances only; every instance has its own result";
    }
  }
  // Each instance names its own server (a plan may mix SQLite, PostgreSQL and MariaDB) and, for
  // a file, the file system holding it; the machine's facts are the enclosing document's.
  std::vector<std::string> products, versions;  // each once, in instance order
  bool mixed = false;
  for (size_t i = 0; i < setups.size(); ++i) {
    metrics::RunResult& in = r->instances[i];
    in.loop_model = LoopModel(WholeOptions(setups[i], specs[i]), *setups[i].workload);
    in.config_json = RanConfigJson(*setups[i].options, *setups[i].workload);
    if (const std::string path = DbPathForEnvironment(setups[i].url); !path.empty()) {
      const auto facts = CollectEnvironment(path);
      for (const char* key : {"filesystem", "filesystem_mount"}) {
        if (auto it = facts.find(key); it != facts.end()) in.environment[key] = it->second;
      }
    }
    AddDatabaseFacts(setups[i], &in.environment);
    if (!setups[i].info) continue;
    const std::string product = setups[i].info->product, version = setups[i].info->version;
    if (std::find(products.begin(), products.end(), product) == products.end()) {
      products.push_back(product);
    }
    if (std::find(versions.begin(), versions.end(), version) == versions.end()) {
      versions.push_back(version);
    }
    mixed = mixed || !setups[0].info || product != setups[0].info->product ||
            version != setups[0].info->version;
  }
  if (mixed) {
    // The first server's settings would describe only some instances: each instance has its own.
    std::erase_if(r->environment, [](const auto& kv) { return kv.first.starts_with("db."); });
    r->environment["db.product"] = JoinNames(products);
    r->environment["db.version"] = JoinNames(versions);
  }
}

}  // namespace

void DescribeRun(const std::vector<DbSetup>& setups,
                 const std::vector<driver::DbInstanceSpec>& specs, const config::OptionSet& common,
                 const driver::RunOptions& ro, metrics::RunResult* r) {
  DescribeWhole(setups, specs, common, ro, r);
  DescribeRestores(setups, r);
  if (setups.size() > 1) DescribeInstances(setups, specs, r);
}

void VerifyInstances(std::vector<DbSetup>& setups, const std::vector<workload::Totals>& whole_run,
                     bool at_once, metrics::RunResult* r) {
  const bool several = setups.size() > 1;
  // A server that left units unanswered would keep the lock's release waiting as well.
  for (size_t i = 0; i < setups.size(); ++i) {
    const bool stalled = (several ? r->instances[i] : *r).workers_stalled > 0;
    if (stalled && setups[i].lock) setups[i].lock->ServerSilent();
  }
  if (at_once) {
    r->warnings.push_back(
        "verification was skipped: a signal asked to stop at once (the result is what was "
        "gathered until then)");
    return;
  }
  for (size_t i = 0; i < setups.size(); ++i) {
    DbSetup& s = setups[i];
    metrics::RunResult& stalled_in = several ? r->instances[i] : *r;
    if (stalled_in.workers_stalled > 0) {
      // Its server left units unanswered: verification would wait on it as well.
      stalled_in.warnings.push_back(
          "verification was skipped: the server left units unanswered (workers stalled)");
      continue;
    }
    auto verify_conn = s.backend->Connect();
    auto checks = verify_conn.ok() ? s.workload->Verify(**verify_conn, s.before, &whole_run[i])
                                   : Result<std::vector<workload::Check>>(verify_conn.status());
    metrics::RunResult& target = several ? r->instances[i] : *r;
    if (checks.ok()) {
      for (const auto& ch : *checks) target.verify.push_back({ch.name, ch.passed, ch.detail});
    } else {
      target.verify.push_back({"verify", false, checks.status().message()});
    }
    if (several) {
      for (const auto& ch : target.verify) {
        r->verify.push_back({s.name + "." + ch.name, ch.passed, ch.detail});
      }
    }
  }
}

}  // namespace sb::session
