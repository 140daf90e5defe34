#include "cli/sysbench_options.h"

#include <string>
#include <utility>
#include <vector>

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
}

Status ApplySysbenchOptions(config::OptionSet* o) {
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
