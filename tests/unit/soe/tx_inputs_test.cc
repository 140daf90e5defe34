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
  int64_t max_products, max_browses, max_po_status, pending_orders, bo_lines;
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
  // 2000 draws each: the chance of missing one end of a range of 24 values is 2 (23/24)^2000,
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
  }
  EXPECT_EQ(products.lo, 1) << e.name;
  EXPECT_EQ(products.hi, e.max_products) << e.name;
  EXPECT_EQ(browses.lo, 1) << e.name;
  EXPECT_EQ(browses.hi, e.max_browses) << e.name;
  EXPECT_EQ(po_status.lo, 5) << e.name;
  EXPECT_EQ(po_status.hi, e.max_po_status) << e.name;
  // Shared by both variants.
  EXPECT_EQ(lines.lo, 2) << e.name;
  EXPECT_EQ(lines.hi, 5) << e.name;
  EXPECT_EQ(op_status.lo, 0) << e.name;
  EXPECT_EQ(op_status.hi, 3) << e.name;
}

INSTANTIATE_TEST_SUITE_P(Variants, TxInputsTest,
                         ::testing::Values(Expected{SoeVariant::kPlsql, "plsql", 5, 5, 9, 10, 14},
                                           Expected{SoeVariant::kJdbc, "jdbc", 24, 24, 10, 9, 4}),
                         [](const ::testing::TestParamInfo<Expected>& info) {
                           return std::string(info.param.name);
                         });

}  // namespace
}  // namespace sb::soe
