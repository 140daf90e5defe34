#include "workload/dvdstore/generator.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cstring>

#include "base/random.h"
#include "workload/dvdstore/words.h"

namespace sb::dvdstore {
namespace {

// February has 28 days, as in DVD Store's generators (spec §4.2).
constexpr int kDaysInMonth[13] = {0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

// Years of the generated dates (spec §4.1, §4.2, §4.5): DS3 orders and reviews are dated 2013 and
// card/membership expiry years are 2014 + U[1,5]; DS2 dates orders 2009 and expiry 2007 + U[1,5].
constexpr int kOrderYearDs3 = 2013;
constexpr int kOrderYearDs2 = 2009;
constexpr int kExpiryBaseDs3 = 2014;
constexpr int kExpiryBaseDs2 = 2007;

constexpr int64_t kHotItemStep = 10'000;  // prod_id multiples of this are the hot sellers

// One CSV row under construction: fields are appended into a fixed buffer that never moves, so
// the string_views handed to the sink stay valid until Reset().
class Row {
 public:
  Row() { views_.reserve(20); }
  Row(const Row&) = delete;
  Row& operator=(const Row&) = delete;

  void Reset() {
    len_ = 0;
    field_start_ = 0;
    views_.clear();
  }

  // Append to the current field.
  void Put(std::string_view s) {
    assert(len_ + s.size() <= kCapacity);
    // An empty field (e.g. a customer's empty address2) may have a null data(); memcpy's
    // arguments must not be null even for a size of 0 (C11 7.24.1p2).
    if (s.empty()) return;
    std::memcpy(buf_ + len_, s.data(), s.size());
    len_ += s.size();
  }
  void Put(char c) { buf_[len_++] = c; }
  void PutInt(int64_t v) { len_ = std::to_chars(buf_ + len_, buf_ + kCapacity, v).ptr - buf_; }
  void Put2Digits(int v) {
    buf_[len_++] = static_cast<char>('0' + v / 10);
    buf_[len_++] = static_cast<char>('0' + v % 10);
  }
  // "D.CC" from an amount in cents.
  void PutMoney(int64_t cents) {
    PutInt(cents / 100);
    Put('.');
    Put2Digits(static_cast<int>(cents % 100));
  }
  // "YYYY/MM" or "YYYY/MM/DD".
  void PutYearMonth(int year, int month) {
    PutInt(year);
    Put('/');
    Put2Digits(month);
  }
  void PutDate(int year, int month, int day) {
    PutYearMonth(year, month);
    Put('/');
    Put2Digits(day);
  }
  void PutLetters(Random& rng, int n) {
    for (int i = 0; i < n; ++i) buf_[len_++] = static_cast<char>('A' + rng.Uniform(0, 25));
  }

  // Ends the current field.
  void End() {
    views_.emplace_back(buf_ + field_start_, len_ - field_start_);
    field_start_ = len_;
  }
  void Field(std::string_view s) {
    Put(s);
    End();
  }
  void IntField(int64_t v) {
    PutInt(v);
    End();
  }

  const std::vector<std::string_view>& fields() const { return views_; }

 private:
  // The longest row is a review: 129 text words of at most 14 letters plus a space each, three
  // summary words and a few numbers, about 2 100 characters.
  static constexpr size_t kCapacity = 8192;
  char buf_[kCapacity];
  size_t len_ = 0;
  size_t field_start_ = 0;
  std::vector<std::string_view> views_;
};

uint64_t StreamSeed(uint64_t seed, Table t, int index) {
  return DeriveSeed(seed, {static_cast<uint64_t>(t), static_cast<uint64_t>(index)});
}

// Splits [first, last] into ceil(n / target) nearly equal consecutive ranges.
template <typename F>
void Split(int64_t first, int64_t last, int64_t target, F&& emit) {
  const int64_t n = last - first + 1;
  if (n <= 0) return;
  const int64_t k = (n + target - 1) / target;
  for (int64_t c = 0; c < k; ++c) {
    const auto lo = static_cast<int64_t>(static_cast<__int128>(n) * c / k);
    const auto hi = static_cast<int64_t>(static_cast<__int128>(n) * (c + 1) / k);
    emit(first + lo, first + hi - 1);
  }
}

// Spec §4.1; field order = table order, 20 fields.
void GenerateCustomers(const ChunkSpec& chunk, bool ds2, Random& rng, const RowSink& sink) {
  Row r;
  const int expiry_base = ds2 ? kExpiryBaseDs2 : kExpiryBaseDs3;
  char first[6], last[10], city[7];
  for (int64_t id = chunk.first_id; id <= chunk.last_id; ++id) {
    for (char& c : first) c = static_cast<char>('A' + rng.Uniform(0, 25));
    for (char& c : last) c = static_cast<char>('A' + rng.Uniform(0, 25));
    for (char& c : city) c = static_cast<char>('A' + rng.Uniform(0, 25));
    const std::string_view last_name(last, sizeof(last));
    std::string_view state, country;
    int64_t zip = 0;
    if (chunk.us) {
      state = UsStates()[rng.Uniform(0, 50)];
      zip = rng.Uniform(10'000, 99'999);
      country = "US";
    } else {
      country = RowCountries()[rng.Uniform(0, 9)];
    }
    const int64_t phone = rng.Uniform(1'000'000'000LL, 9'999'999'999LL);
    const int64_t card_type = rng.Uniform(1, 5);
    const int64_t card = rng.Uniform(1'000'000'000'000'000LL, 9'999'999'999'999'999LL);
    const int expiry_year = expiry_base + static_cast<int>(rng.Uniform(1, 5));
    const int expiry_month = static_cast<int>(rng.Uniform(1, 12));
    const int64_t age = rng.Uniform(18, 90);
    const int64_t income = 20'000 * rng.Uniform(1, 5);
    const bool male = rng.Uniform(0, 1) == 0;

    r.Reset();
    r.IntField(id);
    r.Field(std::string_view(first, sizeof(first)));
    r.Field(last_name);
    r.PutInt(phone);
    r.Field(" Dell Way");
    r.End();  // address2: empty
    r.Field(std::string_view(city, sizeof(city)));
    r.Field(state);
    if (chunk.us) {
      r.IntField(zip);  // always 5 digits
    } else {
      r.Field("00000");
    }
    r.Field(country);
    r.Field(chunk.us ? "1" : "2");
    r.Put(last_name);
    r.Field("@dell.com");
    r.IntField(phone);
    r.IntField(card_type);
    r.IntField(card);
    r.PutYearMonth(expiry_year, expiry_month);
    r.End();
    r.Put("user");
    r.IntField(id);
    r.Field("password");
    r.IntField(age);
    r.IntField(income);
    r.Field(male ? "M" : "F");
    sink(Table::kCustomers, r.fields());
  }
}

void GenerateOrders(const ChunkSpec& chunk, const DsSize& size, bool ds2, Random& rng,
                    const RowSink& sink, std::vector<int64_t>* sales) {
  Row r;
  // Spec §4.2. The chunk's month for every order (not DS3's uninitialised-variable quirk).
  const int year = ds2 ? kOrderYearDs2 : kOrderYearDs3;
  const int month = std::clamp(chunk.month, 1, 12);
  Row line_row;
  Row hist_row;
  for (int64_t id = chunk.first_id; id <= chunk.last_id; ++id) {
    const int day = static_cast<int>(rng.Uniform(1, kDaysInMonth[month]));
    const int64_t customer = rng.Uniform(1, size.customers);
    const int64_t net = rng.Uniform(1, 40'000);  // cents
    // 8.25 % tax rounded half up to the cent; the total is their sum, so it equals the
    // rounded exact total (net + tax has the same fraction as tax).
    const int64_t tax = (net * 825 + 5'000) / 10'000;
    r.Reset();
    r.IntField(id);
    r.PutDate(year, month, day);
    r.End();
    r.IntField(customer);
    r.PutMoney(net);
    r.End();
    r.PutMoney(tax);
    r.End();
    r.PutMoney(net + tax);
    r.End();
    sink(Table::kOrders, r.fields());

    const int64_t n_lines = rng.Uniform(1, 9);
    for (int64_t line = 1; line <= n_lines; ++line) {
      const int64_t product = rng.Uniform(1, size.products);
      const int64_t quantity = rng.Uniform(1, 3);
      if (sales != nullptr) (*sales)[product] += quantity;
      line_row.Reset();
      line_row.IntField(line);
      line_row.IntField(id);
      line_row.IntField(product);
      line_row.IntField(quantity);
      line_row.PutDate(year, month, day);
      line_row.End();
      sink(Table::kOrderlines, line_row.fields());
      hist_row.Reset();
      hist_row.IntField(customer);
      hist_row.IntField(id);
      hist_row.IntField(product);
      sink(Table::kCustHist, hist_row.fields());
    }
  }
}

void GenerateProducts(const ChunkSpec& chunk, const DsSize& size, bool ds2, Random& rng,
                      const RowSink& sink) {
  Row r;
  // Spec §4.4.
  const auto& titles = TitleWords();
  const auto& firsts = ActorFirstNames();
  const auto& lasts = ActorLastNames();
  const int64_t n = size.products;
  const int64_t special_one_in = n <= 100'000 ? 100 : 10'000;
  for (int64_t id = chunk.first_id; id <= chunk.last_id; ++id) {
    const int64_t i = id - 1;
    const int64_t category = rng.Uniform(1, 16);
    const std::string_view actor_first = firsts[rng.Uniform(0, kNumActorFirst - 1)];
    const std::string_view actor_last = lasts[rng.Uniform(0, kNumActorLast - 1)];
    const int64_t dollars = rng.Uniform(9, 29);
    const bool special = rng.Uniform(1, special_one_in) == 1;
    const int64_t common = rng.Uniform(1, n);
    r.Reset();
    r.IntField(id);
    r.IntField(category);
    r.Put(titles[(i / kNumTitleWords) % kNumTitleWords]);
    r.Put(' ');
    r.Field(titles[i % kNumTitleWords]);
    r.Put(actor_first);
    r.Put(' ');
    r.Field(actor_last);
    r.PutInt(dollars);
    r.Field(".99");
    r.Field(special ? "1" : "0");
    r.IntField(common);
    if (!ds2) r.IntField(rng.Uniform(0, 3));  // membership_item
    sink(Table::kProducts, r.fields());
  }
}

void GenerateMembership(const ChunkSpec& chunk, const DsSize& size, Random& rng,
                        const RowSink& sink) {
  Row r;
  // Spec §4.5: the customer ids are cut into `members` consecutive blocks of floor or ceil
  // of customers/members ids (block j = (j·N/m, (j+1)·N/m]); one random customer per block.
  const int64_t n = size.customers;
  const int64_t m = size.members();
  for (int64_t ordinal = chunk.first_id; ordinal <= chunk.last_id; ++ordinal) {
    const __int128 j = ordinal - 1;
    const auto lo = static_cast<int64_t>(j * n / m) + 1;
    const auto hi = static_cast<int64_t>((j + 1) * n / m);
    const int64_t customer = rng.Uniform(lo, hi);
    const int64_t type = rng.Uniform(1, 3);
    const int year = kExpiryBaseDs3 + static_cast<int>(rng.Uniform(1, 5));
    const int month = static_cast<int>(rng.Uniform(1, 12));
    r.Reset();
    r.IntField(customer);
    r.IntField(type);
    r.PutDate(year, month, 15);
    r.End();
    sink(Table::kMembership, r.fields());
  }
}

void GenerateReviews(const ChunkSpec& chunk, const DsSize& size, uint64_t seed, Random& rng,
                     const RowSink& sink) {
  Row r;
  // Spec §4.6. Each review's helpfulness count k comes from the chunk's own k stream, the
  // same one Chunks() used to number the helpfulness rows.
  const auto& words = ReviewWords();
  Random k_rng(StreamSeed(seed, Table::kReviewsHelpfulness, chunk.index));
  Row help_row;
  int64_t helpfulness_id = chunk.first_helpfulness_id;
  for (int64_t id = chunk.first_id; id <= chunk.last_id; ++id) {
    const int64_t product = rng.Uniform(1, size.products);
    const int month = static_cast<int>(rng.Uniform(1, 12));
    const int day = static_cast<int>(rng.Uniform(1, kDaysInMonth[month]));
    const int64_t stars = rng.Uniform(1, 5);
    const int64_t customer = rng.Uniform(1, size.customers);
    r.Reset();
    r.IntField(id);
    r.IntField(product);
    r.PutDate(kOrderYearDs3, month, day);
    r.End();
    r.IntField(stars);
    r.IntField(customer);
    for (int w = 0; w < 3; ++w) {
      if (w > 0) r.Put(' ');
      r.Put(words[rng.Uniform(0, kReviewWordsGenerator - 1)]);
    }
    r.End();
    const int64_t length = rng.Uniform(7, 130);
    for (int64_t w = 1; w < length; ++w) {
      r.Put(words[rng.Uniform(0, kReviewWordsGenerator - 1)]);
      r.Put(' ');
    }
    r.End();
    sink(Table::kReviews, r.fields());

    const int64_t k = k_rng.Uniform(3, 40);
    for (int64_t h = 1; h < k; ++h) {
      help_row.Reset();
      help_row.IntField(helpfulness_id++);
      help_row.IntField(id);
      help_row.IntField(customer);  // the author, as DVD Store does (spec §8.1 item 21)
      help_row.IntField(rng.Uniform(1, 10));
      sink(Table::kReviewsHelpfulness, help_row.fields());
    }
  }
}

}  // namespace


Generator::Generator(const DsSize& size, uint64_t seed, bool ds2)
    : size_(size), seed_(seed), ds2_(ds2) {}

std::vector<ChunkSpec> Generator::Chunks(int64_t target_rows) const {
  const int64_t target = std::max<int64_t>(1, target_rows);
  std::vector<ChunkSpec> chunks;
  auto add = [&](Table t, int index, int64_t first, int64_t last) -> ChunkSpec& {
    ChunkSpec c;
    c.table = t;
    c.index = index;
    c.first_id = first;
    c.last_id = last;
    chunks.push_back(c);
    return chunks.back();
  };

  // Biggest first (in rows emitted per primary row), so loader threads finish together.
  if (!ds2_) {
    // Helpfulness ids run on over all reviews, so each chunk's first id needs the k draws of
    // every earlier chunk: a cheap pass over the chunks' own k streams (spec §4.6).
    int index = 0;
    int64_t next_helpfulness_id = 1;
    Split(1, size_.reviews(), target, [&](int64_t first, int64_t last) {
      ChunkSpec& c = add(Table::kReviews, index, first, last);
      c.first_helpfulness_id = next_helpfulness_id;
      Random k_rng(StreamSeed(seed_, Table::kReviewsHelpfulness, index));
      for (int64_t id = first; id <= last; ++id) next_helpfulness_id += k_rng.Uniform(3, 40) - 1;
      ++index;
    });
  }
  {
    int index = 0;
    const int64_t per_month = size_.orders_per_month;
    for (int month = 1; month <= 12; ++month) {
      Split((month - 1) * per_month + 1, month * per_month, target,
            [&](int64_t first, int64_t last) {
              add(Table::kOrders, index++, first, last).month = month;
            });
    }
  }
  {
    int index = 0;
    const int64_t half = size_.customers / 2;
    Split(1, half, target, [&](int64_t first, int64_t last) {
      add(Table::kCustomers, index++, first, last).us = true;
    });
    Split(half + 1, size_.customers, target, [&](int64_t first, int64_t last) {
      add(Table::kCustomers, index++, first, last).us = false;
    });
  }
  if (!ds2_) {
    // Membership chunks count members (blocks), 1..members(), not customer ids.
    int index = 0;
    Split(1, size_.members(), target,
          [&](int64_t first, int64_t last) { add(Table::kMembership, index++, first, last); });
  }
  {
    int index = 0;
    Split(1, size_.products, target,
          [&](int64_t first, int64_t last) { add(Table::kProducts, index++, first, last); });
  }
  // Categories (GenerateCategories) and inventory (GenerateInventory, after every orders chunk)
  // are not chunks.
  return chunks;
}

void Generator::Generate(const ChunkSpec& chunk, const RowSink& sink,
                         std::vector<int64_t>* sales) const {
  Random rng(StreamSeed(seed_, chunk.table, chunk.index));
  switch (chunk.table) {
    case Table::kCategories:
      GenerateCategories(sink);
      return;
    case Table::kInventory:
      if (sales != nullptr) {
        GenerateInventory(*sales, sink);
      } else {
        GenerateInventory({}, sink);
      }
      return;
    case Table::kCustomers:
      return GenerateCustomers(chunk, ds2_, rng, sink);
    case Table::kOrders:
      return GenerateOrders(chunk, size_, ds2_, rng, sink, sales);
    case Table::kProducts:
      return GenerateProducts(chunk, size_, ds2_, rng, sink);
    case Table::kMembership:
      if (!ds2_) GenerateMembership(chunk, size_, rng, sink);
      return;
    case Table::kReviews:
      if (!ds2_) GenerateReviews(chunk, size_, seed_, rng, sink);
      return;
    case Table::kOrderlines:
    case Table::kCustHist:
    case Table::kReviewsHelpfulness:
    case Table::kReorder:
      return;  // generated with their parent tables, or never
  }
}

void Generator::GenerateInventory(const std::vector<int64_t>& sales, const RowSink& sink) const {
  // Spec §4.3.
  Random rng(StreamSeed(seed_, Table::kInventory, 0));
  Row r;
  for (int64_t id = 1; id <= size_.products; ++id) {
    int64_t stock = rng.Uniform(0, 500);
    if (id % kHotItemStep == 0) stock *= 10;
    const int64_t sold = id < static_cast<int64_t>(sales.size()) ? sales[id] : 0;
    r.Reset();
    r.IntField(id);
    r.IntField(stock);
    r.IntField(sold);
    sink(Table::kInventory, r.fields());
  }
}

void Generator::GenerateCategories(const RowSink& sink) const {
  Row r;
  const auto& names = CategoryNames();
  for (size_t i = 0; i < names.size(); ++i) {
    r.Reset();
    r.IntField(static_cast<int64_t>(i + 1));
    r.Field(names[i]);
    sink(Table::kCategories, r.fields());
  }
}

}  // namespace sb::dvdstore
