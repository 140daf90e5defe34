#include "workload/dvdstore/csv_ds3.h"

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>

#include "workload/dvdstore/generator.h"

namespace sb::dvdstore {
namespace {

constexpr std::array<const char*, 12> kMonths = {"jan", "feb", "mar", "apr", "may", "jun",
                                                 "jul", "aug", "sep", "oct", "nov", "dec"};

// One output file per DS3 name, opened on first use.
class Ds3Files {
 public:
  Ds3Files(std::string dir, bool crlf) : dir_(std::move(dir)), line_end_(crlf ? "\r\n" : "\n") {}
  Status Open(const std::string& name) {
    const std::string path = dir_ + "/" + name;
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    if (ec) {
      return Status::IoError("cannot create CSV directory for '" + path + "': " + ec.message());
    }
    auto f = std::make_unique<std::ofstream>(path, std::ios::binary | std::ios::trunc);
    if (!*f) return Status::IoError("cannot write CSV file '" + path + "'");
    files_[name] = std::move(f);
    return Status::Ok();
  }
  void Line(const std::string& name, const std::vector<std::string_view>& fields) {
    line_.clear();
    for (size_t i = 0; i < fields.size(); ++i) {
      if (i) line_ += ',';
      line_.append(fields[i]);
    }
    line_ += line_end_;
    files_.at(name)->write(line_.data(), static_cast<std::streamsize>(line_.size()));
  }
  Status Close() {
    for (auto& [name, f] : files_) {
      f->close();
      if (!*f) return Status::IoError("writing CSV file '" + dir_ + "/" + name + "' failed");
    }
    return Status::Ok();
  }

 private:
  std::string dir_;
  const char* line_end_;
  std::string line_;
  std::map<std::string, std::unique_ptr<std::ofstream>> files_;
};

// "123.45" -> 12345.
int64_t Cents(std::string_view money) {
  int64_t v = 0;
  for (char c : money) {
    if (c >= '0' && c <= '9') v = v * 10 + (c - '0');
  }
  return v;
}

}  // namespace

std::vector<std::string> Ds3CsvFiles(bool ds2) {
  std::vector<std::string> files = {"cust/us_cust.csv", "cust/row_cust.csv"};
  for (const char* m : kMonths) {
    for (const char* what : {"orders", "orderlines", "cust_hist"}) {
      files.emplace_back(std::string("orders/") + m + "_" + what + ".csv");
    }
  }
  files.emplace_back("prod/prod.csv");
  files.emplace_back("prod/inv.csv");
  if (!ds2) {
    files.emplace_back("membership/membership.csv");
    files.emplace_back("reviews/reviews.csv");
    files.emplace_back("reviews/review_helpfulness.csv");
  }
  return files;
}

std::string Ds3Price(std::string_view price) {
  std::string out(price);
  if (out.size() < 5) out.insert(0, 5 - out.size(), ' ');
  return out;
}

void Ds3TaxAndTotal(std::string_view net, std::string* tax, std::string* total) {
  // The generator's arithmetic, in doubles, printed by the C library's rounding.
  const double netamount = 0.01 * static_cast<double>(Cents(net));
  const double taxamount = 0.0825 * netamount;
  const double totalamount = netamount + taxamount;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", taxamount);
  *tax = buf;
  std::snprintf(buf, sizeof buf, "%.2f", totalamount);
  *total = buf;
}

Status WriteDs3Csv(const std::string& dir, const DsSize& size, uint64_t seed, bool ds2, bool crlf) {
  Ds3Files files(dir, crlf);
  for (const std::string& name : Ds3CsvFiles(ds2)) SB_RETURN_IF_ERROR(files.Open(name));
  Generator gen(size, seed, ds2);
  std::vector<int64_t> sales(static_cast<size_t>(size.products) + 1, 0);
  std::string month_prefix;
  std::string customers_file;
  std::string price, tax, total;
  std::vector<std::string_view> row;
  auto sink = [&](Table t, const std::vector<std::string_view>& fields) {
    switch (t) {
      case Table::kCustomers:
        files.Line(customers_file, fields);
        return;
      case Table::kOrders:
        row = fields;
        Ds3TaxAndTotal(fields[3], &tax, &total);
        row[4] = tax;
        row[5] = total;
        files.Line(month_prefix + "_orders.csv", row);
        return;
      case Table::kOrderlines:
        files.Line(month_prefix + "_orderlines.csv", fields);
        return;
      case Table::kCustHist:
        files.Line(month_prefix + "_cust_hist.csv", fields);
        return;
      case Table::kProducts:
        row = fields;
        price = Ds3Price(fields[4]);
        row[4] = price;
        files.Line("prod/prod.csv", row);
        return;
      case Table::kInventory:
        files.Line("prod/inv.csv", fields);
        return;
      case Table::kMembership:
        files.Line("membership/membership.csv", fields);
        return;
      case Table::kReviews:
        files.Line("reviews/reviews.csv", fields);
        return;
      case Table::kReviewsHelpfulness:
        files.Line("reviews/review_helpfulness.csv", fields);
        return;
      case Table::kCategories:  // DVD Store's build script inserts the 16 categories itself
      case Table::kReorder:
        return;
    }
  };
  // Chunks come per table in id order; written one after another, every file is in id order
  // (review chunks carry their helpfulness rows, whose ids run on from chunk to chunk).
  for (const ChunkSpec& c : gen.Chunks(kChunkRows)) {
    if (c.table == Table::kOrders) {
      month_prefix = std::string("orders/") + kMonths[static_cast<size_t>(c.month - 1)];
    }
    if (c.table == Table::kCustomers) {
      customers_file = c.us ? "cust/us_cust.csv" : "cust/row_cust.csv";
    }
    gen.Generate(c, sink, &sales);
  }
  gen.GenerateInventory(sales, sink);
  return files.Close();
}

}  // namespace sb::dvdstore
