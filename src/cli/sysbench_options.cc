#include "cli/sysbench_options.h"

#include <cstddef>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "base/clock.h"

namespace sb::cli {
namespace {

constexpr char kGroup[] = "sysbench (its option names; --db-driver with these instead of --db)";

constexpr char kPasswordRefusal[] =
    "passwords never come from the command line (ps and shell history show it): PostgreSQL "
    "reads PGPASSWORD or ~/.pgpass, MariaDB MYSQL_PWD or the [client] group of ~/.my.cnf "
    "(docs/servers.md)";

// sysbench's defaults (its drivers' option tables).
struct Driver {
  const char* prefix;  // "pgsql"
  const char* scheme;  // "postgresql"
  const char* port;
};
constexpr Driver kDrivers[] = {{"pgsql", "postgresql", "5432"}, {"mysql", "mysql", "3306"}};

// A host, user or database name put into a URL as it is: letters, digits and . _ -.
bool UrlSafe(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

void DeclareSysbenchOptions(config::OptionSet* o) {
  using config::OptionSpec;
  using config::OptionType;
  auto add = [&](OptionSpec s) {
    s.group = kGroup;
    o->Add(std::move(s));
  };
  auto text = [&](std::string name, const char* def, std::string help) {
    add({.name = std::move(name), .default_value = def, .help = std::move(help)});
  };
  add({.name = "db_driver",
       .help = "pgsql or mysql: build --db from the --pgsql-* or --mysql-* options"});
  for (const Driver& d : kDrivers) {
    const std::string p = d.prefix;
    text(p + "_host", "localhost", "server host (--db-driver=" + p + ")");
    add({.name = p + "_port",
         .type = OptionType::kInt,
         .default_value = d.port,
         .help = "server port (--db-driver=" + p + ")",
         .min = 1,
         .max = 65535});
    text(p + "_user", "sbtest", "user name (--db-driver=" + p + ")");
    text(p + "_db", "sbtest", "database name (--db-driver=" + p + ")");
    add({.name = p + "_password",
         .help = "refused: " + std::string(kPasswordRefusal),
         .secret = true,
         .refusal = kPasswordRefusal});
  }
  add({.name = "percentile",
       .type = OptionType::kInt,
       .default_value = "95",
       .help = "the latency percentile of the interval lines and the final report (0 = none)",
       .max = 100});
  add({.name = "histogram",
       .type = OptionType::kBool,
       .default_value = "N",
       .help = "print the measured window's latency histogram before the final report"});
  // Taken so that sysbench command lines run unchanged; what storebench does with each is in
  // docs/fidelity.md#sysbench.
  add({.name = "db_ps_mode",
       .type = OptionType::kEnum,
       .default_value = "auto",
       .help = "sysbench's prepared statements: storebench prepares every statement (disable "
               "is taken, with a note)",
       .choices = {"auto", "disable"}});
  text("mysql_ignore_errors", "1213,1020,1205",
       "sysbench's error codes to retry: storebench retries by error category (deadlock, "
       "serialization, lock timeout), so another list is taken with a note");
  text("forced_shutdown", "off",
       "sysbench's forced shutdown after --time: off, seconds or N% of --time (printed in the "
       "header; storebench's run ends at --time on its own)");
  add({.name = "verbosity",
       .type = OptionType::kInt,
       .default_value = "3",
       .help = "sysbench's verbosity: below 3 nothing of sysbench's output is printed",
       .max = 5});
  add({.name = "auto_inc",
       .type = OptionType::kBool,
       .default_value = "Y",
       .help = "sysbench's auto-increment id: storebench's tables always have one (off is taken, "
               "with a note)"});
}

void TakeSysbenchTestName(std::vector<std::string>* args) {
  // "oltp_read_write", "oltp_read_write.lua" or ".../oltp_read_write.lua": "read_write".
  auto test_of = [](std::string word) -> std::string {
    const size_t slash = word.rfind('/');
    if (slash != std::string::npos) word.erase(0, slash + 1);
    if (word.size() > 4 && word.compare(word.size() - 4, 4, ".lua") == 0) {
      word.erase(word.size() - 4);
    }
    return word.rfind("oltp_", 0) == 0 && word.size() > 5 ? word.substr(5) : std::string();
  };
  std::vector<std::string>& a = *args;
  bool has_workload = false;
  size_t named = a.size();  // where the test name stood
  for (size_t i = 0; i < a.size(); ++i) {
    const std::string& w = a[i];
    if (w == "--workload" || w.rfind("--workload=", 0) == 0) has_workload = true;
    if (w.rfind("--test=", 0) == 0) {
      if (const std::string t = test_of(w.substr(7)); !t.empty()) a[i] = "--test=" + t;
      continue;
    }
    if (w == "--test" && i + 1 < a.size()) {
      if (const std::string t = test_of(a[i + 1]); !t.empty()) a[i + 1] = t;
      ++i;
      continue;
    }
    if (named < a.size() || w.empty() || w[0] == '-') continue;
    // A bare word after an option without '=' is that option's value.
    if (i > 0 && a[i - 1].rfind("--", 0) == 0 && a[i - 1].find('=') == std::string::npos &&
        a[i - 1] != "--help") {
      continue;
    }
    if (const std::string t = test_of(w); !t.empty()) {
      a[i] = "--test=" + t;
      named = i;
    }
  }
  // Beside the name, so that a verb written last stays last.
  if (named < a.size() && !has_workload) {
    a.insert(a.begin() + static_cast<std::ptrdiff_t>(named) + 1, "--workload=oltp");
  }
}

Result<int64_t> ForcedShutdownSeconds(const std::string& value, int64_t time_sec) {
  if (value == "off" || value == "OFF" || value == "Off") return int64_t{-1};
  char* end = nullptr;
  const long long n = std::strtoll(value.c_str(), &end, 10);
  if (!value.empty() && n >= 0 && end != value.c_str()) {
    if (*end == '\0') return static_cast<int64_t>(n);
    if (end[0] == '%' && end[1] == '\0') return static_cast<int64_t>(n) * time_sec / 100;
  }
  return Status::InvalidArgument("Invalid value for --forced-shutdown: '" + value +
                                 "' (off, seconds, or N% of --time)");
}

std::vector<std::string> SysbenchNotes(const config::OptionSet& o) {
  std::vector<std::string> notes;
  if (o.Has("db_ps_mode") && o.GetString("db_ps_mode") == "disable") {
    notes.emplace_back(
        "note: --db-ps-mode=disable: storebench prepares every statement (sysbench's auto)");
  }
  if (o.Has("mysql_ignore_errors") && o.IsSet("mysql_ignore_errors") &&
      o.GetString("mysql_ignore_errors") != "1213,1020,1205") {
    notes.emplace_back("note: --mysql-ignore-errors=" + o.GetString("mysql_ignore_errors") +
                       ": storebench retries deadlocks, serialization failures and lock "
                       "timeouts (sysbench's default 1213,1020,1205) on every back end");
  }
  if (o.Has("auto_inc") && !o.GetBool("auto_inc")) {
    notes.emplace_back(
        "note: --auto_inc=off: storebench's tables keep an auto-increment id, and its insert "
        "test takes the server's next id");
  }
  return notes;
}

Status ApplySysbenchOptions(config::OptionSet* o) {
  if (o->Has("forced_shutdown") && o->Has("run_time")) {
    auto forced = ForcedShutdownSeconds(o->GetString("forced_shutdown"),
                                        o->GetDurationNanos("run_time") / kNanosPerSecond);
    if (!forced.ok()) return forced.status();
  }
  const Driver* chosen = nullptr;
  std::vector<std::string> given;  // connection options set on the command line
  for (const Driver& d : kDrivers) {
    for (const char* field : {"_host", "_port", "_user", "_db"}) {
      const std::string name = std::string(d.prefix) + field;
      if (o->IsSet(name)) given.push_back(name);
    }
  }
  if (!o->IsSet("db_driver") && given.empty()) return Status::Ok();
  if (o->IsSet("db")) {
    return Status::InvalidArgument(
        "--db and --db-driver/--pgsql-*/--mysql-* name the database twice; give one of them");
  }
  // sysbench's default driver is mysql.
  const std::string driver = o->IsSet("db_driver") ? o->GetString("db_driver") : "mysql";
  for (const Driver& d : kDrivers) {
    if (driver == d.prefix) chosen = &d;
  }
  if (chosen == nullptr) {
    return Status::InvalidArgument("option db_driver: '" + driver +
                                   "' is not pgsql or mysql (or give --db URL)");
  }
  for (const std::string& name : given) {
    if (name.rfind(chosen->prefix, 0) != 0) {
      std::string message = "--" + name + " does not apply to --db-driver=" + driver;
      if (!o->IsSet("db_driver")) message += " (sysbench's default)";
      message += "; add --db-driver=";
      message += name.substr(0, name.find('_'));
      return Status::InvalidArgument(message);
    }
  }
  const std::string p = chosen->prefix;
  const std::string host = o->GetString(p + "_host");
  const std::string user = o->GetString(p + "_user");
  const std::string db = o->GetString(p + "_db");
  for (const auto& [name, value] : {std::pair<std::string, std::string>{p + "_host", host},
                                    {p + "_user", user},
                                    {p + "_db", db}}) {
    if (!UrlSafe(value)) {
      return Status::InvalidArgument("option " + name +
                                     " takes letters, digits, '.', '_' and '-' only; for other "
                                     "names give --db URL");
    }
  }
  const std::string url = std::string(chosen->scheme) + "://" + user + "@" + host + ":" +
                          std::to_string(o->GetInt(p + "_port")) + "/" + db;
  return o->Set("db", url, "--db-driver=" + driver);
}

}  // namespace sb::cli
