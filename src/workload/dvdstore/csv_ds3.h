// DVD Store 3's own CSV layout (load --csv_dir DIR --csv_layout=ds3): the directories, file
// names, field formats and row order that DVD Store's generators write (ds3/data_files/*/
// ds3_create_*.c) and its load scripts read (ds3/mysqlds3/load/*, ds3/pgsqlds3/load/*,
// ds3/sqlserverds3/load/*, ds3/oracleds3/load/*), so those scripts load storebench's data
// unchanged. The default layout (one file per table, tables.h's CsvFileName) is the loader's.
#ifndef STOREBENCH_WORKLOAD_DVDSTORE_CSV_DS3_H_
#define STOREBENCH_WORKLOAD_DVDSTORE_CSV_DS3_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "storebench/status.h"
#include "workload/dvdstore/sizes.h"

namespace sb::dvdstore {

// The files, relative to the CSV directory, in DVD Store's five directories: cust/us_cust.csv,
// cust/row_cust.csv; orders/<mon>_orders.csv, <mon>_orderlines.csv, <mon>_cust_hist.csv for
// jan..dec; prod/prod.csv, prod/inv.csv; membership/membership.csv; reviews/reviews.csv,
// reviews/review_helpfulness.csv. 43 files (DS2: 40, no membership or reviews).
std::vector<std::string> Ds3CsvFiles(bool ds2);

// Field formats DVD Store's C generators print and storebench's generator does not:
// PRICE with "%5.2f" (" 9.99": a leading space below $10, ds3_create_prod.c) ...
std::string Ds3Price(std::string_view price);
// ... and TAX and TOTALAMOUNT as C's "%.2f" of the doubles tax = 0.0825 * net and net + tax,
// where net = 0.01 * cents (ds3_create_orders.c). For 57 of the 40 000 possible amounts this
// differs by a cent from storebench's exact half-up rounding, which the loaded database keeps:
// net 6.00 gives tax "0.49" (storebench 0.50), net 10.00 total "10.82" (storebench 10.83).
// `net` is the generator's text ("123.45").
void Ds3TaxAndTotal(std::string_view net, std::string* tax, std::string* total);

// Generates the data of (size, seed, ds2) again, as the load does (same chunks and streams),
// and writes it into `dir` in DVD Store's layout: every file in id order, LF line ends, or CRLF
// with `crlf` (--csv_layout=ds3_windows): DVD Store's generators print "\n" in text mode, so
// their files end lines in CRLF on Windows, and SQL Server's BULK INSERT without a
// ROWTERMINATOR (ds3/sqlserverds3/load/*/*.sql) expects CRLF and loads no row of an LF file.
Status WriteDs3Csv(const std::string& dir, const DsSize& size, uint64_t seed, bool ds2,
                   bool crlf = false);

}  // namespace sb::dvdstore

#endif  // STOREBENCH_WORKLOAD_DVDSTORE_CSV_DS3_H_
