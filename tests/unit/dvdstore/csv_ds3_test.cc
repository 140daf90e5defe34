// DVD Store 3's CSV layout (--csv_layout=ds3): the 43 files of size S in DVD Store's five
// directories, their line counts and field formats, the %5.2f price and C's %.2f tax, and every
// file in id order; --csv_layout=ds3_windows: the same files with CRLF line ends.
#include "workload/dvdstore/csv_ds3.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "workload/dvdstore/generator.h"

namespace sb::dvdstore {
namespace {

namespace fs = std::filesystem;

// A line's fields into *out, whose strings are reused from line to line.
void SplitInto(const std::string& line, std::vector<std::string>* out) {
  size_t n = 0, from = 0;
  for (;;) {
    const size_t comma = line.find(',', from);
    const size_t end = comma == std::string::npos ? line.size() : comma;
    if (out->size() <= n) out->emplace_back();
    (*out)[n++].assign(line, from, end - from);
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  out->resize(n);
}

std::vector<std::string> Split(const std::string& line) {
  std::vector<std::string> out;
  SplitInto(line, &out);
  return out;
}

// Calls `row` with every line of a file, split into fields, until it returns false: the
// reviews' files hold millions of lines, which need not be kept to be checked one by one.
template <typename RowFn>
void ForEachRow(const fs::path& path, RowFn row) {
  std::ifstream in(path, std::ios::binary);
  std::string line;
  std::vector<std::string> fields;
  while (std::getline(in, line)) {
    SplitInto(line, &fields);
    if (!row(fields)) return;
  }
}

// Every line of a file, split into fields.
std::vector<std::vector<std::string>> Read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) rows.push_back(Split(line));
  return rows;
}

TEST(CsvDs3Test, FileNames) {
  const auto ds3 = Ds3CsvFiles(false);
  EXPECT_EQ(ds3.size(), 43u);
  EXPECT_EQ(Ds3CsvFiles(true).size(), 40u);
  const std::set<std::string> names(ds3.begin(), ds3.end());
  for (const char* f :
       {"cust/us_cust.csv", "cust/row_cust.csv", "orders/jan_orders.csv",
        "orders/dec_orderlines.csv", "orders/jun_cust_hist.csv", "prod/prod.csv", "prod/inv.csv",
        "membership/membership.csv", "reviews/reviews.csv", "reviews/review_helpfulness.csv"}) {
    EXPECT_EQ(names.count(f), 1u) << f;
  }
}

TEST(CsvDs3Test, PriceHasDvdStoresWidth) {
  EXPECT_EQ(Ds3Price("9.99"), " 9.99");
  EXPECT_EQ(Ds3Price("29.99"), "29.99");
}

TEST(CsvDs3Test, TaxRoundsAsTheCGenerator) {
  std::string tax, total;
  // 0.0825 * 6.00 is just below 0.495 as a double: C prints 0.49 (exact half-up: 0.50).
  Ds3TaxAndTotal("6.00", &tax, &total);
  EXPECT_EQ(tax, "0.49");
  EXPECT_EQ(total, "6.50");
  // 10.00 + 0.825 is just below 10.825: total 10.82 (exact: 10.83).
  Ds3TaxAndTotal("10.00", &tax, &total);
  EXPECT_EQ(tax, "0.83");
  EXPECT_EQ(total, "10.82");
  Ds3TaxAndTotal("400.00", &tax, &total);
  EXPECT_EQ(tax, "33.00");
  EXPECT_EQ(total, "433.00");
}

std::string Slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// --csv_layout=ds3_windows: the same bytes as ds3 but every line ended by CRLF (SQL Server's
// BULK INSERT reads no row of an LF file without a ROWTERMINATOR); ds3 itself has no CR.
TEST(CsvDs3Test, WindowsLayoutEndsLinesWithCrlf) {
  const fs::path base =
      fs::path(STOREBENCH_TEST_TMP) / ("csv_ds3_test_crlf." + std::to_string(::getpid()));
  fs::remove_all(base);
  const DsSize size = *ParseDsSize("1MB");
  ASSERT_TRUE(WriteDs3Csv((base / "lf").string(), size, 3, false).ok());
  ASSERT_TRUE(WriteDs3Csv((base / "crlf").string(), size, 3, false, /*crlf=*/true).ok());
  for (const std::string& name : Ds3CsvFiles(false)) {
    const std::string lf = Slurp(base / "lf" / name);
    const std::string crlf = Slurp(base / "crlf" / name);
    ASSERT_FALSE(lf.empty()) << name;
    EXPECT_EQ(lf.find('\r'), std::string::npos) << name;
    std::string expect;
    for (char c : lf) {
      if (c == '\n') expect += '\r';
      expect += c;
    }
    ASSERT_EQ(crlf, expect) << name;
  }
  fs::remove_all(base);
}

class CsvDs3SizeS : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // ctest runs each case as its own process, possibly at the same time: one directory each.
    dir_ = new fs::path(fs::path(STOREBENCH_TEST_TMP) /
                        ("csv_ds3_test_S." + std::to_string(::getpid())));
    fs::remove_all(*dir_);
    size_ = new DsSize(*ParseDsSize("S"));
    ASSERT_TRUE(WriteDs3Csv(dir_->string(), *size_, 7, false).ok());
  }
  static void TearDownTestSuite() {
    fs::remove_all(*dir_);
    delete dir_;
    delete size_;
  }
  static fs::path* dir_;
  static DsSize* size_;
};
fs::path* CsvDs3SizeS::dir_ = nullptr;
DsSize* CsvDs3SizeS::size_ = nullptr;

TEST_F(CsvDs3SizeS, ExactlyDvdStoresFilesInFiveDirectories) {
  std::set<std::string> found, dirs;
  for (const auto& e : fs::recursive_directory_iterator(*dir_)) {
    const std::string rel = fs::relative(e.path(), *dir_).string();
    (e.is_directory() ? dirs : found).insert(rel);
  }
  const auto want = Ds3CsvFiles(false);
  EXPECT_EQ(found, std::set<std::string>(want.begin(), want.end()));
  EXPECT_EQ(dirs, (std::set<std::string>{"cust", "orders", "prod", "membership", "reviews"}));
}

TEST_F(CsvDs3SizeS, CountsAndFieldsPerFile) {
  const char* months[] = {"jan", "feb", "mar", "apr", "may", "jun",
                          "jul", "aug", "sep", "oct", "nov", "dec"};
  auto us = Read(*dir_ / "cust/us_cust.csv");
  auto row = Read(*dir_ / "cust/row_cust.csv");
  ASSERT_EQ(us.size(), 10000u);
  ASSERT_EQ(row.size(), 10000u);
  EXPECT_EQ(us.front()[0], "1");
  EXPECT_EQ(row.front()[0], "10001");
  EXPECT_EQ(row.back()[0], "20000");
  for (const auto& f : us) ASSERT_EQ(f.size(), 20u);
  EXPECT_EQ(us.front()[8], "US");
  EXPECT_EQ(row.front()[7], "00000");  // ROW ZIP, as DVD Store prints it
  int64_t expect_order = 1, lines = 0;
  for (int m = 0; m < 12; ++m) {
    const std::string p = std::string("orders/") + months[m];
    auto orders = Read(*dir_ / (p + "_orders.csv"));
    auto orderlines = Read(*dir_ / (p + "_orderlines.csv"));
    auto hist = Read(*dir_ / (p + "_cust_hist.csv"));
    ASSERT_EQ(orders.size(), 1000u) << p;
    EXPECT_EQ(orderlines.size(), hist.size()) << p;
    lines += static_cast<int64_t>(orderlines.size());
    char month[8];
    std::snprintf(month, sizeof month, "/%02d/", m + 1);
    for (const auto& o : orders) {
      ASSERT_EQ(o.size(), 6u);
      ASSERT_EQ(o[0], std::to_string(expect_order++)) << p << ": orders in id order";
      ASSERT_NE(o[1].find(month), std::string::npos) << p << " " << o[1];
      std::string tax, total;
      Ds3TaxAndTotal(o[3], &tax, &total);
      ASSERT_EQ(o[4], tax);
      ASSERT_EQ(o[5], total);
    }
    for (const auto& l : orderlines) ASSERT_EQ(l.size(), 5u);
    for (const auto& h : hist) ASSERT_EQ(h.size(), 3u);
  }
  EXPECT_GT(lines, 12000);
  EXPECT_LT(lines, 9 * 12000);

  auto prod = Read(*dir_ / "prod/prod.csv");
  auto inv = Read(*dir_ / "prod/inv.csv");
  ASSERT_EQ(prod.size(), 10000u);
  ASSERT_EQ(inv.size(), 10000u);
  const std::regex price(R"(( \d|\d\d)\.99)");
  int below_ten = 0;
  for (size_t i = 0; i < prod.size(); ++i) {
    ASSERT_EQ(prod[i].size(), 8u);
    ASSERT_EQ(prod[i][0], std::to_string(i + 1));
    ASSERT_TRUE(std::regex_match(prod[i][4], price)) << "'" << prod[i][4] << "'";
    if (prod[i][4] == " 9.99") ++below_ten;
    ASSERT_EQ(inv[i][0], std::to_string(i + 1));
  }
  EXPECT_GT(below_ten, 0);  // U[9,29] + 0.99: about 1 in 21

  auto members = Read(*dir_ / "membership/membership.csv");
  ASSERT_EQ(members.size(), 2000u);
  for (size_t i = 1; i < members.size(); ++i) {
    ASSERT_LT(std::stoll(members[i - 1][0]), std::stoll(members[i][0]));
  }
  // Each row checked as it is read; the first wrong one ends the case.
  size_t reviews = 0;
  bool rows_ok = true;
  ForEachRow(*dir_ / "reviews/reviews.csv", [&](const std::vector<std::string>& r) {
    const std::string id = std::to_string(++reviews);
    rows_ok = r.size() == 7u && r[0] == id;
    EXPECT_EQ(r.size(), 7u);
    EXPECT_EQ(r[0], id);
    return rows_ok;
  });
  ASSERT_TRUE(rows_ok);
  ASSERT_EQ(reviews, 200000u);
  size_t help = 0;
  ForEachRow(*dir_ / "reviews/review_helpfulness.csv", [&](const std::vector<std::string>& h) {
    const std::string id = std::to_string(++help);
    rows_ok = h.size() == 4u && h[0] == id;
    EXPECT_EQ(h.size(), 4u);
    EXPECT_EQ(h[0], id) << "helpfulness rows in id order";
    return rows_ok;
  });
  ASSERT_TRUE(rows_ok);
  EXPECT_GT(help, 200000u * 2);
  EXPECT_LT(help, 200000u * 39);
}

}  // namespace
}  // namespace sb::dvdstore
