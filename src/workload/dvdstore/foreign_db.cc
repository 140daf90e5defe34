#include "workload/dvdstore/foreign_db.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "workload/dvdstore/dvdstore_workload.h"
#include "workload/dvdstore/sql_files.h"
#include "workload/dvdstore/tables.h"
#include "workload/named_sql.h"
#include "workload/query_ints.h"
#include "workload/store_meta.h"

namespace sb::dvdstore {
namespace {

// count(*) of one DVD Store table; an error when the table does not exist. The name comes from
// tables.h, never from input.
Result<int64_t> CountRows(db::Connection& conn, Table t, const std::string& dialect) {
  auto n = workload::QueryInts(conn, "SELECT count(*) FROM " + SqlTableName(t, dialect));
  if (!n.ok()) return n.status();
  return (*n)[0];
}

// The first text column of a one-row admin.sql query; "" when it returns no row or the dialect
// has no such query.
std::string OneText(db::Connection& conn, const std::map<std::string, std::string>& admin,
                    const char* name) {
  auto it = admin.find(name);
  if (it == admin.end()) return "";
  auto stmt = conn.Prepare(it->second);
  if (!stmt.ok() || !(*stmt)->Execute().ok()) return "";
  std::string out;
  if ((*stmt)->Next()) out = std::string((*stmt)->GetText(0));
  (*stmt)->Reset();
  return out;
}

Result<std::shared_ptr<const BrowseWords>> SampleWords(
    db::Connection& conn, const std::map<std::string, std::string>& admin, int64_t max_prod) {
  auto stmt = conn.Prepare(admin.at("product_words"));
  if (!stmt.ok()) return stmt.status();
  auto words = std::make_shared<BrowseWords>();
  const int64_t n = std::min<int64_t>(kSampledProducts, max_prod);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t id = 1 + i * max_prod / n;
    (*stmt)->BindInt(1, id);
    SB_RETURN_IF_ERROR((*stmt)->Execute());
    if ((*stmt)->Next()) {
      words->titles.emplace_back((*stmt)->GetText(0));
      words->actors.emplace_back((*stmt)->GetText(1));
      words->products.push_back(id);
    }
    SB_RETURN_IF_ERROR((*stmt)->status());
    (*stmt)->Reset();
  }
  if (words->titles.empty()) {
    return Status::FailedPrecondition(
        "the DVD Store database's PRODUCTS table holds none of products 1.." +
        std::to_string(max_prod) + ", so there are no titles or actors to browse for");
  }
  return std::shared_ptr<const BrowseWords>(std::move(words));
}

// Indexes storebench builds (indexes.sql) that its statements lean on and DVD Store's builds do
// not all have: table, leading columns (lower case).
constexpr std::pair<const char*, const char*> kStorebenchIndexes[] = {
    {"cust_hist", "orderid"},
    {"orderlines", "prod_id"},
    {"products", "category,special"},
    {"reviews_helpfulness", "review_id,helpfulness"},
};

// The indexes of kStorebenchIndexes the database lacks (no index starts with those columns),
// as "TABLE(COLUMNS)"; empty when the dialect cannot list its indexes.
std::vector<std::string> MissingIndexes(db::Connection& conn,
                                        const std::map<std::string, std::string>& admin) {
  std::vector<std::string> missing;
  auto it = admin.find("index_columns");
  if (it == admin.end()) return missing;
  auto stmt = conn.Prepare(it->second);
  if (!stmt.ok() || !(*stmt)->Execute().ok()) return missing;
  std::vector<std::pair<std::string, std::string>> have;
  while ((*stmt)->Next()) {
    have.emplace_back(std::string((*stmt)->GetText(0)), std::string((*stmt)->GetText(1)));
  }
  (*stmt)->Reset();
  for (const auto& [table, columns] : kStorebenchIndexes) {
    const std::string cols(columns);
    // A named copy: clang 14 (the fuzz build) cannot capture a structured binding.
    const std::string tbl(table);
    const bool found = std::any_of(have.begin(), have.end(), [&](const auto& h) {
      return h.first == tbl && (h.second == cols || h.second.rfind(cols + ",", 0) == 0);
    });
    if (!found) {
      std::string name = std::string(table) + "(" + cols + ")";
      for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      missing.push_back(name);
    }
  }
  return missing;
}

// How the database differs from one storebench loads, as far as the catalog tells; the choices
// that describe it instead of storebench's schema go into `choices`. `texts` are the dialect's
// words for what it finds (foreign_db.sql).
std::vector<std::string> Differences(db::Connection& conn,
                                     const std::map<std::string, std::string>& admin,
                                     const std::map<std::string, std::string>& texts,
                                     std::map<std::string, std::string>* choices) {
  // The text of section `name` with `placeholder` filled in; "" when the dialect has none.
  auto text = [&](const std::string& name, std::string_view placeholder = {},
                  std::string_view value = {}) {
    auto it = texts.find(name);
    std::string out = it == texts.end() ? "" : it->second;
    if (!placeholder.empty()) workload::ReplaceAll(out, placeholder, value);
    return out;
  };
  std::vector<std::string> out;
  auto differs = [&](std::string difference) {
    if (!difference.empty()) out.push_back(std::move(difference));
  };
  auto choose = [&](const char* key, std::string choice) {
    if (!choice.empty()) (*choices)[key] = std::move(choice);
  };
  out.emplace_back(
      "built by DVD Store's scripts: storebench read its size from the row counts and browses "
      "for titles and actors sampled from its PRODUCTS rows (storebench's own word lists are not "
      "DVD Store's)");
  const std::string trigger = OneText(conn, admin, "restock_trigger");
  if (trigger.empty()) {
    (*choices)["restock"] =
        "none: the database has no restock trigger on INVENTORY, so stock only falls and the "
        "rollback rate rises over a long run";
    differs(text("no_restock_trigger"));
  } else if (trigger != text("storebench_restock_trigger")) {
    differs(text("other_restock_trigger", "{trigger}", trigger));
    choose("restock", text(trigger == text("ds3_restock_trigger") ? "ds3_restock_trigger_choice"
                                                                  : "other_restock_trigger_choice",
                           "{trigger}", trigger));
  }
  const std::string engine = OneText(conn, admin, "products_engine");
  if (!engine.empty() && engine != text("storebench_products_engine")) {
    differs(text("other_products_engine", "{engine}", engine));
    choose("full_text", text("other_products_engine_choice", "{engine}", engine));
  }
  if (const auto missing = MissingIndexes(conn, admin); !missing.empty()) {
    std::string list;
    for (const std::string& m : missing) list += (list.empty() ? "" : ", ") + m;
    out.emplace_back("no index on " + list +
                     ", which storebench builds for its statements and checks (a run on this "
                     "database may be slower for that alone)");
  }
  return out;
}

}  // namespace

DsSize SizeFromCounts(int64_t customers, int64_t products, int64_t orders) {
  std::vector<std::string> labels = {"S", "M", "L"};
  if (products % 1000 == 0) labels.push_back(std::to_string(products / 1000) + "MB");
  if (products % 10000 == 0) labels.push_back(std::to_string(products / 10000) + "GB");
  const DsSize* fits = nullptr;
  std::vector<DsSize> sizes;
  sizes.reserve(labels.size());
  for (const std::string& l : labels) {
    auto s = ParseDsSize(l);
    if (s.ok()) sizes.push_back(*s);
  }
  for (const DsSize& s : sizes) {
    if (s.products != products || s.customers > customers || s.orders() > orders) continue;
    if (s.customers == customers) return s;
    if (fits == nullptr) fits = &s;
  }
  if (fits != nullptr) return *fits;
  DsSize counted;
  counted.label = "counted";
  counted.customers = customers;
  counted.products = products;
  counted.orders_per_month = orders / 12;
  return counted;
}

Result<ForeignDb> ReadForeignDb(db::Connection& conn, const std::string& dialect, bool ds2) {
  ForeignDb db;
  int64_t counts[kNumTables] = {};
  // DVD Store 2's tables first (DS3 has them too), then DS3's own.
  for (bool ds3_only : {false, true}) {
    if (ds3_only && ds2) break;
    const std::vector<Table> ds2_tables = TablesFor(true);
    for (Table t : TablesFor(ds3_only ? false : true)) {
      const bool in_ds2 = std::find(ds2_tables.begin(), ds2_tables.end(), t) != ds2_tables.end();
      if (ds3_only && in_ds2) continue;
      auto n = CountRows(conn, t, dialect);
      if (n.ok()) {
        counts[static_cast<int>(t)] = *n;
        continue;
      }
      if (ds3_only) {
        return Status::FailedPrecondition(
            "the database holds DVD Store 2's tables but not DVD Store 3's " +
            SqlTableName(t, dialect) + "; run it with --ds2_mode=Y");
      }
      return Status::FailedPrecondition(
          "the database holds no storebench DVD Store tables and no DVD Store table " +
          SqlTableName(t, dialect) + "; load it first with 'storebench oltp load'");
    }
  }
  db.customers = counts[static_cast<int>(Table::kCustomers)];
  db.products = counts[static_cast<int>(Table::kProducts)];
  db.orders = counts[static_cast<int>(Table::kOrders)];
  if (db.customers == 0 || db.products == 0) {
    return Status::FailedPrecondition(
        "the DVD Store database holds " + std::to_string(db.customers) + " customers and " +
        std::to_string(db.products) + " products; load its data first");
  }
  db.size = SizeFromCounts(db.customers, db.products, db.orders);
  auto admin = SqlQueries(dialect, "admin.sql");
  if (!admin.ok()) return admin.status();
  auto words = SampleWords(conn, *admin, db.products);
  if (!words.ok()) return words.status();
  db.words = std::move(words).value();
  auto texts = SqlTexts(dialect, "foreign_db.sql");  // none: the dialect says nothing more
  db.differences = Differences(
      conn, *admin, texts.ok() ? *texts : std::map<std::string, std::string>{}, &db.choices);
  return db;
}

// Defined here, beside what it reads (dvdstore_workload.h declares it).
Status DvdStoreWorkload::UseForeignDb(db::Connection& conn, workload::StoreMeta& meta,
                                      bool adopted) {
  if (opts_.procedures) {
    return Status::FailedPrecondition(
        "a database built by DVD Store's scripts holds DVD Store's own procedures, not "
        "storebench's; run it with --sql_mode=client (the default)");
  }
  if (adopted) {
    auto ds2 = meta.Get("ds2_mode");
    if (!ds2.ok()) return ds2.status();
    if ((*ds2 == "Y") != opts_.ds2_mode) {
      return Status::FailedPrecondition(std::string("the database was adopted in DVD Store ") +
                                        (*ds2 == "Y" ? "2" : "3") +
                                        " mode; run with --ds2_mode=" + (*ds2 == "Y" ? "Y" : "N"));
    }
  }
  auto db = ReadForeignDb(conn, dialect_, opts_.ds2_mode);
  if (!db.ok()) return db.status();
  if (size_given_) {
    if (opts_.size.products != db->products || opts_.size.customers > db->customers) {
      return Status::FailedPrecondition(
          "the database holds " + std::to_string(db->customers) + " customers and " +
          std::to_string(db->products) + " products, which db_size=" + opts_.size.label +
          " does not fit; leave --db_size out (a run takes the size from the row counts)");
    }
  } else {
    opts_.size = db->size;
  }
  opts_.browse_words = db->words;
  foreign_differences_ = db->differences;
  foreign_choices_ = db->choices;
  foreign_counts_ = std::to_string(db->customers) + " customers, " + std::to_string(db->products) +
                    " products, " + std::to_string(db->orders) + " orders";
  if (adopt_ && !adopted) {
    SB_RETURN_IF_ERROR(meta.CreateTable());
    SB_RETURN_IF_ERROR(meta.Set("workload", "dvdstore"));
    SB_RETURN_IF_ERROR(meta.Set("state", "ready"));
    SB_RETURN_IF_ERROR(meta.Set("origin", kOriginDs3Scripts));
    SB_RETURN_IF_ERROR(meta.Set("schema_version", kSchemaVersion));
    SB_RETURN_IF_ERROR(meta.Set("db_size", opts_.size.label));
    SB_RETURN_IF_ERROR(meta.Set("ds2_mode", opts_.ds2_mode ? "Y" : "N"));
  }
  BuildProductArray();
  return Status::Ok();
}

}  // namespace sb::dvdstore
