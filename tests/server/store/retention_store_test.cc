// Retention of raw samples (Store::DropOldSamples, server/store/pg_store_sample_window.cc) on a
// real PostgreSQL: old runs lose their sample arrays and keep their summaries; recent runs and runs
// an unresolved regression names keep everything; batches are bounded.
#include <gtest/gtest.h>

#include <chrono>

#include "tests/server/analysis/analysis_test_util.h"

namespace warpwatch::server::testing {
namespace {

using std::chrono::hours;

class RetentionStoreTest : public AnalysisTest {
 protected:
  void Age(int64_t run, int days) {
    Sql("UPDATE run SET finished_at = now() - make_interval(days => $2) WHERE id = $1", run, days);
  }
  int Samples(int64_t run) {
    return Sql("SELECT coalesce(sum(cardinality(samples_seconds) + cardinality(sample_sm_clock_mhz)"
               " + cardinality(sample_throttled)), 0) FROM measurement WHERE run_id = $1",
               run)
        .at(0)
        .at(0)
        .as<int>();
  }
  double Median(int64_t run) {
    return Sql("SELECT median_seconds FROM measurement WHERE run_id = $1", run)
        .at(0)
        .at(0)
        .as<double>();
  }
};

TEST_F(RetentionStoreTest, OldRunsLoseTheirSamplesAndKeepTheirSummaries) {
  Point p;
  p.median = 2e-4;
  const int64_t old_run = AddRun({p});
  const int64_t recent = AddRun({p});
  Age(old_run, 91);
  Age(recent, 89);
  ASSERT_GT(Samples(old_run), 0);
  ASSERT_OK_AND_ASSIGN(int dropped, store_->DropOldSamples(hours(24 * 90), 100));
  EXPECT_EQ(dropped, 1);
  EXPECT_EQ(Samples(old_run), 0);
  EXPECT_DOUBLE_EQ(Median(old_run), 2e-4);  // the summary stays
  EXPECT_GT(Samples(recent), 0);
  ASSERT_OK_AND_ASSIGN(int again, store_->DropOldSamples(hours(24 * 90), 100));
  EXPECT_EQ(again, 0);  // nothing twice
}

TEST_F(RetentionStoreTest, RunsAnUnresolvedRegressionNamesKeepTheirSamples) {
  std::vector<int64_t> baseline;
  for (int i = 0; i < 10; ++i) {
    Point p;
    p.median = 1e-4 * (1 + 0.001 * (i % 3));
    baseline.push_back(AddRun({p}));
  }
  ASSERT_EQ(AnalyzeAll(), 10);
  Point slow;
  slow.median = 1.06e-4;
  const int64_t suspect = AddRun({slow});
  ASSERT_EQ(AnalyzeAll(), 1);
  ASSERT_EQ(Sql("SELECT count(*) FROM regression WHERE run_id = $1", suspect).at(0).at(0).as<int>(),
            1);
  for (int64_t run : baseline) Age(run, 100);
  Age(suspect, 100);
  ASSERT_OK_AND_ASSIGN(int dropped, store_->DropOldSamples(hours(24 * 90), 100));
  EXPECT_EQ(dropped, 0);  // the suspect's run and every baseline run it names
  Sql("UPDATE regression SET state = 'DISMISSED' WHERE run_id = $1", suspect);
  ASSERT_OK_AND_ASSIGN(int after, store_->DropOldSamples(hours(24 * 90), 100));
  EXPECT_EQ(after, 11);
}

TEST_F(RetentionStoreTest, ABatchEmptiesAtMostItsSize) {
  Point a, b, c;
  b.variant = "scattered";
  c.variant = "strided";
  c.params["stride"] = 2;
  const int64_t run = AddRun({a, b, c});
  Age(run, 365);
  ASSERT_OK_AND_ASSIGN(int first, store_->DropOldSamples(hours(24 * 90), 2));
  EXPECT_EQ(first, 2);
  ASSERT_OK_AND_ASSIGN(int second, store_->DropOldSamples(hours(24 * 90), 2));
  EXPECT_EQ(second, 1);
  EXPECT_EQ(Samples(run), 0);
}

}  // namespace
}  // namespace warpwatch::server::testing
