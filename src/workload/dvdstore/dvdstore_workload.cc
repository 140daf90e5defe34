#include "workload/dvdstore/dvdstore_workload.h"

#include <cmath>
#include <cstdio>

#include "config/enum_option.h"
#include "workload/dvdstore/csv_ds3.h"
#include "workload/dvdstore/sql_files.h"
#include "workload/dvdstore/tables.h"
#include "workload/index_build.h"
#include "workload/query_ints.h"
#include "workload/store_meta.h"

namespace sb::dvdstore {
namespace {

using config::OptionSpec;
using config::OptionType;

// load --procedures_only=Y: (re)installs the stored procedures into a complete DVD Store
// database, leaving its data alone (the ones of storebench's names are replaced).
Status LoadProceduresOnly(db::Connection& conn, workload::StoreMeta& meta, bool has_meta,
                          const std::string& meta_set, const std::string& dialect,
                          const workload::LoadContext& ctx) {
  auto wl = has_meta ? meta.Get("workload") : Result<std::string>(std::string());
  if (!wl.ok()) return wl.status();
  if (*wl != "dvdstore") {
    return Status::FailedPrecondition(
        "--procedures_only installs procedures into a loaded DVD Store database, and this one "
        "holds none; load it first with 'storebench oltp load'");
  }
  auto state = meta.Get("state");
  if (!state.ok()) return state.status();
  if (*state != "ready") {
    return Status::FailedPrecondition(
        "the DVD Store load into this database did not finish; run 'storebench oltp load "
        "--force' again");
  }
  auto version = meta.Get("schema_version");
  if (!version.ok()) return version.status();
  if (*version != kSchemaVersion) {
    return Status::FailedPrecondition(
        "the database was loaded by an earlier storebench, whose DVD Store tables the "
        "procedures of this version do not fit; reload it with 'storebench oltp load --force'");
  }
  auto ds2 = meta.Get("ds2_mode");
  if (!ds2.ok()) return ds2.status();
  if (ctx.progress) ctx.progress("installing the stored procedures (--procedures_only)");
  return InstallProcedures(conn, dialect, *ds2 == "Y", meta_set, /*drop_first=*/true);
}

int64_t AvgMsec(const workload::TypeTotals& t) {
  if (t.count == 0) return 0;  // DVD Store prints int(NaN) here; storebench prints 0
  return static_cast<int64_t>(
      std::floor(static_cast<double>(t.sum_nanos) / 1e6 / static_cast<double>(t.count)));
}

const workload::MetaOwner kOwner{"dvdstore", "DVD Store", "db_size", "storebench oltp load"};

// The foreign-key name suffix of indexes.sql ("{FK_SUFFIX}"): 8 hex digits of a case-sensitive
// FNV-1a hash of the database's name, so databases whose names differ only in case get
// different constraint names (InnoDB compares "database/name" without case).
std::string ForeignKeySuffix(const std::string& database) {
  uint32_t h = 2166136261u;
  for (unsigned char c : database) {
    h ^= c;
    h *= 16777619u;
  }
  char buf[9];
  std::snprintf(buf, sizeof buf, "%08x", h);
  return buf;
}

// Fills in indexes.sql's foreign-key name placeholder from the connected database's name.
Status FillForeignKeyNames(db::Connection& conn, const std::string& dialect, std::string* script) {
  const std::string placeholder = "{FK_SUFFIX}";
  if (script->find(placeholder) == std::string::npos) return Status::Ok();
  auto admin = SqlQueries(dialect, "admin.sql");
  if (!admin.ok()) return admin.status();
  auto stmt = conn.Prepare(admin->at("database_name"));
  if (!stmt.ok()) return stmt.status();
  SB_RETURN_IF_ERROR((*stmt)->Execute());
  std::string name;
  if ((*stmt)->Next()) name = std::string((*stmt)->GetText(0));
  SB_RETURN_IF_ERROR((*stmt)->status());
  (*stmt)->Reset();
  const std::string suffix = ForeignKeySuffix(name);
  for (size_t at = script->find(placeholder); at != std::string::npos;
       at = script->find(placeholder, at)) {
    script->replace(at, placeholder.size(), suffix);
  }
  return Status::Ok();
}

}  // namespace

DvdStoreWorkload::DvdStoreWorkload() {
  shape_.unit_name = "order";
  shape_.headline_name = "opm";
  shape_.headlines = {metrics::UnitsPerMinute("opm", "orders per minute")};
  shape_.step_types = {"login",        "newcust",   "newmember",      "browse",
                       "reviewbrowse", "newreview", "newhelpfulness", "purchase"};
  shape_.counters = {"rollbacks", "purchase_lines", "orders_in_doubt"};
  shape_.rollback_counter = kRollbacks;
  opts_.size = *ParseDsSize("S");
}

void DvdStoreWorkload::DeclareOptions(config::OptionSet* o) const {
  auto add_int = [&](const char* name, int64_t def, int64_t min, int64_t max, const char* help) {
    o->Add({.name = name,
            .type = OptionType::kInt,
            .default_value = std::to_string(def),
            .help = help,
            .group = "dvdstore",
            .min = min,
            .max = max});
  };
  auto add_bool = [&](const char* name, const char* help) {
    o->Add({.name = name,
            .type = OptionType::kBool,
            .default_value = "N",
            .help = help,
            .group = "dvdstore"});
  };
  o->Add({.name = "db_size",
          .type = OptionType::kDbSize,
          .default_value = "S",
          .help = "database size: S, M, L or <int>MB / <int>GB (run: defaults to the loaded size)",
          .group = "dvdstore"});
  // DVD Store 3 turns DS2 mode on for exactly "Y" (ds3xdriver.cs compares the text with "Y"),
  // so "y" or "yes" would run DS3 mode there: refused here rather than read either way.
  o->Add({.name = "ds2_mode",
          .type = OptionType::kBool,
          .default_value = "N",
          .help = "Y: DVD Store 2 (no membership or review steps, DS2 schema on load); only Y "
                  "or N, as DVD Store 3 reads it",
          .group = "dvdstore",
          .y_or_n_only = true});
  add_bool("bug_compat",
           "Y: reproduce DVD Store's number-changing quirks (double-counted review time, "
           "new-review time from new-member time, counters not reset after warm-up)");
  add_int("pct_newcustomers", 20, 0, 100, "percent of orders by new customers");
  add_int("pct_newmember", 1, 0, 100, "percent of orders with a new premium membership");
  add_int("n_searches", 3, 1, 1000, "mean product searches per order");
  add_int("search_batch_size", 5, 1, 10000, "mean rows requested per search");
  add_int("search_depth", 500, 1, 1000000, "rows of product x review examined by review browse");
  add_int("n_reviews", 3, 1, 1000, "mean review searches per review loop (two loops run)");
  add_int("pct_newreviews", 5, 0, 100, "percent of orders writing a review");
  add_int("pct_newhelpfulness", 10, 0, 100, "percent of orders rating a review");
  add_int("n_line_items", 5, 1, 1000, "mean cart lines per order (at most 10 are kept)");
  o->Add(config::EnumOption(
      "sql_mode", {"client", "procedures"},
      "client: the driver sends prepared statements; procedures: one stored-procedure call per "
      "step, as DVD Store (PostgreSQL, MySQL/MariaDB; load installs them)",
      "dvdstore"));
  o->Add(config::EnumOption(
      "csv_layout", {"storebench", "ds3", "ds3_windows"},
      "load --csv_dir: storebench writes one file per table; ds3 writes DVD Store 3's 43 files "
      "in its five directories and formats, which DVD Store's own load scripts read; "
      "ds3_windows the same with CRLF line ends, as DVD Store's generators write them on "
      "Windows (SQL Server's BULK INSERT)",
      "dvdstore"));
  add_bool("adopt",
           "run/verify on a database built by DVD Store's own scripts: Y records it in a "
           "storebench_meta table (otherwise storebench writes nothing of its own into it)");
  add_bool("procedures_only",
           "load: only (re)install the stored procedures of --sql_mode=procedures into an "
           "existing DVD Store database");
}

Status DvdStoreWorkload::Configure(const config::OptionSet& o) {
  auto size = ParseDsSize(o.GetString("db_size"));
  if (!size.ok()) return size.status();
  opts_.size = *size;
  size_given_ = o.IsSet("db_size");
  opts_.ds2_mode = o.GetBool("ds2_mode");
  opts_.bug_compat = o.GetBool("bug_compat");
  opts_.pct_newcustomers = o.GetInt("pct_newcustomers");
  opts_.pct_newmember = o.GetInt("pct_newmember");
  opts_.n_searches = o.GetInt("n_searches");
  opts_.search_batch_size = o.GetInt("search_batch_size");
  opts_.search_depth = o.GetInt("search_depth");
  opts_.n_reviews = o.GetInt("n_reviews");
  opts_.pct_newreviews = o.GetInt("pct_newreviews");
  opts_.pct_newhelpfulness = o.GetInt("pct_newhelpfulness");
  opts_.n_line_items = o.GetInt("n_line_items");
  opts_.procedures = o.GetString("sql_mode") == "procedures";
  opts_.procedures_only = o.GetBool("procedures_only");
  adopt_ = o.GetBool("adopt");
  ds3_csv_layout_ = o.GetString("csv_layout") != "storebench";
  ds3_csv_crlf_ = o.GetString("csv_layout") == "ds3_windows";
  return Status::Ok();
}

Status DvdStoreWorkload::CheckCapabilities(const db::Capabilities& caps) {
  if (!opts_.procedures && !opts_.procedures_only) return Status::Ok();
  if (!caps.stored_procedures || ProceduresFingerprint(dialect_, false).empty()) {
    return Status::InvalidArgument(
        "the " + dialect_ + " back end has no stored procedures, so " +
        (opts_.procedures ? "--sql_mode=procedures" : "--procedures_only") +
        " cannot be used with it; use --sql_mode=client (the default) or a PostgreSQL or "
        "MySQL/MariaDB database");
  }
  return Status::Ok();
}

std::map<std::string, std::string> DvdStoreWorkload::Choices() const {
  std::map<std::string, std::string> c;
  c["restock"] =
      "SQL Server semantics: an update leaving fewer than 3 in stock is logged in REORDER and "
      "reverted (rollback rate stays near 2 % of orders)";
  c["bug_compat"] = opts_.bug_compat
                        ? "Y: DVD Store quirks 1, 2, 3 of spec 8.1 reproduced (review time "
                          "double-counted in rt_tot; rt_newreview from new-member time; "
                          "newmember/reviewbrowse/newreview/newhelpfulness not reset at warm-up)"
                        : "N: fixed behaviour (each time counted once, all counters reset at "
                          "warm-up, averages of empty types are 0)";
  c["mode"] = opts_.ds2_mode ? "DS2" : "DS3";
  c["db_size"] = opts_.size.label + " (" + std::to_string(opts_.size.customers) + " customers, " +
                 std::to_string(opts_.size.products) + " products, " +
                 std::to_string(opts_.size.orders()) + " orders)";
  c["full_text"] = "FTS5 phrase match on TITLE/ACTOR (as SQL Server CONTAINS)";
  c["sql_mode"] =
      opts_.procedures
          ? "procedures: one stored-procedure call per step (login, new customer, new member, "
            "each browse and review read, new review, helpfulness, purchase), as DVD Store; the "
            "untimed price lookup stays a client statement"
          : "client: prepared statements sent by the driver, one transaction per purchase";
  // A dialect may describe its own choices (full-text semantics, ...) in choices.sql.
  if (auto own = SqlTexts(dialect_, "choices.sql"); own.ok()) {
    for (auto& [name, text] : *own) c[name] = text;
  }
  c["cart_lines"] = "at most 10 lines per purchase (as the SQL Server/PostgreSQL procedures)";
  c["login_history"] = "all history rows queried, at most 100 read (DVD Store MAX_ROWS)";
  if (!foreign_differences_.empty()) {
    std::string d = "counted at start: " + foreign_counts_;
    for (const std::string& s : foreign_differences_) d += "; " + s;
    c["database"] = d;
  }
  // On a database DVD Store's scripts built, what it does rather than what storebench's does.
  for (const auto& [name, text] : foreign_choices_) c[name] = text;
  if (opts_.browse_words) {
    const BrowseWords& w = *opts_.browse_words;
    std::string words = std::to_string(w.titles.size()) +
                        " titles and actors sampled from PRODUCTS (prod_id, title, actor):";
    for (size_t i = 0; i < w.titles.size(); ++i) {
      words += (i ? "; " : " ") + std::to_string(w.products[i]) + ", " + w.titles[i] + ", " +
               w.actors[i];
    }
    c["browse_words"] = words;
  }
  return c;
}

Status DvdStoreWorkload::Load(db::DbBackend& backend, const workload::LoadContext& ctx) {
  auto conn = backend.Connect();
  if (!conn.ok()) return conn.status();
  auto opened = workload::StoreMeta::Open(**conn, dialect_);
  if (!opened.ok()) return opened.status();
  workload::StoreMeta& meta = *opened;
  auto has_meta = meta.Exists();
  if (!has_meta.ok()) return has_meta.status();
  if (opts_.procedures_only) {
    return LoadProceduresOnly(**conn, meta, *has_meta, meta.set_sql(), dialect_, ctx);
  }
  if (*has_meta) {
    // An adopted DVD Store-built database holds data storebench did not make: never replaced.
    auto origin = meta.Get("origin");
    if (!origin.ok()) return origin.status();
    if (*origin == kOriginDs3Scripts) {
      return Status::AlreadyExists(
          "the database was built by DVD Store's scripts and adopted (--adopt=Y); storebench "
          "does not replace it, even with --force: load into another database");
    }
  }
  bool replace = false;
  std::string previous_state;
  SB_RETURN_IF_ERROR(
      workload::CheckLoadTarget(meta, kOwner, ctx.force, &replace, &previous_state));
  if (replace) {
    auto drop = SqlScript(dialect_, "drop.sql", false);
    if (!drop.ok()) return drop.status();
    if (ctx.progress) ctx.progress("dropping the existing DVD Store tables (--force)");
    // storebench's own procedure names, in storebench's own DVD Store database: ours, even when
    // an older storebench reloaded the tables since and its meta rows do not mention them.
    SB_RETURN_IF_ERROR(DropProcedures(**conn, dialect_));
    if (Status dropped = (*conn)->ExecuteScript(*drop); !dropped.ok()) {
      // PostgreSQL 2BP01: an object of the user's depends on a table, e.g. DVD Store's own
      // functions installed beside storebench's (pgsqlds3_create_sp.sql: BROWSE_BY_CATEGORY
      // RETURNS SETOF PRODUCTS). Nothing was dropped; storebench drops only what it made.
      if (dropped.sqlstate() != "2BP01") return dropped;
      // CheckLoadTarget marked the database unfinished before the drop; no table went, so
      // it is as finished as it was.
      SB_RETURN_IF_ERROR(meta.Set("state", previous_state));
      return Status::FailedPrecondition(
          dropped.message() +
          "; the database holds objects of its own that depend on storebench's DVD Store "
          "tables (such as DVD Store's functions returning SETOF PRODUCTS): drop them, then "
          "load again (the tables are unchanged)");
    }
  }
  auto schema = SqlScript(dialect_, "schema.sql", opts_.ds2_mode);
  if (!schema.ok()) return schema.status();
  SB_RETURN_IF_ERROR((*conn)->ExecuteScript(*schema));
  SB_RETURN_IF_ERROR(meta.Set("workload", "dvdstore"));
  SB_RETURN_IF_ERROR(meta.Set("state", "loading"));
  SB_RETURN_IF_ERROR(meta.Set("schema_version", kSchemaVersion));
  SB_RETURN_IF_ERROR(meta.Set("db_size", opts_.size.label));
  SB_RETURN_IF_ERROR(meta.Set("customers", std::to_string(opts_.size.customers)));
  SB_RETURN_IF_ERROR(meta.Set("products", std::to_string(opts_.size.products)));
  SB_RETURN_IF_ERROR(meta.Set("orders", std::to_string(opts_.size.orders())));
  SB_RETURN_IF_ERROR(meta.Set("ds2_mode", opts_.ds2_mode ? "Y" : "N"));
  SB_RETURN_IF_ERROR(meta.Set("seed", std::to_string(ctx.seed)));
  SB_RETURN_IF_ERROR(meta.Set("load_session", DvdStoreLoadSession(backend)));

  if (ctx.progress) {
    ctx.progress("generating and loading DVD Store " + std::string(opts_.ds2_mode ? "2" : "3") +
                 " data, db_size=" + opts_.size.label + ", " + std::to_string(ctx.threads) +
                 " generator threads");
  }
  if (ds3_csv_layout_ && !ctx.csv_dir.empty()) {
    // DVD Store's layout: the same rows, generated once more in id order into DS3's files; the
    // load itself then writes no CSV of its own.
    if (ctx.progress) ctx.progress("writing DVD Store 3's CSV files into " + ctx.csv_dir);
    SB_RETURN_IF_ERROR(
        WriteDs3Csv(ctx.csv_dir, opts_.size, ctx.seed, opts_.ds2_mode, ds3_csv_crlf_));
    workload::LoadContext no_csv = ctx;
    no_csv.csv_dir.clear();
    SB_RETURN_IF_ERROR(LoadDvdStore(backend, opts_, dialect_, no_csv));
  } else {
    SB_RETURN_IF_ERROR(LoadDvdStore(backend, opts_, dialect_, ctx));
  }
  if (ctx.stop_requested()) return workload::LoadContext::Stopped();
  auto indexes = SqlScript(dialect_, "indexes.sql", opts_.ds2_mode);
  if (!indexes.ok()) return indexes.status();
  workload::IndexBuildOptions index_options;
  index_options.threads = ctx.index_threads;
  // The index connections' own settings (sort memory), recorded with the database.
  if (auto session = SqlScript(dialect_, "index_session.sql", false); session.ok()) {
    index_options.session_sql = *session;
  }
  // Foreign-key names carry the database's own hash (MariaDB) before the script is split.
  SB_RETURN_IF_ERROR(FillForeignKeyNames(**conn, dialect_, &*indexes));
  // Where the server sorts several indexes of one table at once, each CREATE INDEX is a step of
  // its own: reviews_helpfulness's key and two indexes, most of the phase when one after
  // another, took 7.4-11.6 s side by side against 9.1-18.5 s in turn (S, docs/load-performance.md).
  const workload::IndexScript split =
      workload::SplitIndexScript(*indexes, backend.capabilities().concurrent_index_builds);
  if (!backend.capabilities().concurrent_writers) index_options.threads = 1;
  SB_RETURN_IF_ERROR(meta.Set("index_threads", std::to_string(index_options.threads)));
  SB_RETURN_IF_ERROR(
      meta.Set("index_session", workload::SessionSettingsText(index_options.session_sql)));
  if (ctx.progress) {
    ctx.progress("building indexes, full-text index and the restock trigger: " +
                 std::to_string(split.steps.size()) + " steps on up to " +
                 std::to_string(index_options.threads) + " connections" +
                 (index_options.session_sql.empty()
                      ? std::string()
                      : " (" + workload::SessionSettingsText(index_options.session_sql) + ")"));
  }
  SB_RETURN_IF_ERROR(workload::BuildIndexes(backend, split, index_options, ctx));
  // Stored procedures for --sql_mode=procedures, as DVD Store's build installs them.
  if (backend.capabilities().stored_procedures &&
      !ProceduresFingerprint(dialect_, opts_.ds2_mode).empty()) {
    if (ctx.progress) ctx.progress("installing the stored procedures (--sql_mode=procedures)");
    SB_RETURN_IF_ERROR(InstallProcedures(**conn, dialect_, opts_.ds2_mode, meta.set_sql(),
                                         /*drop_first=*/false));
  }
  // Optional post_load.sql: statements that must each run on their own, outside any
  // transaction (PostgreSQL VACUUM), one per "-- name:" section.
  if (auto post = SqlQueries(dialect_, "post_load.sql"); post.ok()) {
    if (ctx.progress) ctx.progress("gathering statistics");
    for (const auto& [name, sql] : *post) SB_RETURN_IF_ERROR((*conn)->ExecuteScript(sql));
  }
  return meta.Set("state", "ready");
}

Status DvdStoreWorkload::CheckReady(db::Connection& conn) {
  auto opened = workload::StoreMeta::Open(conn, dialect_);
  if (!opened.ok()) return opened.status();
  workload::StoreMeta& meta = *opened;
  auto has_meta = meta.Exists();
  if (!has_meta.ok()) return has_meta.status();
  if (!*has_meta) {
    // No storebench_meta: an empty database is refused as before; one with tables may have been
    // built by DVD Store's own scripts.
    auto tables = meta.UserTables();
    if (tables.ok() && *tables == 0) return workload::CheckLoadedAndReady(meta, kOwner);
    return UseForeignDb(conn, meta, /*adopted=*/false);
  }
  SB_RETURN_IF_ERROR(workload::CheckLoadedAndReady(meta, kOwner));
  auto origin = meta.Get("origin");
  if (!origin.ok()) return origin.status();
  if (*origin == kOriginDs3Scripts) return UseForeignDb(conn, meta, /*adopted=*/true);
  auto version = meta.Get("schema_version");
  if (!version.ok()) return version.status();
  if (*version != kSchemaVersion) {
    return Status::FailedPrecondition(
        "the database was loaded by an earlier storebench, whose DVD Store tables differ from "
        "DVD Store 3's (lower-case table names and ZIP VARCHAR(9) on MariaDB/MySQL); reload it "
        "with 'storebench oltp load --force'");
  }
  auto label = meta.Get("db_size");
  auto ds2 = meta.Get("ds2_mode");
  if (!label.ok()) return label.status();
  auto loaded = ParseDsSize(*label);
  if (!loaded.ok()) return loaded.status();
  if (size_given_) {
    if (loaded->customers != opts_.size.customers || loaded->products != opts_.size.products) {
      return Status::FailedPrecondition(
          "the database was loaded with db_size=" + *label +
          " but the run asks for db_size=" + opts_.size.label + "; run with --db_size=" + *label +
          " (or leave it out: a run takes the " +
          "loaded size), or reload with 'storebench oltp load --db_size=" + opts_.size.label +
          " --force'");
    }
  } else {
    opts_.size = *loaded;
  }
  if (ds2.ok() && *ds2 == "Y" && !opts_.ds2_mode) {
    return Status::FailedPrecondition(
        "the database was loaded in DVD Store 2 mode; run with --ds2_mode=Y");
  }
  if (opts_.procedures) {
    auto installed = meta.Get("procedures");
    if (!installed.ok()) return installed.status();
    const char* install =
        "'storebench oltp load --db <this database> --procedures_only=Y' installs them";
    if (installed->empty()) {
      return Status::FailedPrecondition(
          std::string("the database holds no storebench stored procedures (it was loaded "
                      "without them, by an older storebench); ") +
          install);
    }
    if (*installed != ProceduresFingerprint(dialect_, ds2.ok() && *ds2 == "Y")) {
      return Status::FailedPrecondition(
          std::string("the database holds the stored procedures of another storebench "
                      "version; ") +
          install + " anew");
    }
  }
  BuildProductArray();
  return Status::Ok();
}

void DvdStoreWorkload::BuildProductArray() {
  // The product array of spec §5.9: multiples of 10 000 appear ten times.
  auto arr = std::make_shared<std::vector<int32_t>>();
  arr->reserve(static_cast<size_t>(opts_.size.prod_array_size()));
  for (int64_t p = 1; p <= opts_.size.products; ++p) {
    const int copies = p % 10000 == 0 ? 10 : 1;
    for (int c = 0; c < copies; ++c) arr->push_back(static_cast<int32_t>(p));
  }
  prod_array_ = std::move(arr);
}

Result<std::unique_ptr<workload::Session>> DvdStoreWorkload::NewSession(
    std::unique_ptr<db::Connection> conn, uint64_t seed, int worker) {
  if (!prod_array_) return Status::Internal("NewSession before CheckReady");
  auto sql = opts_.procedures ? ProcedureCalls(dialect_) : SqlQueries(dialect_);
  if (!sql.ok()) return sql.status();
  Status status;
  auto s = NewDvdStoreSession(std::move(conn), opts_, prod_array_, std::move(sql).value(), seed,
                              &status);
  if (!status.ok()) return status;
  return s;
}

Result<std::map<std::string, int64_t>> DvdStoreWorkload::Snapshot(db::Connection& conn) {
  auto admin = SqlQueries(dialect_, "admin.sql");
  if (!admin.ok()) return admin.status();
  auto orders = workload::QueryInts(conn, admin->at("count_orders"), 2);
  if (!orders.ok()) return orders.status();
  std::map<std::string, int64_t> out;
  out["orders"] = (*orders)[0];
  out["max_orderid"] = (*orders)[1];
  return out;
}

// Browsing by title and by actor finds product 1 by its own words: a full-text index that
// matches nothing (e.g. a MariaDB FULLTEXT index under a binary collation) would otherwise make
// every browse return no rows, and look fast.
Status DvdStoreWorkload::CheckFullText(db::Connection& conn, const std::string& product_words,
                                       std::vector<workload::Check>* checks) {
  auto words = conn.Prepare(product_words);
  if (!words.ok()) return words.status();
  (*words)->BindInt(1, 1);
  SB_RETURN_IF_ERROR((*words)->Execute());
  if (!(*words)->Next()) return (*words)->status();  // no product 1: other checks say why
  const std::string title((*words)->GetText(0));
  const std::string actor((*words)->GetText(1));
  (*words)->Reset();
  auto queries = SqlQueries(dialect_);
  if (!queries.ok()) return queries.status();
  for (const auto& [name, text] :
       {std::pair{"browse_by_title", title}, {"browse_by_actor", actor}}) {
    auto browse = conn.Prepare(queries->at(name));
    if (!browse.ok()) return browse.status();
    (*browse)->BindText(1, text);
    (*browse)->BindInt(2, 100000);
    SB_RETURN_IF_ERROR((*browse)->Execute());
    int64_t rows = 0;
    bool found = false;
    while ((*browse)->Next()) {
      ++rows;
      found = found || (*browse)->GetInt(0) == 1;
    }
    SB_RETURN_IF_ERROR((*browse)->status());
    checks->push_back(
        {std::string("full_text_") + (name == std::string("browse_by_title") ? "title" : "actor"),
         found,
         std::string(name) + " '" + text + "': " + std::to_string(rows) + " rows, " +
             (found ? "product 1 among them" : "product 1 missing")});
  }
  return Status::Ok();
}

Result<std::vector<workload::Check>> DvdStoreWorkload::Verify(
    db::Connection& conn, const std::map<std::string, int64_t>& before,
    const workload::Totals* whole_run) {
  auto admin = SqlQueries(dialect_, "admin.sql");
  if (!admin.ok()) return admin.status();
  std::vector<workload::Check> checks;
  auto zero_check = [&](const char* name, const char* query, const char* what) -> Status {
    auto n = workload::QueryInts(conn, admin->at(query));
    if (!n.ok()) return n.status();
    const int64_t bad = (*n)[0];
    checks.push_back(
        {name, bad == 0, bad == 0 ? std::string("0 ") + what : std::to_string(bad) + " " + what});
    return Status::Ok();
  };
  SB_RETURN_IF_ERROR(
      zero_check("orders_have_lines", "verify_orders_without_lines", "orders without order lines"));
  SB_RETURN_IF_ERROR(zero_check("lines_have_history", "verify_lines_without_history",
                                "orders whose purchase-history rows differ from their lines"));
  SB_RETURN_IF_ERROR(zero_check("sales_match_orderlines", "verify_sales",
                                "products whose SALES differ from their ordered quantities"));
  SB_RETURN_IF_ERROR(
      zero_check("stock_not_negative", "verify_negative_stock", "products with negative stock"));
  SB_RETURN_IF_ERROR(CheckFullText(conn, admin->at("product_words"), &checks));
  if (whole_run != nullptr && before.count("orders")) {
    auto after = Snapshot(conn);
    if (!after.ok()) return after.status();
    const int64_t new_rows = after->at("orders") - before.at("orders");
    const int64_t committed = static_cast<int64_t>(whole_run->types[1 + kPurchase].count) -
                              whole_run->counters[kRollbacks];
    // A purchase whose commit lost its connection may or may not be in the database.
    const int64_t in_doubt = whole_run->counters[kOrdersInDoubt];
    std::string words = "client committed " + std::to_string(committed) +
                        " orders, ORDERS grew by " + std::to_string(new_rows) + " rows";
    if (in_doubt > 0) {
      words += " (" + std::to_string(in_doubt) +
               " more in doubt: their commit lost its connection, so each may count)";
    }
    checks.push_back({"committed_orders_match",
                      new_rows >= committed && new_rows <= committed + in_doubt, words});
  }
  return checks;
}

std::vector<workload::ServerComparison> DvdStoreWorkload::CompareWithServer(
    const workload::Totals& span, const workload::ServerView& server) const {
  const int64_t rollbacks = span.counters[kRollbacks];
  const int64_t committed = static_cast<int64_t>(span.types[1 + kPurchase].count) - rollbacks;
  std::vector<workload::ServerComparison> out;
  if (auto it = server.probe_delta.find("orders"); it != server.probe_delta.end()) {
    out.push_back({"committed_orders_vs_new_orders_rows", committed, it->second, true,
                   "orders the client committed vs rows added to ORDERS",
                   span.counters[kOrdersInDoubt]});
  }
  if (auto it = server.counter_delta.find("commits"); it != server.counter_delta.end()) {
    out.push_back({"server_commits_vs_committed_orders", committed, it->second, false,
                   "orders the client committed vs transactions the server committed (these "
                   "also count the other steps' and the driver's own transactions)"});
  }
  if (auto it = server.counter_delta.find("rollbacks"); it != server.counter_delta.end()) {
    out.push_back({"server_rollbacks_vs_rolled_back_orders", rollbacks, it->second, false,
                   "orders the client rolled back (short of stock) vs transactions the server "
                   "rolled back (these also count retried deadlocks)"});
  }
  return out;
}

std::vector<std::pair<std::string, double>> DvdStoreWorkload::Figures(
    const workload::Totals& window, const workload::Totals& since_start,
    const workload::WindowFacts& facts) const {
  const auto& w = window.types;
  // Quirk 3: these four were never reset at the end of warm-up in DS3.
  const auto& late = opts_.bug_compat ? since_start.types : window.types;
  const auto step = [&](int s) -> const workload::TypeTotals& { return w[1 + s]; };
  const auto late_step = [&](int s) -> const workload::TypeTotals& { return late[1 + s]; };
  const double n = static_cast<double>(w[0].count);
  const double opm = facts.elapsed_sec > 0 ? std::floor(60.0 * n / facts.elapsed_sec) : 0;
  const int64_t rollbacks = window.counters[kRollbacks];
  const double rate = n > 0 ? 100.0 * static_cast<double>(rollbacks) / n : 0;
  std::vector<std::pair<std::string, double>> f;
  auto add = [&](const char* name, double v) { f.emplace_back(name, v); };
  add("et", facts.elapsed_sec);
  add("n_overall", n);
  add("opm", opm);
  add("rt_tot_lastn_max", static_cast<double>(facts.unit_lastn_max_msec));
  add("rt_tot_avg", static_cast<double>(AvgMsec(w[0])));
  add("n_login_overall", static_cast<double>(step(kLogin).count));
  add("n_newcust_overall", static_cast<double>(step(kNewCust).count));
  if (!opts_.ds2_mode) {
    add("n_newmember_overall", static_cast<double>(late_step(kNewMember).count));
  }
  add("n_browse_overall", static_cast<double>(step(kBrowse).count));
  if (!opts_.ds2_mode) {
    add("n_reviewbrowse", static_cast<double>(late_step(kReviewBrowse).count));
    add("n_newreviews", static_cast<double>(late_step(kNewReview).count));
    add("n_newhelpfulness", static_cast<double>(late_step(kNewHelpfulness).count));
  }
  add("n_purchase_overall", static_cast<double>(step(kPurchase).count));
  add("rt_login_avg_msec", static_cast<double>(AvgMsec(step(kLogin))));
  add("rt_newcust_avg_msec", static_cast<double>(AvgMsec(step(kNewCust))));
  if (!opts_.ds2_mode)
    add("rt_rewmember_avg_msec", static_cast<double>(AvgMsec(late_step(kNewMember))));
  add("rt_browse_avg_msec", static_cast<double>(AvgMsec(step(kBrowse))));
  if (!opts_.ds2_mode) {
    add("rt_reviewbrowse_avg_msec", static_cast<double>(AvgMsec(late_step(kReviewBrowse))));
    workload::TypeTotals newreview = late_step(kNewReview);
    // Quirk 2: DS3 accumulated the new-member time into the new-review sum.
    if (opts_.bug_compat) newreview.sum_nanos = late_step(kNewMember).sum_nanos;
    add("rt_newreview_avg_msec", static_cast<double>(AvgMsec(newreview)));
    add("rt_newhelpfulness", static_cast<double>(AvgMsec(late_step(kNewHelpfulness))));
  }
  add("rt_purchase_avg_msec", static_cast<double>(AvgMsec(step(kPurchase))));
  add("rt_tot_sampled", static_cast<double>(facts.unit_sampled_msec));
  add("n_rollbacks_overall", static_cast<double>(rollbacks));
  add("rollback_rate", rate);
  return f;
}

}  // namespace sb::dvdstore
