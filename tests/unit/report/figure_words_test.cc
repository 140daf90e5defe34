// The figures table's units and meanings: DVD Store 3's Final-line names, and names by form.
#include "report/html/figure_words.h"

#include <gtest/gtest.h>

namespace sb::report::html {
namespace {

TEST(FigureWordsTest, KnownNamesHaveUnitAndMeaning) {
  EXPECT_EQ(DescribeFigure("et").unit, "s");
  EXPECT_EQ(DescribeFigure("rt_tot_avg").unit, "ms");
  EXPECT_EQ(DescribeFigure("rollback_rate").unit, "%");
  EXPECT_EQ(DescribeFigure("opm").unit, "orders per minute");
  for (const char* name : {"et", "opm", "rt_tot_lastn_max", "n_rollbacks_overall", "tpm_server"}) {
    EXPECT_FALSE(DescribeFigure(name).meaning.empty()) << name;
  }
}

TEST(FigureWordsTest, NamesByTheirForm) {
  const FigureWords n = DescribeFigure("n_purchase_overall");
  EXPECT_EQ(n.unit, "count");
  EXPECT_EQ(n.meaning, "purchase completed");
  const FigureWords rt = DescribeFigure("rt_purchase_avg_msec");
  EXPECT_EQ(rt.unit, "ms");
  EXPECT_EQ(rt.meaning, "mean response time of purchase");
  EXPECT_EQ(DescribeFigure("rt_transaction_p90_msec").unit, "ms");
  EXPECT_EQ(DescribeFigure("pool_wait_ms").unit, "ms");
  EXPECT_EQ(DescribeFigure("remote_payment_pct").unit, "%");
  EXPECT_EQ(DescribeFigure("ops_per_sec").unit, "per second");
  EXPECT_EQ(DescribeFigure("nopm_dnext").unit, "per minute");
  EXPECT_EQ(DescribeFigure("something_else").unit, "");
}

TEST(FigureWordsTest, HeadlineUnitFromItsFactor) {
  EXPECT_EQ(HeadlineUnit("opm", 60), "per minute");
  EXPECT_EQ(HeadlineUnit("tps", 1), "per second");
  EXPECT_EQ(HeadlineUnit("wall_sec", 1), "s");
  EXPECT_EQ(HeadlineUnit("mib_per_sec", 1), "MiB per second");
}

}  // namespace
}  // namespace sb::report::html
