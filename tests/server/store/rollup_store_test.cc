// Summary retention (Store::DownsampleSummaries, server/store/pg_store_rollups.cc) on a real
// PostgreSQL: old summaries fold into week rollups and are deleted, recent ones stay, pinned and
// regression-named runs keep theirs, a second pass changes nothing, GetSeries shows both kinds of
// point, and raw-sample retention still keeps summaries.
#include <gtest/gtest.h>

#include <chrono>

#include "server/store/detail/conversions.h"
#include "tests/server/analysis/analysis_test_util.h"

namespace warpwatch::server::testing {
namespace {

// Store tests act as an admin would: every pin may be removed.
const Store::PinGuard kAnyPin = [](const v1::BaselinePin&) { return OkStatus(); };

using std::chrono::hours;
const hours kYear(24 * 365);

class RollupStoreTest : public AnalysisTest {
 protected:
  // A run of one point at `median` that started at `at` (UTC text) and finished an hour later.
  int64_t RunAt(const std::string& at, double median, const RunOptions& options = {}) {
    Point p;
    p.median = median;
    const int64_t run = AddRun({p}, options);
    Sql("UPDATE run SET started_at = $2::timestamptz,"
        " finished_at = $2::timestamptz + interval '1 hour' WHERE id = $1",
        run, at);
    return run;
  }
  int Measurements(int64_t run) {
    return Sql("SELECT count(*) FROM measurement WHERE run_id = $1", run).at(0).at(0).as<int>();
  }
  pqxx::result Rollups() {
    return Sql(
        "SELECT week::text, cardinality(run_medians), median_seconds, p10_seconds, p90_seconds,"
        " min_seconds, max_seconds, mean_sm_clock_mhz, failed_points, device_uuid"
        " FROM measurement_rollup ORDER BY week, device_uuid");
  }
  // Three runs in the ISO week of Monday 2025-01-06, one in the next; one recent.
  void AddOldWeeks() {
    RunAt("2025-01-06 02:00+00", 1.0e-4);
    RunAt("2025-01-07 02:00+00", 1.2e-4);
    RunAt("2025-01-08 02:00+00", 1.1e-4);
    RunAt("2025-01-13 02:00+00", 2.0e-4);
  }
};

TEST_F(RollupStoreTest, OldSummariesFoldIntoWeeksAndRecentOnesStay) {
  AddOldWeeks();
  Point p;
  const int64_t recent = AddRun({p});
  ASSERT_OK_AND_ASSIGN(int folded, store_->DownsampleSummaries(kYear, 100));
  EXPECT_EQ(folded, 4);
  EXPECT_EQ(Measurements(recent), 1);
  EXPECT_EQ(Sql("SELECT count(*) FROM measurement").at(0).at(0).as<int>(), 1);
  pqxx::result r = Rollups();
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0][0].as<std::string>(), "2025-01-06");
  EXPECT_EQ(r[0][1].as<int>(), 3);
  EXPECT_DOUBLE_EQ(r[0][2].as<double>(), 1.1e-4);     // median of run medians
  EXPECT_NEAR(r[0][3].as<double>(), 1.02e-4, 1e-12);  // p10 (interpolated)
  EXPECT_NEAR(r[0][4].as<double>(), 1.18e-4, 1e-12);  // p90
  EXPECT_DOUBLE_EQ(r[0][5].as<double>(), 1.0e-4);
  EXPECT_DOUBLE_EQ(r[0][6].as<double>(), 1.2e-4);
  EXPECT_DOUBLE_EQ(r[0][7].as<double>(), 1980);
  EXPECT_EQ(r[0][9].as<std::string>(), kDeviceA);
  EXPECT_EQ(r[1][0].as<std::string>(), "2025-01-13");
  EXPECT_EQ(r[1][1].as<int>(), 1);
}

TEST_F(RollupStoreTest, ASecondPassChangesNothing) {
  AddOldWeeks();
  ASSERT_OK_AND_ASSIGN(int folded, store_->DownsampleSummaries(kYear, 100));
  ASSERT_EQ(folded, 4);
  const std::string before = Sql("SELECT json_agg(u ORDER BY id)::text FROM measurement_rollup u")
                                 .at(0)
                                 .at(0)
                                 .as<std::string>();
  ASSERT_OK_AND_ASSIGN(int again, store_->DownsampleSummaries(kYear, 100));
  EXPECT_EQ(again, 0);
  EXPECT_EQ(Sql("SELECT json_agg(u ORDER BY id)::text FROM measurement_rollup u")
                .at(0)
                .at(0)
                .as<std::string>(),
            before);
}

TEST_F(RollupStoreTest, BatchesOfOneMergeIntoTheSameWeekExactly) {
  AddOldWeeks();
  int total = 0;
  for (int i = 0; i < 10; ++i) {
    ASSERT_OK_AND_ASSIGN(int n, store_->DownsampleSummaries(kYear, 1));
    EXPECT_LE(n, 1);
    total += n;
  }
  EXPECT_EQ(total, 4);
  pqxx::result r = Rollups();
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0][1].as<int>(), 3);
  EXPECT_DOUBLE_EQ(r[0][2].as<double>(), 1.1e-4);
  EXPECT_NEAR(r[0][3].as<double>(), 1.02e-4, 1e-12);
  EXPECT_DOUBLE_EQ(r[0][6].as<double>(), 1.2e-4);
}

TEST_F(RollupStoreTest, FailedPointsAreCountedNotFolded) {
  Point failed;
  failed.ok = false;
  const int64_t run = AddRun({failed});
  Sql("UPDATE run SET started_at = '2025-01-06 02:00+00', finished_at = '2025-01-06 03:00+00'"
      " WHERE id = $1",
      run);
  RunAt("2025-01-07 02:00+00", 1.0e-4);
  ASSERT_OK_AND_ASSIGN(int folded, store_->DownsampleSummaries(kYear, 100));
  EXPECT_EQ(folded, 2);
  pqxx::result r = Rollups();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0][1].as<int>(), 1);
  EXPECT_EQ(r[0][8].as<int>(), 1);
  EXPECT_DOUBLE_EQ(r[0][2].as<double>(), 1.0e-4);
}

TEST_F(RollupStoreTest, PinnedAndRegressionNamedRunsKeepTheirSummaries) {
  const int64_t pinned = RunAt("2025-01-06 02:00+00", 1.0e-4);
  const int64_t named = RunAt("2025-01-07 02:00+00", 1.1e-4);
  const int64_t plain = RunAt("2025-01-08 02:00+00", 1.2e-4);
  BaselinePinRequest pin;
  pin.run_ids = {pinned};
  pin.pinned_by = "ci";
  ASSERT_OK_AND_ASSIGN(v1::BaselinePin stored, store_->PinBaseline(pin, 0.05));
  Point p;
  Sql("INSERT INTO regression (series_id, case_canonical, family, variant, gpu_model, run_id,"
      " baseline_median_seconds, new_median_seconds, change, method, state)"
      " VALUES ($1, $2, 'memory.coalescing', 'copy', $3, $4, 1e-4, 1.1e-4, 0.1, 'robust_z',"
      " 'OPEN')",
      SeriesOf(p), Canonical(p), std::string(kModel), named);
  ASSERT_OK_AND_ASSIGN(int folded, store_->DownsampleSummaries(kYear, 100));
  EXPECT_EQ(folded, 1);
  EXPECT_EQ(Measurements(pinned), 1);
  EXPECT_EQ(Measurements(named), 1);
  EXPECT_EQ(Measurements(plain), 0);
  // Once unpinned and triaged, they fold into the same week as the first.
  ASSERT_TRUE(store_->UnpinBaseline(stored.id(), kAnyPin).ok());
  Sql("UPDATE regression SET state = 'FIXED' WHERE run_id = $1", named);
  ASSERT_OK_AND_ASSIGN(int later, store_->DownsampleSummaries(kYear, 100));
  EXPECT_EQ(later, 2);
  pqxx::result r = Rollups();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0][1].as<int>(), 3);
  EXPECT_DOUBLE_EQ(r[0][2].as<double>(), 1.1e-4);
  EXPECT_DOUBLE_EQ(r[0][5].as<double>(), 1.0e-4);
}

TEST_F(RollupStoreTest, GetSeriesOverTheBoundaryReturnsBothKindsOfPoint) {
  AddOldWeeks();
  Point p;
  const int64_t recent = AddRun({p});
  ASSERT_OK_AND_ASSIGN(int folded, store_->DownsampleSummaries(kYear, 100));
  ASSERT_EQ(folded, 4);
  SeriesQuery query;
  query.case_canonical = Canonical(p);
  query.gpu_model = kModel;
  ASSERT_OK_AND_ASSIGN(v1::Series series, store_->GetSeries(query));
  ASSERT_EQ(series.points_size(), 3);
  EXPECT_TRUE(series.points(0).downsampled());
  EXPECT_EQ(series.points(0).run_id(), 0);
  EXPECT_EQ(series.points(0).runs(), 3);
  EXPECT_DOUBLE_EQ(series.points(0).median_seconds(), 1.1e-4);
  EXPECT_DOUBLE_EQ(series.points(0).min_seconds(), 1.0e-4);
  EXPECT_DOUBLE_EQ(series.points(0).max_seconds(), 1.2e-4);
  EXPECT_EQ(series.points(0).device_uuid(), kDeviceA);
  EXPECT_LT(detail::MicrosFromTimestamp(series.points(0).at()),
            detail::MicrosFromTimestamp(series.points(0).period_end()));
  EXPECT_TRUE(series.points(1).downsampled());
  EXPECT_EQ(series.points(1).runs(), 1);
  EXPECT_FALSE(series.points(2).downsampled());
  EXPECT_EQ(series.points(2).run_id(), recent);
  // The latest `limit` points: the newest week and the fine point.
  query.limit = 2;
  ASSERT_OK_AND_ASSIGN(series, store_->GetSeries(query));
  ASSERT_EQ(series.points_size(), 2);
  EXPECT_EQ(series.points(0).runs(), 1);
  EXPECT_EQ(series.points(1).run_id(), recent);
  // One device's series shows its own weeks only.
  query.limit = 400;
  query.gpu_model = "";
  query.device_uuid = kDeviceB;
  AddRun({p}, OnDevice(kDeviceB));
  ASSERT_OK_AND_ASSIGN(series, store_->GetSeries(query));
  ASSERT_EQ(series.points_size(), 1);
  EXPECT_FALSE(series.points(0).downsampled());
}

TEST_F(RollupStoreTest, RawSampleRetentionStillKeepsSummaries) {
  Point p;
  const int64_t run = AddRun({p});
  Sql("UPDATE run SET finished_at = now() - interval '100 days' WHERE id = $1", run);
  ASSERT_OK_AND_ASSIGN(int dropped, store_->DropOldSamples(hours(24 * 90), 100));
  EXPECT_EQ(dropped, 1);
  ASSERT_OK_AND_ASSIGN(int folded, store_->DownsampleSummaries(kYear, 100));
  EXPECT_EQ(folded, 0);
  EXPECT_EQ(Measurements(run), 1);
  EXPECT_DOUBLE_EQ(
      Sql("SELECT median_seconds FROM measurement WHERE run_id = $1", run).at(0).at(0).as<double>(),
      p.median);
}

TEST_F(RollupStoreTest, RawSampleRetentionKeepsThePinnedRunsSamples) {
  Point p;
  const int64_t run = AddRun({p});
  Sql("UPDATE run SET finished_at = now() - interval '100 days' WHERE id = $1", run);
  BaselinePinRequest pin;
  pin.run_ids = {run};
  pin.pinned_by = "ci";
  ASSERT_TRUE(store_->PinBaseline(pin, 0.05).ok());
  ASSERT_OK_AND_ASSIGN(int dropped, store_->DropOldSamples(hours(24 * 90), 100));
  EXPECT_EQ(dropped, 0);
}

}  // namespace
}  // namespace warpwatch::server::testing
