// Databases storebench did not load: a DVD Store 3 (or, with --ds2_mode=Y, DVD Store 2) database
// built by DVD Store's own install scripts (ds3/mysqlds3/mysqlds3_create_all.sh,
// ds3/pgsqlds3/pgsqlds3_create_all.sh, ...). run and verify recognise its tables by DVD Store's
// names, take its size from the row counts and the browse words from its PRODUCTS rows, and
// say in the result how it differs from a database storebench loaded (docs/dvdstore.md,
// "Working with the original DVD Store").
#ifndef STOREBENCH_WORKLOAD_DVDSTORE_FOREIGN_DB_H_
#define STOREBENCH_WORKLOAD_DVDSTORE_FOREIGN_DB_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "storebench/db.h"
#include "storebench/status.h"
#include "workload/dvdstore/sizes.h"

namespace sb::dvdstore {

// Browse words sampled from the data: whole titles and actor names of evenly spaced products.
struct BrowseWords {
  std::vector<std::string> titles;
  std::vector<std::string> actors;
  std::vector<int64_t> products;  // the prod_ids they came from
};

struct ForeignDb {
  DsSize size;            // from the row counts (SizeFromCounts)
  int64_t customers = 0;  // rows counted at start
  int64_t products = 0;
  int64_t orders = 0;
  std::shared_ptr<const BrowseWords> words;
  std::vector<std::string> differences;  // from a database storebench loads, one sentence each
  // Entries of the result's choices that describe this database rather than the schema
  // storebench loads ("restock": DVD Store's trigger or none; "full_text" on a MyISAM PRODUCTS),
  // replacing storebench's own sentences, which would say what this database does not do.
  std::map<std::string, std::string> choices;
};

// storebench_meta's "origin" of a database built by DVD Store's scripts and adopted (--adopt=Y).
inline constexpr const char* kOriginDs3Scripts = "ds3_scripts";

// Products sampled for the browse words.
constexpr int kSampledProducts = 200;

// The size whose product count is `products` and whose customer and order counts are at most
// the counted ones (runs add customers and orders), preferring an exact customer count: S, M, L,
// <n>MB or <n>GB as DVD Store's installer names them; otherwise a size labelled "counted" with
// the counts themselves.
DsSize SizeFromCounts(int64_t customers, int64_t products, int64_t orders);

// Reads a database without storebench_meta (or adopted, with origin=ds3). FailedPrecondition
// naming the first missing table when it does not hold DVD Store's tables (DS3's, or DS2's when
// `ds2`); with DS2's tables only and `ds2` false, a sentence that says to use --ds2_mode=Y.
Result<ForeignDb> ReadForeignDb(db::Connection& conn, const std::string& dialect, bool ds2);

}  // namespace sb::dvdstore

#endif  // STOREBENCH_WORKLOAD_DVDSTORE_FOREIGN_DB_H_
