#include <gtest/gtest.h>

#include "report/console/load_progress.h"

namespace sb::report {
namespace {

metrics::LoadSample Sample() {
  metrics::LoadSample s;
  s.elapsed_sec = 4;
  s.tables = {{"customers", 20'000, false, 20'000, 2'000'000},
              {"orders", 12'000, false, 6'000, 300'000},
              {"orderlines", 60'000, true, 61'000, 1'500'000},
              {"reorder", 0, false, 0, 0}};
  s.rows_per_sec = 250'000;
  s.bytes_per_sec = 12'345'678;
  s.eta_sec = 75;
  return s;
}

TEST(LoadProgressTest, LineHasRowsRateEtaAndEveryTable) {
  EXPECT_EQ(FormatLoadProgress(Sample()),
            "load: 87,000 rows of ~92,000 (94.6 %), 12.3 MB/s, 250,000 rows/s, ETA 1:15 | "
            "customers 100 %, orders 50 %, orderlines ~99 %, reorder 0");
}

TEST(LoadProgressTest, DoneLineHasAverageRates) {
  metrics::LoadSample s = Sample();
  s.data_done = true;
  EXPECT_EQ(FormatLoadProgress(s), "load: data in, 87,000 rows in 4.0 s (21,750 rows/s, 0.9 MB/s)");
}

TEST(LoadProgressTest, EtaFormats) {
  EXPECT_EQ(FormatEta(-1), "?");
  EXPECT_EQ(FormatEta(0), "0:00");
  EXPECT_EQ(FormatEta(7.4), "0:07");
  EXPECT_EQ(FormatEta(754), "12:34");
  EXPECT_EQ(FormatEta(3723), "1:02:03");
}

TEST(LoadProgressTest, IndexLineNamesRunningStepsElapsedAndEta) {
  using State = metrics::IndexStepProgress::State;
  metrics::LoadSample s = Sample();
  s.data_done = true;
  s.index_phase = true;
  s.index_elapsed_sec = 42;
  s.eta_sec = -1;
  s.index_steps = {{"reviews: ix_reviews_prod_id, ix_reviews_stars", 200, State::kRunning, 12},
                   {"orders: ix_order_custid", 12, State::kDone, 0},
                   {"orderlines: ix_orderlines_orderid", 60, State::kRunning, 5},
                   {"triggers and the rest", 1, State::kPending, 0}};
  EXPECT_EQ(FormatLoadProgress(s),
            "indexes: 1 of 4 steps done, 0:42 elapsed, ETA ? | building reviews: "
            "ix_reviews_prod_id, ix_reviews_stars (0:12), orderlines: ix_orderlines_orderid "
            "(0:05)");
  for (auto& st : s.index_steps) st.state = State::kDone;
  s.eta_sec = 0;
  EXPECT_EQ(FormatLoadProgress(s), "indexes: 4 of 4 steps done, 0:42 elapsed, ETA ~0:00");
}

}  // namespace
}  // namespace sb::report
