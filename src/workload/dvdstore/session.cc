// The DVD Store order loop (spec §5), one Session per worker thread.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "base/random.h"
#include "workload/dvdstore/dvdstore_workload.h"
#include "workload/dvdstore/words.h"

namespace sb::dvdstore {
namespace {

using workload::OpContext;

// The order loop gives up on a "pick a random name until it is free" loop after this many tries
// (DVD Store loops forever; once every candidate name is taken that would hang the worker).
constexpr int kMaxPickAttempts = 1000;
// DVD Store's MAX_ROWS: the most login-history rows the driver reads.
constexpr int kMaxHistoryRows = 100;

std::string RandomCaps(Random& rng, int n) {
  std::string s(n, 'A');
  for (char& c : s) c = static_cast<char>('A' + rng.Uniform(0, 25));
  return s;
}

// An FTS5 query string matching `words` as a phrase in `column`. The words come from the
// built-in lists (letters only), so quoting them as one phrase is always well-formed.
std::string FtsPhrase(std::string_view column, std::string_view words) {
  std::string q(column);
  q += ":\"";
  q += words;
  q += '"';
  return q;
}

struct CustomerData {
  std::string firstname, lastname, address1, city, state, zip, country, email, phone,
      creditcard, expiration, gender;
  int64_t region = 1, creditcardtype = 1, age = 18, income = 20000;
};

class DsSession final : public workload::Session {
 public:
  DsSession(std::unique_ptr<db::Connection> conn, const DsOptions& opts,
            std::shared_ptr<const std::vector<int32_t>> prod_array,
            std::map<std::string, std::string> sql, uint64_t seed)
      : conn_(std::move(conn)),
        opts_(opts),
        prod_array_(std::move(prod_array)),
        sql_(std::move(sql)),
        rng_(seed) {}

  Status Prepare() {
    for (const auto& [name, text] : sql_) {
      const bool ds3_only = name.find("review") != std::string::npos || name == "new_member" ||
                            name == "is_member" || name == "new_helpfulness";
      if (opts_.ds2_mode && ds3_only) continue;
      auto stmt = conn_->Prepare(text);
      if (!stmt.ok()) return stmt.status();
      stmts_[name] = std::move(stmt).value();
    }
    return Status::Ok();
  }

  Status RunUnit(OpContext& ctx) override;

 private:
  db::Statement& S(const char* name) { return *stmts_.at(name); }
  int64_t RandomProduct() {
    return (*prod_array_)[rng_.Uniform(0, static_cast<int64_t>(prod_array_->size()) - 1)];
  }
  std::string RandomActor() {
    const auto& first = ActorFirstNames();
    const auto& last = ActorLastNames();
    std::string a(first[rng_.Uniform(0, kNumActorFirst - 1)]);
    a += ' ';
    a += last[rng_.Uniform(0, kNumActorLast - 1)];
    return a;
  }
  std::string RandomTitle() {
    const auto& words = TitleWords();
    std::string t(words[rng_.Uniform(0, kNumTitleWords - 1)]);
    t += ' ';
    t += words[rng_.Uniform(0, kNumTitleWords - 1)];
    return t;
  }
  std::string ReviewWords(int n) {
    const auto& words = sb::dvdstore::ReviewWords();
    std::string s;
    for (int i = 0; i < n; ++i) {
      s += ' ';
      s += words[rng_.Next(kReviewWordsDriver)];
    }
    return s;
  }
  CustomerData NewCustomerData();

  // Database calls; each leaves no transaction open when it fails.
  Status Login(const std::string& username, int64_t* customerid);
  Status NewCustomer(const CustomerData& c, const std::string& username, int64_t* customerid);
  Status NewMember(int64_t customerid, int64_t level, int64_t* result);
  Status ReadRows(db::Statement& stmt);
  Status Purchase(int64_t customerid, const std::vector<std::pair<int64_t, int64_t>>& cart,
                  double net, int64_t* orderid);
  Status Prices(const std::vector<std::pair<int64_t, int64_t>>& cart, double* net);

  std::unique_ptr<db::Connection> conn_;
  DsOptions opts_;
  std::shared_ptr<const std::vector<int32_t>> prod_array_;
  std::map<std::string, std::string> sql_;
  std::map<std::string, std::unique_ptr<db::Statement>> stmts_;
  Random rng_;
};

CustomerData DsSession::NewCustomerData() {
  // Spec §5.3 (the driver's CreateUserData).
  CustomerData c;
  c.firstname = RandomCaps(rng_, 6);
  c.lastname = RandomCaps(rng_, 10);
  c.city = RandomCaps(rng_, 7);
  if (rng_.Uniform(0, 1) == 1) {
    c.country = std::string(RowCountries()[rng_.Uniform(0, 9)]);
    c.region = 2;
    c.zip = std::to_string(rng_.Uniform(0, 99999));
  } else {
    c.country = "US";
    c.region = 1;
    c.state = std::string(UsStates()[rng_.Uniform(0, 49)]);  // the first 50 codes only
    c.zip = std::to_string(rng_.Uniform(0, 99999));
  }
  c.phone = std::to_string(rng_.Uniform(100, 999)) + std::to_string(rng_.Uniform(0, 9999999));
  c.creditcardtype = rng_.Uniform(1, 5);
  c.creditcard = std::to_string(rng_.Uniform(10000000, 99999999)) +
                 std::to_string(rng_.Uniform(10000000, 99999999));
  const int64_t month = rng_.Uniform(1, 12);
  const int64_t year = rng_.Uniform(2008, 2012);
  c.expiration = std::to_string(year) + (month < 10 ? "/0" : "/") + std::to_string(month);
  c.address1 = c.phone + " Dell Way";
  c.email = c.lastname + "@dell.com";
  c.age = rng_.Uniform(18, 99);
  c.income = 20000 * rng_.Uniform(1, 5);
  c.gender = rng_.Uniform(0, 1) ? "M" : "F";
  return c;
}

Status DsSession::Login(const std::string& username, int64_t* customerid) {
  db::Statement& login = S("login");
  login.BindText(1, username);
  login.BindText(2, "password");
  SB_RETURN_IF_ERROR(login.Execute());
  *customerid = login.Next() ? login.GetInt(0) : 0;
  SB_RETURN_IF_ERROR(login.status());
  while (login.Next()) {
  }
  if (*customerid == 0) return Status::Ok();
  db::Statement& hist = S("login_history");
  hist.BindInt(1, *customerid);
  SB_RETURN_IF_ERROR(hist.Execute());
  int rows = 0;
  while (rows < kMaxHistoryRows && hist.Next()) ++rows;
  SB_RETURN_IF_ERROR(hist.status());
  hist.Reset();  // stop early as DVD Store's driver does, and release the read snapshot
  return Status::Ok();
}

Status DsSession::NewCustomer(const CustomerData& c, const std::string& username,
                              int64_t* customerid) {
  // Returns 0 when the username is taken (as the procedures do), else the new id.
  db::Statement& taken = S("username_taken");
  taken.BindText(1, username);
  SB_RETURN_IF_ERROR(taken.Execute());
  const bool exists = taken.Next();
  SB_RETURN_IF_ERROR(taken.status());
  while (taken.Next()) {
  }
  if (exists) {
    *customerid = 0;
    return Status::Ok();
  }
  db::Statement& ins = S("new_customer");
  int i = 1;
  for (const std::string* f : {&c.firstname, &c.lastname, &c.address1}) ins.BindText(i++, *f);
  ins.BindText(i++, "");  // address2
  ins.BindText(i++, c.city);
  ins.BindText(i++, c.state);
  ins.BindText(i++, c.zip);
  ins.BindText(i++, c.country);
  ins.BindInt(i++, c.region);
  ins.BindText(i++, c.email);
  ins.BindText(i++, c.phone);
  ins.BindInt(i++, c.creditcardtype);
  ins.BindText(i++, c.creditcard);
  ins.BindText(i++, c.expiration);
  ins.BindText(i++, username);
  ins.BindText(i++, "password");
  ins.BindInt(i++, c.age);
  ins.BindInt(i++, c.income);
  ins.BindText(i++, c.gender);
  Status s = ins.Execute();
  if (!s.ok() && s.category() == ErrorCategory::kConstraint) {
    *customerid = 0;  // another worker took the name between the check and the insert
    return Status::Ok();
  }
  SB_RETURN_IF_ERROR(s);
  *customerid = conn_->LastInsertId();
  return Status::Ok();
}

Status DsSession::NewMember(int64_t customerid, int64_t level, int64_t* result) {
  db::Statement& ins = S("new_member");
  ins.BindInt(1, customerid);
  ins.BindInt(2, level);
  Status s = ins.Execute();
  if (!s.ok() && s.category() == ErrorCategory::kConstraint) {
    *result = 0;  // already a member
    return Status::Ok();
  }
  SB_RETURN_IF_ERROR(s);
  *result = customerid;
  return Status::Ok();
}

Status DsSession::ReadRows(db::Statement& stmt) {
  SB_RETURN_IF_ERROR(stmt.Execute());
  while (stmt.Next()) {
  }
  return stmt.status();
}

Status DsSession::Prices(const std::vector<std::pair<int64_t, int64_t>>& cart, double* net) {
  db::Statement& q = S("prices");
  for (int i = 0; i < kMaxCartLines; ++i) {
    q.BindInt(i + 1, cart[std::min<size_t>(i, cart.size() - 1)].first);
  }
  SB_RETURN_IF_ERROR(q.Execute());
  std::map<int64_t, double> price;
  while (q.Next()) price[q.GetInt(0)] = q.GetDouble(1);
  SB_RETURN_IF_ERROR(q.status());
  double sum = 0;
  for (const auto& [prod, qty] : cart) sum += static_cast<double>(qty) * price[prod];
  *net = std::round(sum * 100) / 100;
  return Status::Ok();
}

Status DsSession::Purchase(int64_t customerid,
                           const std::vector<std::pair<int64_t, int64_t>>& cart, double net,
                           int64_t* orderid) {
  // Spec §5.9: one transaction; the first line short of stock rolls back the whole order.
  const double tax = std::round(net * 8.25) / 100;
  const double total = std::round((net + tax) * 100) / 100;
  SB_RETURN_IF_ERROR(conn_->Begin(/*write=*/true));
  auto fail = [&](Status s) {
    conn_->Rollback().IgnoreError();
    return s;
  };
  db::Statement& order = S("insert_order");
  order.BindInt(1, customerid);
  order.BindDouble(2, net);
  order.BindDouble(3, tax);
  order.BindDouble(4, total);
  if (Status s = order.Execute(); !s.ok()) return fail(s);
  const int64_t id = conn_->LastInsertId();
  db::Statement& read = S("read_stock");
  db::Statement& update = S("update_stock");
  db::Statement& line = S("insert_orderline");
  db::Statement& hist = S("insert_cust_hist");
  for (size_t i = 0; i < cart.size(); ++i) {
    const auto [prod, qty] = cart[i];
    read.BindInt(1, prod);
    if (Status s = read.Execute(); !s.ok()) return fail(s);
    if (!read.Next()) return fail(read.status().ok() ? Status::DbError("product " +
                                                       std::to_string(prod) +
                                                       " has no inventory row")
                                                     : read.status());
    const int64_t stock = read.GetInt(0);
    const int64_t sales = read.GetInt(1);
    while (read.Next()) {
    }
    if (stock - qty < 0) {
      conn_->Rollback().IgnoreError();
      *orderid = 0;
      return Status::Ok();
    }
    update.BindInt(1, stock - qty);
    update.BindInt(2, sales + qty);
    update.BindInt(3, prod);
    if (Status s = update.Execute(); !s.ok()) return fail(s);
    line.BindInt(1, static_cast<int64_t>(i) + 1);
    line.BindInt(2, id);
    line.BindInt(3, prod);
    line.BindInt(4, qty);
    if (Status s = line.Execute(); !s.ok()) return fail(s);
    hist.BindInt(1, customerid);
    hist.BindInt(2, id);
    hist.BindInt(3, prod);
    if (Status s = hist.Execute(); !s.ok()) return fail(s);
  }
  if (Status s = conn_->Commit(); !s.ok()) return fail(s);
  *orderid = id;
  return Status::Ok();
}

Status DsSession::RunUnit(OpContext& ctx) {
  const int64_t max_customer = opts_.size.customers;
  const int64_t max_product = opts_.size.products;
  // §5.1: one draw decides new customer, new member, new review and new helpfulness.
  const double user_type = rng_.NextDouble();
  const bool returning = user_type >= static_cast<double>(opts_.pct_newcustomers) / 100.0;
  const bool ds3 = !opts_.ds2_mode;
  const bool new_member = ds3 && user_type <= static_cast<double>(opts_.pct_newmember) / 100.0;
  const bool new_review = ds3 && user_type <= static_cast<double>(opts_.pct_newreviews) / 100.0;
  const bool new_help = ds3 && user_type <= static_cast<double>(opts_.pct_newhelpfulness) / 100.0;

  int64_t customerid = 0;
  if (returning) {
    const std::string username = "user" + std::to_string(rng_.Uniform(1, max_customer));
    auto out = ctx.Step(kLogin, [&] { return Login(username, &customerid); });
    SB_RETURN_IF_ERROR(out.status);
    if (customerid == 0) {
      return Status::FailedPrecondition("User " + username +
                                        " not found: the database does not match db_size=" +
                                        opts_.size.label);
    }
  } else {
    const CustomerData data = NewCustomerData();
    workload::StepOutcome out;
    for (int attempt = 0; customerid < 1; ++attempt) {
      if (attempt == kMaxPickAttempts) {
        return Status::FailedPrecondition("no free new-customer user name after " +
                                          std::to_string(kMaxPickAttempts) + " tries");
      }
      const std::string username = "newuser" + std::to_string(rng_.Uniform(1, max_customer));
      out = ctx.Timed([&] { return NewCustomer(data, username, &customerid); });
      SB_RETURN_IF_ERROR(out.status);
    }
    ctx.RecordStep(kNewCust, out.elapsed_nanos);  // only the last attempt counts (§5.3)
  }

  if (new_member) {
    int64_t result = 0;
    workload::StepOutcome out;
    for (int attempt = 0; result == 0; ++attempt) {
      if (attempt == kMaxPickAttempts) {
        return Status::FailedPrecondition("no customer without membership found after " +
                                          std::to_string(kMaxPickAttempts) + " tries");
      }
      // A random customer, not the current one (DVD Store's behaviour, spec §5.4).
      const int64_t member = rng_.Uniform(1, max_customer);
      const int64_t level = rng_.Uniform(1, 3);
      out = ctx.Timed([&] { return NewMember(member, level, &result); });
      SB_RETURN_IF_ERROR(out.status);
    }
    ctx.RecordStep(kNewMember, out.elapsed_nanos);
  }

  // §5.5 product browse.
  const int64_t n_browse = rng_.UniformMean(opts_.n_searches);
  for (int64_t i = 0; i < n_browse; ++i) {
    const int64_t batch = rng_.UniformMean(opts_.search_batch_size);
    const int64_t type = rng_.Uniform(0, 2);
    db::Statement* stmt = nullptr;
    if (type == 0) {
      stmt = &S("browse_by_category");
      stmt->BindInt(1, rng_.Uniform(1, 16));
      stmt->BindInt(2, batch);
    } else {
      stmt = &S("browse_by_fts");
      stmt->BindText(1, type == 1 ? FtsPhrase("actor", RandomActor())
                                  : FtsPhrase("title", RandomTitle()));
      stmt->BindInt(2, batch);
    }
    SB_RETURN_IF_ERROR(ctx.Step(kBrowse, [&] { return ReadRows(*stmt); }).status);
  }

  if (ds3) {
    // §5.6 review browse by actor last name or title word.
    const int64_t n_rb = rng_.UniformMean(opts_.n_reviews);
    int64_t first_loop_nanos = 0;
    for (int64_t i = 0; i < n_rb; ++i) {
      const int64_t batch = rng_.UniformMean(opts_.search_batch_size);
      std::string query;
      if (rng_.Uniform(0, 1) == 0) {
        const std::string actor = RandomActor();
        query = FtsPhrase("actor", actor.substr(actor.find(' ') + 1));
      } else {
        const std::string title = RandomTitle();
        query = FtsPhrase("title", title.substr(title.find(' ') + 1));
      }
      db::Statement& stmt = S("reviews_by_fts");
      stmt.BindText(1, query);
      stmt.BindInt(2, opts_.search_depth);
      stmt.BindInt(3, batch);
      auto out = ctx.Step(kReviewBrowse, [&] { return ReadRows(stmt); });
      SB_RETURN_IF_ERROR(out.status);
      first_loop_nanos += out.elapsed_nanos;
    }
    // Spec §8.1 item 1: DVD Store adds the first review loop to rt_tot twice.
    if (opts_.bug_compat) ctx.AddToUnitTime(first_loop_nanos);

    // §5.7 review read by product.
    const int64_t stars = rng_.Uniform(1, 5);
    const int64_t n_rr = rng_.UniformMean(opts_.n_reviews);
    for (int64_t i = 0; i < n_rr; ++i) {
      const int64_t batch = rng_.UniformMean(opts_.search_batch_size);
      const int64_t prod = RandomProduct();
      const int64_t type = rng_.Uniform(0, 2);
      db::Statement* stmt = nullptr;
      if (type == 1) {
        stmt = &S("reviews_by_product_stars");
        stmt->BindInt(1, prod);
        stmt->BindInt(2, stars);
        stmt->BindInt(3, batch);
      } else {
        stmt = &S(type == 0 ? "reviews_by_product" : "reviews_by_product_date");
        stmt->BindInt(1, prod);
        stmt->BindInt(2, batch);
      }
      SB_RETURN_IF_ERROR(ctx.Step(kReviewBrowse, [&] { return ReadRows(*stmt); }).status);
    }

    // §5.8 new review and helpfulness rating.
    if (new_review) {
      const std::string summary = ReviewWords(3);
      const std::string text = ReviewWords(25);
      const int64_t review_stars = rng_.Uniform(1, 5);
      const int64_t prod = rng_.Uniform(1, max_product);
      db::Statement& stmt = S("new_review");
      stmt.BindInt(1, prod);
      stmt.BindInt(2, review_stars);
      stmt.BindInt(3, customerid);
      stmt.BindText(4, summary);
      stmt.BindText(5, text);
      SB_RETURN_IF_ERROR(ctx.Step(kNewReview, [&] { return stmt.Execute(); }).status);
    }
    if (new_help) {
      const int64_t review = rng_.Uniform(1, 20 * max_product);
      const int64_t rating = rng_.Uniform(1, 10);
      db::Statement& stmt = S("new_helpfulness");
      stmt.BindInt(1, review);
      stmt.BindInt(2, customerid);
      stmt.BindInt(3, rating);
      SB_RETURN_IF_ERROR(ctx.Step(kNewHelpfulness, [&] { return stmt.Execute(); }).status);
    }
  }

  // §5.9 purchase.
  const int64_t lines = std::min<int64_t>(rng_.UniformMean(opts_.n_line_items), kMaxCartLines);
  std::vector<std::pair<int64_t, int64_t>> cart;
  cart.reserve(lines);
  for (int64_t i = 0; i < lines; ++i) {
    const int64_t prod = RandomProduct();
    cart.emplace_back(prod, rng_.Uniform(1, 3));
  }
  double net = 0;
  SB_RETURN_IF_ERROR(ctx.Timed([&] { return Prices(cart, &net); }).status);  // untimed in DS
  int64_t orderid = 0;
  SB_RETURN_IF_ERROR(
      ctx.Step(kPurchase, [&] { return Purchase(customerid, cart, net, &orderid); }).status);
  if (orderid == 0) ctx.Count(kRollbacks);
  else ctx.Count(kPurchaseLines, static_cast<int64_t>(cart.size()));
  return Status::Ok();
}

}  // namespace

std::unique_ptr<workload::Session> NewDvdStoreSession(
    std::unique_ptr<db::Connection> conn, const DsOptions& opts,
    std::shared_ptr<const std::vector<int32_t>> prod_array, std::map<std::string, std::string> sql,
    uint64_t seed, Status* status) {
  auto session = std::make_unique<DsSession>(std::move(conn), opts, std::move(prod_array),
                                             std::move(sql), seed);
  *status = session->Prepare();
  if (!status->ok()) return nullptr;
  return session;
}

}  // namespace sb::dvdstore
