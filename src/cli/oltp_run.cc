// storebench oltp run: one database, or several as DVD Store 3's target list, each locked,
// restored when asked and prepared, then run together (session::RunDatabases through
// db_run.cc).

#include <memory>

#include "base/strings.h"
#include "cli/app.h"
#include "cli/db_run.h"
#include "cli/oltp_internal.h"
#include "config/options.h"
#include "dist/world.h"

namespace sb::cli {

// `oltp run`: one database, or several as DVD Store 3's target list ("URL1;URL2"): one instance
// per database, the threads spread over them round robin (thread t drives target t mod n).
int OltpRun(OltpContext& c, const workload::WorkloadRegistry& workloads,
            const std::string& workload_name, const std::vector<std::string>& args) {
  if (c.options.GetDouble("think_time") < 0) {
    return Fail(Status::InvalidArgument("option think_time must not be negative"));
  }
  if (c.options.GetDouble("rate") < 0) {
    return Fail(Status::InvalidArgument("option rate must not be negative"));
  }
  std::vector<std::string> urls;
  for (const std::string& u : SplitTrimmed(c.options.GetString("db"), ';')) {
    if (!u.empty()) urls.push_back(u);
  }
  {
    bool ignored = false;
    auto targets =
        ExpandTargets(c.options.GetString("db"), c.options.GetString("target"), &ignored);
    if (!targets.ok()) return Fail(targets.status());
    if (ignored) {
      Progress("target=" + c.options.GetString("target") + " is ignored: " +
               c.options.GetString("db") + " is a file database, which has no host to put it in");
    }
    if (urls.size() <= 1 && targets->size() > 1) urls = std::move(targets).value();
  }
  if (urls.size() > 1024) {
    return Fail(Status::InvalidArgument("--db names " + std::to_string(urls.size()) +
                                        " databases; at most 1024 instances are supported"));
  }
  std::vector<DbSetup> setups;
  if (urls.size() <= 1) {
    DbSetup one;
    one.url = c.options.GetString("db");
    one.workload = std::move(c.owned_workload);
    one.options = std::make_unique<config::OptionSet>(std::move(c.options));
    setups.push_back(std::move(one));
  } else {
    const auto n = static_cast<int64_t>(urls.size());
    for (int64_t i = 0; i < n; ++i) {
      DbSetup s;
      s.name = std::to_string(i + 1);
      s.url = urls[i];
      s.workload = workloads.Create(workload_name).value();
      s.options = std::make_unique<config::OptionSet>();
      s.options->set_help_command("storebench oltp run --help");
      std::vector<std::string> own = args;
      own.push_back("--db=" + urls[i]);
      own.push_back("--seed=" + std::to_string(c.options.GetInt("seed")));  // one run, one seed
      if (Status st = OltpParseOptions("run", workloads, *s.workload, own, s.options.get());
          !st.ok()) {
        return Fail(st);
      }
      setups.push_back(std::move(s));
    }
  }
  // What can be checked without a database is checked before any is locked (a window past
  // the run's end: exit 2 now, not a failed baseline after the whole run).
  if (Status st = CheckRunOptions(setups); !st.ok()) return Fail(st);
  // Every database is locked before any is checked: a run's verification counts the orders
  // it made, so two runs on one database would count each other's.
  const bool leader = dist::World() == nullptr || dist::World()->coordinator();
  for (size_t i = 0; i < setups.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (setups[j].url == setups[i].url) {
        return Fail(Status::InvalidArgument("--db names " + setups[i].url +
                                            " twice: each instance needs a database of its own"));
      }
    }
    // Under mpirun rank 0 holds the lock (and restores) for the whole group: the other ranks
    // are part of the same run, not a second storebench on the database.
    if (!leader) continue;
    auto lock = LockDatabase(c.registry, setups[i].url, "oltp run");
    if (!lock.ok()) return Fail(lock.status());
    setups[i].lock = std::move(lock).value();
  }
  for (DbSetup& s : setups) {
    if (leader && s.options->GetBool("restore")) {
      if (Status st = RestoreDatabase(c.registry, &s, "oltp run", setups.size() > 1); !st.ok()) {
        return Fail(st);
      }
      Progress(RestoredWords(s, setups.size() > 1));
    }
    if (Status st = PrepareDatabase(c.registry, &s, setups.size() > 1); !st.ok()) return Fail(st);
  }
  // The first instance's options hold the run's common settings (the same for every instance).
  return RunDatabases(setups, *setups[0].options);
}

}  // namespace sb::cli
