#include "workload/soe/generator.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace sb::soe {
namespace {

using std::string;
using std::string_view;

// Days from 1970-01-01 of the generator's date ranges.
int64_t DaysOf(int y, unsigned m, unsigned d) {
  namespace c = std::chrono;
  return c::sys_days(c::year_month_day(c::year(y), c::month(m), c::day(d)))
      .time_since_epoch()
      .count();
}

// A value clustered around the middle of [lo, hi] (the mean of two uniform draws), for the
// columns Swingbench's generator draws from a normal distribution.
int64_t Clustered(Random& rng, int64_t lo, int64_t hi) {
  return (rng.Uniform(lo, hi) + rng.Uniform(lo, hi)) / 2;
}

template <typename T>
const T& PickOf(Random& rng, const std::vector<T>& v) {
  return v[static_cast<size_t>(rng.Uniform(0, static_cast<int64_t>(v.size()) - 1))];
}

const std::vector<string_view>& Providers() {
  static const std::vector<string_view> v = {
      "example.com", "mail.example", "post.example", "inbox.example", "letters.example",
      "msg.example", "hub.example",  "net.example",  "web.example",   "online.example"};
  return v;
}

const std::vector<string_view>& Hobbies() {
  static const std::vector<string_view> v = {
      "Music",  "Sports", "Reading",     "Travel", "Cooking", "Gardening", "Photography",
      "Movies", "Hiking", "Electronics", "Games",  "Fashion", "Crafts"};
  return v;
}

const std::vector<string_view>& Streets() {
  static const std::vector<string_view> v = {
      "Acorn",  "Beech",  "Cedar", "Elm",    "Hawthorn", "Juniper", "Larch",   "Maple",
      "Oak",    "Poplar", "Rowan", "Spruce", "Willow",   "Yew",     "Ashdown", "Brook",
      "Castle", "Church", "Mill",  "Park",   "Station",  "Victoria"};
  return v;
}

const char* const kCardTypes[] = {"Visa (Debit)", "Visa (Debit)", "Visa (Credit)", "Amex",
                                  "Paypal",       "Cheque",       "Voucher",       "MasterCard"};
const char* const kStatuses[] = {"orderable", "planned", "under development", "obsolete"};
const char* const kDelivery[] = {"Standard", "Standard", "Standard",  "Standard",
                                 "Express",  "Next_Day", "Collection"};

// Customer class: Occasional 6/10, Prime 2/10, Business 1/10, Regular 1/10.
const char* CustomerClass(Random& rng) {
  const int64_t r = rng.Uniform(0, 9);
  return r < 6 ? "Occasional" : r < 8 ? "Prime" : r < 9 ? "Business" : "Regular";
}

// Collects one row's fields, then hands them to the sink.
class Row {
 public:
  Row& Add(string v) {
    fields_.push_back(std::move(v));
    return *this;
  }
  Row& Add(int64_t v) { return Add(std::to_string(v)); }
  void Emit(Table t, const RowSink& sink) {
    views_.assign(fields_.begin(), fields_.end());
    sink(t, views_);
    fields_.clear();
  }

 private:
  std::vector<string> fields_;
  std::vector<string_view> views_;
};

}  // namespace

const char* TableName(Table t) {
  static const char* const kNames[kNumTables] = {"customers",
                                                 "addresses",
                                                 "card_details",
                                                 "warehouses",
                                                 "categories",
                                                 "product_information",
                                                 "product_descriptions",
                                                 "inventories",
                                                 "orders",
                                                 "order_items",
                                                 "logon"};
  return kNames[static_cast<int>(t)];
}

const std::vector<string>& TableColumns(Table t) {
  static const std::vector<string> kCols[kNumTables] = {
      {"customer_id", "cust_first_name", "cust_last_name", "nls_language", "nls_territory",
       "credit_limit", "cust_email", "account_mgr_id", "customer_since", "customer_class",
       "suggestions", "dob", "mailshot", "partner_mailshot", "preferred_address", "preferred_card"},
      {"address_id", "customer_id", "date_created", "house_no_or_name", "street_name", "town",
       "county", "country", "post_code", "zip_code"},
      {"card_id", "customer_id", "card_type", "card_number", "expiry_date", "is_valid",
       "security_code"},
      {"warehouse_id", "warehouse_name", "location_id"},
      {"category_id", "category_name"},
      {"product_id", "product_name", "product_description", "category_id", "weight_class",
       "warranty_period", "supplier_id", "product_status", "list_price", "min_price",
       "catalog_url"},
      {"product_id", "language_id", "translated_name", "translated_description"},
      {"product_id", "warehouse_id", "quantity_on_hand"},
      {"order_id", "order_date", "order_mode", "customer_id", "order_status", "order_total",
       "sales_rep_id", "promotion_id", "warehouse_id", "delivery_type", "cost_of_delivery",
       "wait_till_all_available", "delivery_address_id", "customer_class", "card_id",
       "invoice_address_id"},
      {"order_id", "line_item_id", "product_id", "unit_price", "quantity", "dispatch_date",
       "return_date", "gift_wrap", "item_condition", "supplier_id", "estimated_delivery"},
      {"logon_id", "customer_id", "logon_date"},
  };
  return kCols[static_cast<int>(t)];
}

string DateText(int64_t days) {
  namespace c = std::chrono;
  const c::year_month_day ymd{c::sys_days{c::days{days}}};
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02u", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
  return buf;
}

string TimestampText(int64_t seconds) {
  const int64_t days = seconds / 86400;
  const int64_t s = seconds % 86400;
  char buf[16];
  std::snprintf(buf, sizeof buf, " %02d:%02d:%02d", static_cast<int>(s / 3600),
                static_cast<int>(s / 60 % 60), static_cast<int>(s % 60));
  return DateText(days) + buf;
}

string MoneyText(int64_t cents) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%s%lld.%02lld", cents < 0 ? "-" : "",
                static_cast<long long>(std::llabs(cents) / 100),
                static_cast<long long>(std::llabs(cents) % 100));
  return buf;
}

int64_t CentsOf(double amount) { return std::llround(amount * 100); }

std::vector<Chunk> Generator::Chunks() const {
  std::vector<Chunk> out;
  auto add = [&](Table t, int64_t rows, int64_t per_chunk) {
    uint64_t n = 0;
    for (int64_t first = 1; first <= rows; first += per_chunk) {
      out.push_back({t, first, std::min(rows, first + per_chunk - 1), n++});
    }
  };
  // The biggest tables first, so the threads finish together.
  add(Table::kOrders, size_.orders, kChunkRows);
  add(Table::kLogon, size_.logons, kChunkRows);
  add(Table::kCustomers, size_.customers, kChunkRows);
  add(Table::kAddresses, size_.addresses, kChunkRows);
  add(Table::kCardDetails, size_.cards, kChunkRows);
  // Inventories by product: about 0.9 x warehouses rows per product.
  add(Table::kInventories, size_.products, std::max<int64_t>(1, kChunkRows / size_.warehouses));
  add(Table::kProductInformation, size_.products, kChunkRows);
  add(Table::kWarehouses, size_.warehouses, kChunkRows);
  add(Table::kCategories, size_.categories, kChunkRows);
  return out;
}

int64_t Generator::ExpectedRows(Table t) const {
  switch (t) {
    case Table::kCustomers:
      return size_.customers;
    case Table::kAddresses:
      return size_.addresses;
    case Table::kCardDetails:
      return size_.cards;
    case Table::kWarehouses:
      return size_.warehouses;
    case Table::kCategories:
      return size_.categories;
    case Table::kProductInformation:
    case Table::kProductDescriptions:
      return size_.products;
    case Table::kInventories:
      return size_.products * size_.warehouses * 9 / 10;
    case Table::kOrders:
      return size_.orders;
    case Table::kOrderItems:
      return size_.orders * 5;
    case Table::kLogon:
      return size_.logons;
  }
  return 0;
}

void Generator::Generate(const Chunk& c, const RowSink& sink) const {
  Random rng(DeriveSeed(seed_, {static_cast<uint64_t>(c.table) + 1, c.number}));
  Row row;
  switch (c.table) {
    case Table::kCustomers:
      return Customers(c, rng, sink);
    case Table::kAddresses:
      return Addresses(c, rng, sink);
    case Table::kCardDetails:
      return Cards(c, rng, sink);
    case Table::kOrders:
      return Orders(c, rng, sink);
    case Table::kLogon:
      return Logons(c, rng, sink);
    case Table::kProductInformation:
      return Products(c, rng, sink);
    case Table::kInventories:
      return Inventories(c, rng, sink);
    case Table::kWarehouses:
      for (int64_t w = c.first; w <= c.last; ++w) {
        row.Add(w).Add("Warehouse " + std::to_string(w)).Add(rng.Uniform(1, 100));
        row.Emit(c.table, sink);
      }
      return;
    case Table::kCategories:
      for (int64_t k = c.first; k <= c.last; ++k) {
        row.Add(k).Add("Category " + std::to_string(k)).Emit(c.table, sink);
      }
      return;
    case Table::kProductDescriptions:
    case Table::kOrderItems:
      return;  // generated with their products and orders
  }
}

void Generator::Customers(const Chunk& c, Random& rng, const RowSink& sink) const {
  static const int64_t since_lo = DaysOf(2000, 1, 1), since_hi = DaysOf(2012, 12, 31);
  static const int64_t dob_lo = DaysOf(1950, 1, 1), dob_hi = DaysOf(2000, 12, 31);
  Row row;
  for (int64_t id = c.first; id <= c.last; ++id) {
    const string_view first = PickOf(rng, FirstNames());
    const string_view last = PickOf(rng, LastNames());
    const auto& nls = PickOf(rng, NlsPairs());
    const int64_t credit = rng.Uniform(0, 50) == 50 ? 100000 : Clustered(rng, 1, 50) * 1000;
    row.Add(id)
        .Add(string(first))
        .Add(string(last))
        .Add(string(nls.first))
        .Add(string(nls.second))
        .Add(std::to_string(credit) + ".00")
        .Add(string(first) + "." + string(last) + "@" + string(PickOf(rng, Providers())))
        .Add(Clustered(rng, 1, 1000))
        .Add(DateText(rng.Uniform(since_lo, since_hi)))
        .Add(CustomerClass(rng))
        .Add(string(PickOf(rng, Hobbies())))
        .Add(DateText(rng.Uniform(dob_lo, dob_hi)))
        .Add(rng.Uniform(0, 3) < 3 ? "Y" : "N")
        .Add(rng.Uniform(0, 2) < 1 ? "Y" : "N")
        .Add(rng.Uniform(1, size_.addresses))
        .Add(rng.Uniform(1, size_.cards))
        .Emit(Table::kCustomers, sink);
  }
}

void Generator::Addresses(const Chunk& c, Random& rng, const RowSink& sink) const {
  static const int64_t lo = DaysOf(2000, 1, 1), hi = DaysOf(2012, 12, 31);
  Row row;
  for (int64_t id = c.first; id <= c.last; ++id) {
    row.Add(id)
        .Add(rng.Uniform(1, size_.customers))
        .Add(DateText(rng.Uniform(lo, hi)))
        .Add(rng.Uniform(1, 999))
        .Add(string(PickOf(rng, Streets())) + " Road")
        .Add(string(PickOf(rng, Towns())))
        .Add(string(PickOf(rng, Counties())))
        .Add(string(PickOf(rng, Countries())))
        .Add("PC" + std::to_string(rng.Uniform(1000, 9999)))
        .Add(std::to_string(rng.Uniform(10000, 99999)))
        .Emit(Table::kAddresses, sink);
  }
}

void Generator::Cards(const Chunk& c, Random& rng, const RowSink& sink) const {
  static const int64_t lo = DaysOf(2012, 1, 1), hi = DaysOf(2016, 12, 31);
  Row row;
  for (int64_t id = c.first; id <= c.last; ++id) {
    row.Add(id)
        .Add(rng.Uniform(1, size_.customers))
        .Add(kCardTypes[rng.Uniform(0, 7)])
        .Add(rng.Uniform(1111111111, 9999999999))
        .Add(DateText(rng.Uniform(lo, hi)))
        .Add(rng.Uniform(0, 33) == 0 ? "N" : "Y")
        .Add(rng.Uniform(1111, 9999))
        .Emit(Table::kCardDetails, sink);
  }
}

void Generator::Orders(const Chunk& c, Random& rng, const RowSink& sink) const {
  static const int64_t lo = DaysOf(2007, 1, 1) * 86400, hi = DaysOf(2012, 5, 1) * 86400;
  Row row;
  std::vector<std::pair<int64_t, int64_t>> items;  // (unit price cents, quantity)
  for (int64_t id = c.first; id <= c.last; ++id) {
    const int64_t when = rng.Uniform(lo, hi);
    const int64_t n = rng.Uniform(1, 9);
    items.clear();
    int64_t total = 0;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t price = Clustered(rng, 100, 200000);
      const int64_t qty = Clustered(rng, 1, 10);
      items.emplace_back(price, qty);
      total += price * qty;
    }
    row.Add(id)
        .Add(TimestampText(when))
        .Add(rng.Uniform(0, 1) == 0 ? "direct" : "online")
        .Add(rng.Uniform(1, size_.customers))
        .Add(Clustered(rng, 1, 10))
        .Add(MoneyText(total))
        .Add(Clustered(rng, 1, 1000))
        .Add(Clustered(rng, 0, 1000))
        .Add(rng.Uniform(1, size_.warehouses))
        .Add(kDelivery[rng.Uniform(0, 6)])
        .Add(rng.Uniform(1, 5))
        .Add(rng.Uniform(0, 4) == 0 ? "ship_asap" : "ship_when_ready")
        .Add(rng.Uniform(1, size_.addresses))
        .Add(CustomerClass(rng))
        .Add(rng.Uniform(1, size_.cards))
        .Add(rng.Uniform(1, size_.addresses))
        .Emit(Table::kOrders, sink);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t day = when / 86400;
      row.Add(id)
          .Add(i + 1)
          .Add(rng.Uniform(1, size_.products))
          .Add(MoneyText(items[static_cast<size_t>(i)].first))
          .Add(items[static_cast<size_t>(i)].second)
          .Add(DateText(day + rng.Uniform(1, 10)))
          .Add(DateText(day + rng.Uniform(30, 60)))
          .Add(rng.Uniform(0, 9) == 0 ? "Gift Box" : "None")
          .Add(rng.Uniform(0, 19) == 0 ? "Used" : "New")
          .Add(rng.Uniform(100, 1000))
          .Add(DateText(day + rng.Uniform(3, 14)))
          .Emit(Table::kOrderItems, sink);
    }
  }
}

void Generator::Logons(const Chunk& c, Random& rng, const RowSink& sink) const {
  static const int64_t lo = DaysOf(2007, 1, 1) * 86400, hi = DaysOf(2012, 5, 1) * 86400;
  Row row;
  for (int64_t id = c.first; id <= c.last; ++id) {
    row.Add(id)
        .Add(rng.Uniform(1, size_.customers))
        .Add(TimestampText(rng.Uniform(lo, hi)))
        .Emit(Table::kLogon, sink);
  }
}

void Generator::Products(const Chunk& c, Random& rng, const RowSink& sink) const {
  Row row;
  for (int64_t id = c.first; id <= c.last; ++id) {
    const int64_t list = rng.Uniform(100, 500000);
    const string name = string(PickOf(rng, Hobbies())) + " item " + std::to_string(id);
    string description = "A " + string(PickOf(rng, Streets())) + " " + name + " for";
    const int64_t words = rng.Uniform(5, 30);
    for (int64_t w = 0; w < words; ++w) description += " " + string(PickOf(rng, Hobbies()));
    row.Add(id)
        .Add(name)
        .Add(description)
        .Add(rng.Uniform(1, size_.categories))
        .Add(rng.Uniform(1, 5))
        .Add(std::to_string(rng.Uniform(0, 3)) + " years")
        .Add(rng.Uniform(100, 1000))
        .Add(kStatuses[rng.Uniform(0, 3)])
        .Add(MoneyText(list))
        .Add(MoneyText(list * 8 / 10))
        .Add("www.example.com/catalog/" + std::to_string(id) + ".html")
        .Emit(Table::kProductInformation, sink);
    row.Add(id).Add("US").Add(name).Add(description).Emit(Table::kProductDescriptions, sink);
  }
}

void Generator::Inventories(const Chunk& c, Random& rng, const RowSink& sink) const {
  Row row;
  for (int64_t p = c.first; p <= c.last; ++p) {
    for (int64_t w = 1; w <= size_.warehouses; ++w) {
      if (rng.Uniform(0, 9) == 0) continue;  // each product is stocked in ~90 % of warehouses
      row.Add(p).Add(w).Add(rng.Uniform(0, 99999999)).Emit(Table::kInventories, sink);
    }
  }
}

const std::vector<string_view>& FirstNames() {
  static const std::vector<string_view> v = {
      "aaron",    "abigail", "adam",    "alan",      "albert",  "alice",   "amanda",  "amy",
      "andrew",   "angela",  "anna",    "anthony",   "arthur",  "barbara", "ben",     "betty",
      "brian",    "carl",    "carol",   "catherine", "charles", "chris",   "claire",  "daniel",
      "david",    "deborah", "dennis",  "diana",     "donald",  "dorothy", "edward",  "elaine",
      "emily",    "emma",    "eric",    "frank",     "gary",    "george",  "grace",   "harry",
      "helen",    "henry",   "ian",     "jack",      "james",   "jane",    "jason",   "jennifer",
      "john",     "joseph",  "julia",   "karen",     "kate",    "kenneth", "kevin",   "laura",
      "linda",    "lisa",    "louise",  "margaret",  "maria",   "mark",    "martin",  "mary",
      "matthew",  "michael", "nancy",   "nicholas",  "oliver",  "olivia",  "patrick", "paul",
      "peter",    "rachel",  "richard", "robert",    "ruth",    "sam",     "sandra",  "sarah",
      "scott",    "simon",   "sophie",  "stephen",   "steven",  "susan",   "thomas",  "timothy",
      "victoria", "walter",  "william", "zoe"};
  return v;
}

const std::vector<string_view>& LastNames() {
  static const std::vector<string_view> v = {
      "adams",    "allen",    "baker",  "bell",     "brown",    "campbell", "carter", "clark",
      "collins",  "cook",     "cooper", "davies",   "davis",    "edwards",  "evans",  "fisher",
      "foster",   "garcia",   "green",  "hall",     "harris",   "hill",     "hughes", "jackson",
      "james",    "johnson",  "jones",  "kelly",    "king",     "lee",      "lewis",  "martin",
      "miller",   "mitchell", "moore",  "morgan",   "morris",   "murphy",   "nelson", "parker",
      "phillips", "price",    "reed",   "roberts",  "robinson", "rogers",   "scott",  "smith",
      "stewart",  "taylor",   "thomas", "thompson", "turner",   "walker",   "ward",   "watson",
      "white",    "williams", "wilson", "wood",     "wright",   "young"};
  return v;
}

const std::vector<string_view>& Towns() {
  static const std::vector<string_view> v = {
      "Ashford",  "Bradford", "Cambridge", "Dover",   "Exeter",  "Falmouth", "Guildford",
      "Hereford", "Ipswich",  "Kendal",    "Lincoln", "Margate", "Norwich",  "Oxford",
      "Penrith",  "Reading",  "Salisbury", "Truro",   "Warwick", "York"};
  return v;
}

const std::vector<string_view>& Counties() {
  static const std::vector<string_view> v = {
      "Kent",         "Yorkshire",  "Cambridgeshire", "Devon",       "Cornwall",  "Surrey",
      "Suffolk",      "Cumbria",    "Norfolk",        "Oxfordshire", "Berkshire", "Wiltshire",
      "Warwickshire", "Lancashire", "Essex",          "Dorset"};
  return v;
}

const std::vector<string_view>& Countries() {
  static const std::vector<string_view> v = {
      "United Kingdom", "United States", "France", "Germany", "Spain",  "Italy",
      "Netherlands",    "Belgium",       "Sweden", "Norway",  "Canada", "Australia",
      "Japan",          "Brazil",        "India",  "Ireland"};
  return v;
}

const std::vector<std::pair<string_view, string_view>>& NlsPairs() {
  static const std::vector<std::pair<string_view, string_view>> v = {
      {"us", "AMERICA"}, {"gb", "UNITED KINGDOM"}, {"fr", "FRANCE"},          {"de", "GERMANY"},
      {"es", "SPAIN"},   {"it", "ITALY"},          {"nl", "THE NETHERLANDS"}, {"ja", "JAPAN"},
      {"pt", "BRAZIL"},  {"sv", "SWEDEN"}};
  return v;
}

}  // namespace sb::soe
