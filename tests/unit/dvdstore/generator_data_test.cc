// Formats and distributions of the generated DVD Store data (spec §4, Appendix B). The data is
// the S database with a fixed seed, so every check is deterministic; the tolerances are still
// wide enough (about 6 standard errors) that any correct generator passes them, and narrow
// enough that a wrong range or rule fails.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "unit/dvdstore/generator_test_util.h"
#include "workload/dvdstore/generator.h"
#include "workload/dvdstore/words.h"

namespace sb::dvdstore {
namespace {

using test_util::Join;
using test_util::SizeOf;
using test_util::ToInt;

using Rows = std::vector<std::vector<std::string>>;

constexpr int kDaysInMonth[13] = {0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

// Splits on single spaces; a trailing space gives no empty last word, any other empty word is
// returned as "".
std::vector<std::string_view> Words(std::string_view text) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string_view::npos) end = text.size();
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

bool ValidDate(std::string_view date, int year) {
  static const std::regex kDate(R"((\d{4})/(\d{2})/(\d{2}))");
  std::match_results<std::string_view::const_iterator> m;
  if (!std::regex_match(date.begin(), date.end(), m, kDate)) return false;
  const int y = std::stoi(m[1].str()), mo = std::stoi(m[2].str()), d = std::stoi(m[3].str());
  return y == year && mo >= 1 && mo <= 12 && d >= 1 && d <= kDaysInMonth[mo];
}

double Mean(double sum, double n) { return n > 0 ? sum / n : 0; }

// Everything the checks need from one S database, gathered in a single pass. The two big tables
// (reviews' text, helpfulness) are checked while streaming instead of being kept.
struct Data {
  DsSize size;
  Rows categories, customers, orders, orderlines, cust_hist, products, inventory, membership;
  // Reviews, index = review id.
  std::vector<int64_t> review_customer, review_product, review_stars;
  std::vector<std::string> review_date;
  std::vector<int> review_text_words, review_helpfulness_rows;
  int64_t reviews = 0;
  int64_t review_rows_bad = 0;  // wrong summary / text shape or a word outside the list
  int64_t review_text_words_sum = 0;
  int max_word_index = -1;  // highest review-word index seen
  std::string first_bad_review;
  // Helpfulness.
  int64_t helpfulness = 0;
  int64_t helpfulness_bad = 0;  // id out of sequence, wrong review or customer, value range
  int64_t helpfulness_value_sum = 0;
  std::string first_bad_helpfulness;
  std::vector<int64_t> sales;
};

class GeneratorDataTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    data_ = new Data;
    Data& d = *data_;
    d.size = SizeOf("S");
    const Generator gen(d.size, 20240601, false);
    const int64_t n_reviews = d.size.reviews();
    d.review_customer.assign(n_reviews + 1, 0);
    d.review_product.assign(n_reviews + 1, 0);
    d.review_stars.assign(n_reviews + 1, 0);
    d.review_date.assign(n_reviews + 1, "");
    d.review_text_words.assign(n_reviews + 1, 0);
    d.review_helpfulness_rows.assign(n_reviews + 1, 0);
    d.sales.assign(d.size.products + 1, 0);

    std::unordered_map<std::string_view, int> word_index;
    for (int i = 0; i < kNumReviewWords; ++i) word_index.emplace(ReviewWords()[i], i);
    int64_t current_review = 0;
    int64_t next_helpfulness_id = 1;

    auto keep = [](Rows& rows, const std::vector<std::string_view>& f) {
      rows.emplace_back(f.begin(), f.end());
    };
    auto review_word_ok = [&](std::string_view w) {
      auto it = word_index.find(w);
      if (it == word_index.end() || it->second >= kReviewWordsGenerator) return false;
      d.max_word_index = std::max(d.max_word_index, it->second);
      return true;
    };
    RowSink sink = [&](Table t, const std::vector<std::string_view>& f) {
      switch (t) {
        case Table::kCategories:
          return keep(d.categories, f);
        case Table::kCustomers:
          return keep(d.customers, f);
        case Table::kOrders:
          return keep(d.orders, f);
        case Table::kOrderlines:
          return keep(d.orderlines, f);
        case Table::kCustHist:
          return keep(d.cust_hist, f);
        case Table::kProducts:
          return keep(d.products, f);
        case Table::kInventory:
          return keep(d.inventory, f);
        case Table::kMembership:
          return keep(d.membership, f);
        case Table::kReorder:
          return;
        case Table::kReviews: {
          ++d.reviews;
          const int64_t id = ToInt(f[0]);
          bool ok = f.size() == 7 && id >= 1 && id <= n_reviews && d.review_customer[id] == 0;
          if (ok) {
            current_review = id;
            d.review_product[id] = ToInt(f[1]);
            d.review_date[id] = std::string(f[2]);
            d.review_stars[id] = ToInt(f[3]);
            d.review_customer[id] = ToInt(f[4]);
            const auto summary = Words(f[5]);
            ok = summary.size() == 3 && f[5].back() != ' ';
            for (std::string_view w : summary) ok = ok && review_word_ok(w);
            const auto text = Words(f[6]);
            ok = ok && !f[6].empty() && f[6].back() == ' ';
            for (std::string_view w : text) ok = ok && review_word_ok(w);
            d.review_text_words[id] = static_cast<int>(text.size());
            d.review_text_words_sum += static_cast<int64_t>(text.size());
          }
          if (!ok && d.review_rows_bad++ == 0) d.first_bad_review = Join(f);
          return;
        }
        case Table::kReviewsHelpfulness: {
          ++d.helpfulness;
          const int64_t id = ToInt(f[0]);
          const int64_t review = ToInt(f[1]);
          const int64_t value = ToInt(f[3]);
          const bool ok = f.size() == 4 && id == next_helpfulness_id && review == current_review &&
                          review >= 1 && ToInt(f[2]) == d.review_customer[review] && value >= 1 &&
                          value <= 10;
          next_helpfulness_id = id + 1;
          if (ok) {
            ++d.review_helpfulness_rows[review];
            d.helpfulness_value_sum += value;
          } else if (d.helpfulness_bad++ == 0) {
            d.first_bad_helpfulness = Join(f);
          }
          return;
        }
      }
    };
    gen.GenerateCategories(sink);
    for (const ChunkSpec& c : gen.Chunks(30'000)) gen.Generate(c, sink, &d.sales);
    gen.GenerateInventory(d.sales, sink);
  }

  static void TearDownTestSuite() {
    delete data_;
    data_ = nullptr;
  }

  static const Data& data() { return *data_; }

 private:
  static Data* data_;
};

Data* GeneratorDataTest::data_ = nullptr;

// ---- customers (§4.1) ----

TEST_F(GeneratorDataTest, CustomerRowsHaveTheAppendixBShape) {
  const std::regex us(
      R"(\d+,[A-Z]{6},[A-Z]{10},\d{10} Dell Way,,[A-Z]{7},[A-Z]{2},\d{5},US,1,[A-Z]{10}@dell\.com,)"
      R"(\d{10},[1-5],\d{16},20(1[5-9])/(0[1-9]|1[0-2]),user\d+,password,\d{2},\d{5,6},[MF])");
  const std::regex row(
      R"(\d+,[A-Z]{6},[A-Z]{10},\d{10} Dell Way,,[A-Z]{7},,00000,[A-Za-z ]+,2,[A-Z]{10}@dell\.com,)"
      R"(\d{10},[1-5],\d{16},20(1[5-9])/(0[1-9]|1[0-2]),user\d+,password,\d{2},\d{5,6},[MF])");
  const int64_t half = data().size.customers / 2;
  ASSERT_EQ(static_cast<int64_t>(data().customers.size()), data().size.customers);
  int bad = 0;
  for (const auto& f : data().customers) {
    const std::string line = Join({f.begin(), f.end()});
    const int64_t id = ToInt(f[0]);
    const bool ok = std::regex_match(line, id <= half ? us : row) && f[3] == f[11] + " Dell Way" &&
                    f[10] == f[2] + "@dell.com" && f[15] == "user" + f[0];
    if (!ok && bad++ < 3) ADD_FAILURE() << line;
  }
  EXPECT_EQ(bad, 0);
}

TEST_F(GeneratorDataTest, CustomersAreUsThenRestOfWorld) {
  const auto& customers = data().customers;
  const int64_t half = data().size.customers / 2;
  std::set<std::string> states, countries;
  for (const auto& f : customers) {
    const int64_t id = ToInt(f[0]);
    if (id <= half) {
      EXPECT_EQ(f[9], "1");
      EXPECT_EQ(f[8], "US");
      states.insert(f[6]);
      const int64_t zip = ToInt(f[7]);
      EXPECT_GE(zip, 10'000);
      EXPECT_LE(zip, 99'999);
    } else {
      EXPECT_EQ(f[9], "2");
      EXPECT_EQ(f[6], "");
      EXPECT_EQ(f[7], "00000");
      countries.insert(f[8]);
    }
  }
  std::set<int64_t> ids;
  for (const auto& f : customers) ids.insert(ToInt(f[0]));
  EXPECT_EQ(static_cast<int64_t>(ids.size()), data().size.customers);
  EXPECT_EQ(*ids.begin(), 1);
  EXPECT_EQ(*ids.rbegin(), data().size.customers);
  EXPECT_EQ(states, std::set<std::string>(UsStates().begin(), UsStates().end()));
  EXPECT_EQ(countries, std::set<std::string>(RowCountries().begin(), RowCountries().end()));
}

TEST_F(GeneratorDataTest, CustomerValueRanges) {
  std::map<int64_t, int64_t> ages, incomes, card_types, expiry_years;
  int64_t men = 0;
  for (const auto& f : data().customers) {
    ++ages[ToInt(f[17])];
    ++incomes[ToInt(f[18])];
    ++card_types[ToInt(f[12])];
    ++expiry_years[ToInt(f[14].substr(0, 4))];
    if (f[19] == "M") ++men;
    const int64_t phone = ToInt(f[11]);
    EXPECT_GE(phone, 1'000'000'000);
    const int64_t card = ToInt(f[13]);
    EXPECT_GE(card, 1'000'000'000'000'000);
  }
  EXPECT_EQ(ages.size(), 73u);  // 18..90
  EXPECT_EQ(ages.begin()->first, 18);
  EXPECT_EQ(ages.rbegin()->first, 90);
  EXPECT_EQ(incomes, (std::map<int64_t, int64_t>{{20'000, incomes[20'000]},
                                                 {40'000, incomes[40'000]},
                                                 {60'000, incomes[60'000]},
                                                 {80'000, incomes[80'000]},
                                                 {100'000, incomes[100'000]}}));
  EXPECT_EQ(card_types.size(), 5u);
  EXPECT_EQ(expiry_years.size(), 5u);
  EXPECT_EQ(expiry_years.begin()->first, 2015);
  EXPECT_EQ(expiry_years.rbegin()->first, 2019);
  const double n = static_cast<double>(data().customers.size());
  EXPECT_NEAR(men / n, 0.5, 0.025);  // se 0.0035
}

// ---- orders, lines, history (§4.2) ----

TEST_F(GeneratorDataTest, OrdersHaveTheirMonthAndUnrelatedAmounts) {
  const std::regex shape(
      R"(\d+,2013/(0[1-9]|1[0-2])/(0[1-9]|[12]\d|3[01]),\d+,\d+\.\d\d,\d+\.\d\d,\d+\.\d\d)");
  const int64_t per_month = data().size.orders_per_month;
  std::set<int64_t> ids;
  std::set<int> months;
  int bad = 0;
  for (const auto& f : data().orders) {
    const std::string line = Join({f.begin(), f.end()});
    const int64_t id = ToInt(f[0]);
    ids.insert(id);
    const int month = static_cast<int>((id - 1) / per_month + 1);
    months.insert(month);
    const int64_t net =
        ToInt(f[3].substr(0, f[3].size() - 3)) * 100 + ToInt(f[3].substr(f[3].size() - 2));
    const int64_t tax =
        ToInt(f[4].substr(0, f[4].size() - 3)) * 100 + ToInt(f[4].substr(f[4].size() - 2));
    const int64_t total =
        ToInt(f[5].substr(0, f[5].size() - 3)) * 100 + ToInt(f[5].substr(f[5].size() - 2));
    const int64_t customer = ToInt(f[2]);
    const bool ok = std::regex_match(line, shape) && ValidDate(f[1], 2013) &&
                    ToInt(f[1].substr(5, 2)) == month && net >= 1 && net <= 40'000 &&
                    std::llround(static_cast<double>(net) * 0.0825 + 1e-9) == tax &&
                    total == net + tax && customer >= 1 && customer <= data().size.customers;
    if (!ok && bad++ < 3) ADD_FAILURE() << line;
  }
  EXPECT_EQ(bad, 0);
  EXPECT_EQ(static_cast<int64_t>(ids.size()), data().size.orders());
  EXPECT_EQ(*ids.rbegin(), data().size.orders());
  EXPECT_EQ(months.size(), 12u);
}

TEST_F(GeneratorDataTest, OrderLinesFollowTheirOrder) {
  std::map<int64_t, const std::vector<std::string>*> orders;
  for (const auto& f : data().orders) orders[ToInt(f[0])] = &f;
  const std::regex shape(R"([1-9],\d+,\d+,[1-3],2013/\d\d/\d\d)");
  ASSERT_EQ(data().orderlines.size(), data().cust_hist.size());
  std::map<int64_t, int64_t> lines_per_order;
  int64_t quantity_sum = 0, product_sum = 0, min_qty = 9, max_qty = 0;
  int bad = 0;
  int64_t previous_order = 0, previous_line = 0;
  for (size_t i = 0; i < data().orderlines.size(); ++i) {
    const auto& f = data().orderlines[i];
    const auto& h = data().cust_hist[i];
    const std::string line = Join({f.begin(), f.end()});
    const int64_t order_id = ToInt(f[1]);
    const int64_t line_id = ToInt(f[0]);
    const int64_t product = ToInt(f[2]);
    const int64_t qty = ToInt(f[3]);
    const auto it = orders.find(order_id);
    // Lines of one order are numbered 1..n in a row.
    const bool numbered = order_id == previous_order ? line_id == previous_line + 1 : line_id == 1;
    const bool ok = std::regex_match(line, shape) && it != orders.end() &&
                    f[4] == (*it->second)[1] && numbered && product >= 1 &&
                    product <= data().size.products && h.size() == 3 && h[0] == (*it->second)[2] &&
                    h[1] == f[1] && h[2] == f[2];
    if (!ok && bad++ < 3) ADD_FAILURE() << line << " / " << Join({h.begin(), h.end()});
    previous_order = order_id;
    previous_line = line_id;
    ++lines_per_order[order_id];
    quantity_sum += qty;
    product_sum += product;
    min_qty = std::min(min_qty, qty);
    max_qty = std::max(max_qty, qty);
  }
  EXPECT_EQ(bad, 0);
  EXPECT_EQ(lines_per_order.size(), orders.size());  // every order has a line
  int64_t min_lines = 99, max_lines = 0;
  for (const auto& [order, n] : lines_per_order) {
    min_lines = std::min(min_lines, n);
    max_lines = std::max(max_lines, n);
  }
  const double n_orders = static_cast<double>(orders.size());
  const double n_lines = static_cast<double>(data().orderlines.size());
  EXPECT_NEAR(n_lines / n_orders, 5.0, 0.15);  // U[1,9]: se 0.024
  EXPECT_EQ(min_lines, 1);
  EXPECT_EQ(max_lines, 9);
  EXPECT_NEAR(Mean(quantity_sum, n_lines), 2.0, 0.03);  // U[1,3]: se 0.0033
  EXPECT_EQ(min_qty, 1);
  EXPECT_EQ(max_qty, 3);
  // Products uniform over 1..P: mean (P+1)/2, se 12 for S.
  EXPECT_NEAR(Mean(product_sum, n_lines), (data().size.products + 1) / 2.0, 80);
}

// ---- inventory (§4.3) ----

TEST_F(GeneratorDataTest, InventorySalesAreTheSummedQuantities) {
  std::vector<int64_t> sold(data().size.products + 1, 0);
  for (const auto& f : data().orderlines) sold[ToInt(f[2])] += ToInt(f[3]);
  ASSERT_EQ(static_cast<int64_t>(data().inventory.size()), data().size.products);
  int bad = 0;
  int64_t expected_id = 1;
  for (const auto& f : data().inventory) {
    const int64_t id = ToInt(f[0]);
    const int64_t stock = ToInt(f[1]);
    const bool hot = id % 10'000 == 0;
    const bool ok =
        f.size() == 3 && id == expected_id++ && ToInt(f[2]) == sold[id] &&
        (hot ? stock % 10 == 0 && stock >= 0 && stock <= 5'000 : stock >= 0 && stock <= 500);
    if (!ok && bad++ < 3) ADD_FAILURE() << Join({f.begin(), f.end()});
  }
  EXPECT_EQ(bad, 0);
  EXPECT_EQ(sold, data().sales);
}

TEST(GeneratorInventoryTest, HotItemsHaveTenTimesTheStock) {
  // 14GB: 140 000 products, 14 hot items. Inventory needs only the sales vector.
  const DsSize size = SizeOf("14GB");
  const Generator gen(size, 99, false);
  int64_t hot = 0, hot_above_500 = 0, cold = 0, cold_sum = 0, bad = 0;
  gen.GenerateInventory({}, [&](Table t, const std::vector<std::string_view>& f) {
    const int64_t id = ToInt(f[0]);
    const int64_t stock = ToInt(f[1]);
    if (f[2] != "0") ++bad;
    if (id % 10'000 == 0) {
      ++hot;
      if (stock % 10 != 0 || stock > 5'000) ++bad;
      if (stock > 500) ++hot_above_500;
    } else {
      ++cold;
      cold_sum += stock;
      if (stock < 0 || stock > 500) ++bad;
    }
  });
  EXPECT_EQ(bad, 0);
  EXPECT_EQ(hot, 14);
  EXPECT_EQ(cold, 140'000 - 14);
  EXPECT_GT(hot_above_500, 0);                    // all ≤ 500 has probability ~1e-14
  EXPECT_NEAR(Mean(cold_sum, cold), 250.0, 3.0);  // U[0,500]: se 0.39
}

// ---- products (§4.4) ----

TEST_F(GeneratorDataTest, ProductRowsFollowTheTitleRuleAndRanges) {
  const std::regex shape(
      R"(\d+,([1-9]|1[0-6]),[A-Z]+ [A-Z]+,[A-Z]+ [A-Z]+,(9|[12]\d)\.99,[01],\d+,[0-3])");
  const auto& titles = TitleWords();
  const std::set<std::string_view> firsts(ActorFirstNames().begin(), ActorFirstNames().end());
  const std::set<std::string_view> lasts(ActorLastNames().begin(), ActorLastNames().end());
  const int64_t n = data().size.products;
  ASSERT_EQ(static_cast<int64_t>(data().products.size()), n);
  std::set<std::string> prices;
  std::set<int64_t> categories, membership_items, ids;
  int64_t specials = 0;
  int bad = 0;
  for (const auto& f : data().products) {
    const std::string line = Join({f.begin(), f.end()});
    const int64_t id = ToInt(f[0]);
    ids.insert(id);
    const int64_t i = id - 1;
    const std::string title =
        std::string(titles[(i / 1000) % 1000]) + " " + std::string(titles[i % 1000]);
    const size_t space = f[3].find(' ');
    const int64_t common = ToInt(f[6]);
    const bool ok = std::regex_match(line, shape) && f[2] == title &&
                    firsts.count(f[3].substr(0, space)) == 1 &&
                    lasts.count(f[3].substr(space + 1)) == 1 && common >= 1 && common <= n;
    if (!ok && bad++ < 3) ADD_FAILURE() << line << " (title should be " << title << ")";
    prices.insert(f[4]);
    categories.insert(ToInt(f[1]));
    membership_items.insert(ToInt(f[7]));
    if (f[5] == "1") ++specials;
  }
  EXPECT_EQ(bad, 0);
  EXPECT_EQ(static_cast<int64_t>(ids.size()), n);
  // Product 1 is the first title word twice (spec §4.4, Appendix B).
  const auto first = std::find_if(data().products.begin(), data().products.end(),
                                  [](const auto& f) { return f[0] == "1"; });
  ASSERT_NE(first, data().products.end());
  EXPECT_EQ((*first)[2], std::string(titles[0]) + " " + std::string(titles[0]));
  std::set<std::string> expected_prices;
  for (int d = 9; d <= 29; ++d) expected_prices.insert(std::to_string(d) + ".99");
  EXPECT_EQ(prices, expected_prices);
  EXPECT_EQ(categories.size(), 16u);
  EXPECT_EQ(membership_items, (std::set<int64_t>{0, 1, 2, 3}));
  // P = 10 000 ≤ 100 000: SPECIAL with probability 1/100, expected 100 (sd 10).
  EXPECT_GE(specials, 50);
  EXPECT_LE(specials, 160);
}

TEST(GeneratorProductsTest, LargeCataloguesHaveRareSpecials) {
  // 14GB: 140 000 products > 100 000, so SPECIAL has probability 1/10 000: expected 14.
  const Generator gen(SizeOf("14GB"), 5, false);
  int64_t products = 0, specials = 0;
  RowSink sink = [&](Table t, const std::vector<std::string_view>& f) {
    ++products;
    if (f[5] == "1") ++specials;
  };
  for (const ChunkSpec& c : gen.Chunks()) {
    if (c.table == Table::kProducts) gen.Generate(c, sink, nullptr);
  }
  EXPECT_EQ(products, 140'000);
  EXPECT_GE(specials, 2);
  EXPECT_LE(specials, 50);
}

// ---- membership (§4.5) ----

TEST_F(GeneratorDataTest, OneMemberPerBlockOfCustomers) {
  const std::regex shape(R"(\d+,[1-3],20(1[5-9])/(0[1-9]|1[0-2])/15)");
  const int64_t n = data().size.customers;
  const int64_t m = data().size.members();
  ASSERT_EQ(static_cast<int64_t>(data().membership.size()), m);
  std::vector<int64_t> customers;
  std::set<int64_t> types;
  int bad = 0;
  for (const auto& f : data().membership) {
    const std::string line = Join({f.begin(), f.end()});
    if (!std::regex_match(line, shape) && bad++ < 3) ADD_FAILURE() << line;
    customers.push_back(ToInt(f[0]));
    types.insert(ToInt(f[1]));
  }
  EXPECT_EQ(bad, 0);
  std::sort(customers.begin(), customers.end());
  for (int64_t j = 0; j < m; ++j) {
    // Block j holds customers (j·N/m, (j+1)·N/m]: 10 ids each for S.
    EXPECT_GT(customers[j], j * n / m) << j;
    EXPECT_LE(customers[j], (j + 1) * n / m) << j;
  }
  EXPECT_EQ(types, (std::set<int64_t>{1, 2, 3}));
}

// ---- reviews and helpfulness (§4.6) ----

TEST_F(GeneratorDataTest, ReviewsHaveThreeWordSummariesAndLongTexts) {
  const Data& d = data();
  EXPECT_EQ(d.reviews, d.size.reviews());
  EXPECT_EQ(d.review_rows_bad, 0) << d.first_bad_review;
  std::set<int64_t> stars;
  int min_words = 1'000, max_words = 0, bad = 0;
  for (int64_t id = 1; id <= d.size.reviews(); ++id) {
    const bool ok = d.review_customer[id] >= 1 && d.review_customer[id] <= d.size.customers &&
                    d.review_product[id] >= 1 && d.review_product[id] <= d.size.products &&
                    ValidDate(d.review_date[id], 2013);
    if (!ok && bad++ < 3) ADD_FAILURE() << "review " << id;
    stars.insert(d.review_stars[id]);
    min_words = std::min(min_words, d.review_text_words[id]);
    max_words = std::max(max_words, d.review_text_words[id]);
  }
  EXPECT_EQ(bad, 0);
  EXPECT_EQ(stars, (std::set<int64_t>{1, 2, 3, 4, 5}));
  // L = U[7,130], L-1 words: 6..129, mean 67.5 (se 0.08).
  EXPECT_EQ(min_words, 6);
  EXPECT_EQ(max_words, 129);
  EXPECT_NEAR(Mean(d.review_text_words_sum, d.reviews), 67.5, 0.5);
  // Words come from the first 4951 of the list, and the last of those do occur.
  EXPECT_GE(d.max_word_index, kReviewWordsDriver);
  EXPECT_LT(d.max_word_index, kReviewWordsGenerator);
}

TEST_F(GeneratorDataTest, HelpfulnessRowsPerReviewAndValues) {
  const Data& d = data();
  EXPECT_EQ(d.helpfulness_bad, 0) << d.first_bad_helpfulness;
  int min_rows = 1'000, max_rows = 0;
  for (int64_t id = 1; id <= d.size.reviews(); ++id) {
    min_rows = std::min(min_rows, d.review_helpfulness_rows[id]);
    max_rows = std::max(max_rows, d.review_helpfulness_rows[id]);
  }
  // k = U[3,40], k-1 rows: 2..39, mean 20.5 (se 0.025).
  EXPECT_EQ(min_rows, 2);
  EXPECT_EQ(max_rows, 39);
  EXPECT_NEAR(Mean(d.helpfulness, d.reviews), 20.5, 0.15);
  // U[1,10]: mean 5.5 (se 0.0014).
  EXPECT_NEAR(Mean(d.helpfulness_value_sum, d.helpfulness), 5.5, 0.02);
}

TEST_F(GeneratorDataTest, Categories) {
  ASSERT_EQ(data().categories.size(), 16u);
  for (size_t i = 0; i < 16; ++i) {
    EXPECT_EQ(data().categories[i][0], std::to_string(i + 1));
    EXPECT_EQ(data().categories[i][1], CategoryNames()[i]);
  }
}

// ---- DS2 mode ----

TEST(GeneratorDs2Test, Ds2DatesAndProductColumns) {
  const Generator gen(SizeOf("1MB"), 3, true);
  std::set<int64_t> expiry_years;
  int64_t bad = 0;
  RowSink sink = [&](Table t, const std::vector<std::string_view>& f) {
    switch (t) {
      case Table::kCustomers:
        expiry_years.insert(ToInt(f[14].substr(0, 4)));
        break;
      case Table::kOrders:
        if (!ValidDate(f[1], 2009)) ++bad;
        break;
      case Table::kOrderlines:
        if (!ValidDate(f[4], 2009)) ++bad;
        break;
      case Table::kProducts:
        if (f.size() != 7) ++bad;
        break;
      default:
        break;
    }
  };
  for (const ChunkSpec& c : gen.Chunks()) gen.Generate(c, sink, nullptr);
  EXPECT_EQ(bad, 0);
  EXPECT_EQ(expiry_years, (std::set<int64_t>{2008, 2009, 2010, 2011, 2012}));
}

}  // namespace
}  // namespace sb::dvdstore
