// --soe_variant's drawn inputs: over many seeded draws, each variant's counts and statuses lie in
// its own ranges (docs/soe.md "Transactions") and reach both ends, and the row limits it passes
// are its own. The expected constants are written out here, not read from LimitsOf, so a wrong
// constant in tx_inputs.cc fails.
#include "workload/soe/tx_inputs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>

namespace sb::soe {
namespace {

struct Expected {
  SoeVariant variant;
  const char* name;
  int64_t max_products, max_browses, max_lines, max_po_status, pending_orders, bo_lines;
  // Logon rows written per 3000 logons drawn: package 2.1 writes one in three.
  int64_t logon_rows_lo, logon_rows_hi;
};

// The smallest and largest value seen.
struct Range {
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  void Add(int64_t v) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
};

class TxInputsTest : public ::testing::TestWithParam<Expected> {};

TEST_P(TxInputsTest, DrawsLieInTheVariantsRangesAndReachTheirEnds) {
  const Expected& e = GetParam();
  auto size = SizeForScale(0.001);
  ASSERT_TRUE(size.ok());
  Random rng(7);
  Range products, browses, lines, op_status, po_status;
  int64_t logon_rows = 0;
  // 2000 draws each: the chance of missing one end of a range of 23 values is 2 (22/23)^2000,
  // about 1e-37.
  for (int i = 0; i < 2000; ++i) {
    const TxInputs bp = DrawInputs(kBp, rng, *size, e.variant);
    products.Add(static_cast<int64_t>(bp.products.size()));
    for (const int64_t p : bp.products) {
      ASSERT_GE(p, 1);
      ASSERT_LE(p, size->products);
    }
    const TxInputs op = DrawInputs(kOp, rng, *size, e.variant);
    ASSERT_EQ(op.browse_warehouses.size(), op.browse_categories.size());
    browses.Add(static_cast<int64_t>(op.browse_categories.size()));
    lines.Add(op.lines);
    op_status.Add(op.status);
    const TxInputs po = DrawInputs(kPo, rng, *size, e.variant);
    po_status.Add(po.status);
    ASSERT_EQ(po.row_limit, e.pending_orders);
    const TxInputs bo = DrawInputs(kBo, rng, *size, e.variant);
    ASSERT_EQ(bo.row_limit, e.bo_lines);
    if (i < 1000) logon_rows += bp.logon_row + op.logon_row + bo.logon_row;
    EXPECT_TRUE(DrawInputs(kPo, rng, *size, e.variant).logon_row);  // no logon: never skipped
  }
  EXPECT_GE(logon_rows, e.logon_rows_lo) << e.name;
  EXPECT_LE(logon_rows, e.logon_rows_hi) << e.name;
  EXPECT_EQ(products.lo, 1) << e.name;
  EXPECT_EQ(products.hi, e.max_products) << e.name;
  EXPECT_EQ(browses.lo, 1) << e.name;
  EXPECT_EQ(browses.hi, e.max_browses) << e.name;
  EXPECT_EQ(po_status.lo, 5) << e.name;
  EXPECT_EQ(po_status.hi, e.max_po_status) << e.name;
  EXPECT_EQ(lines.lo, 2) << e.name;
  EXPECT_EQ(lines.hi, e.max_lines) << e.name;
  EXPECT_EQ(op_status.lo, 0) << e.name;
  EXPECT_EQ(op_status.hi, 3) << e.name;
}

INSTANTIATE_TEST_SUITE_P(
    Variants, TxInputsTest,
    // 1000 +- 5 standard deviations (26) of a binomial(3000, 1/3).
    ::testing::Values(Expected{SoeVariant::kPlsql21, "plsql21", 23, 23, 7, 9, 9, 14, 870, 1130},
                      Expected{SoeVariant::kPlsql20, "plsql20", 5, 5, 5, 9, 9, 14, 3000, 3000},
                      Expected{SoeVariant::kJdbc, "jdbc", 23, 23, 5, 9, 9, 4, 3000, 3000}),
    [](const ::testing::TestParamInfo<Expected>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace sb::soe
