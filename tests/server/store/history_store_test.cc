// Tests of the store's history reads (ResultService): runs, measurements and series.
#include <gtest/gtest.h>

#include <algorithm>

#include "server/store/detail/conversions.h"
#include "tests/server/store/history_test_util.h"

namespace warpwatch::server::testing {
namespace {

using HistoryTest = HistoryStoreTest;

TEST_F(HistoryTest, ListRunsFiltersByDeviceModelJobAndLabels) {
  const int64_t a = MakeRun("GPU-a", kH100, {MakePoint("reduce", "tree", 1024, 1e-3)},
                            {{"git", "abc"}});
  const int64_t b = MakeRun("GPU-b", kA100, {MakePoint("reduce", "tree", 1024, 2e-3)},
                            {{"git", "def"}});
  ASSERT_GT(a, 0);
  ASSERT_GT(b, 0);

  RunFilter by_model;
  by_model.gpu_model = kA100;
  ASSERT_OK_AND_ASSIGN(RunPage page, store_->ListRuns(by_model));
  ASSERT_EQ(page.runs.size(), 1u);
  EXPECT_EQ(page.runs[0].id(), b);
  EXPECT_EQ(page.runs[0].environment().device().name(), kA100);
  EXPECT_EQ(page.runs[0].measurement_count(), 1);
  EXPECT_EQ(page.runs[0].state(), v1::JOB_STATE_SUCCEEDED);

  RunFilter by_label;
  by_label.labels = {{"git", "abc"}};
  ASSERT_OK_AND_ASSIGN(page, store_->ListRuns(by_label));
  ASSERT_EQ(page.runs.size(), 1u);
  EXPECT_EQ(page.runs[0].id(), a);

  RunFilter by_device;
  by_device.device_uuid = "GPU-b";
  ASSERT_OK_AND_ASSIGN(page, store_->ListRuns(by_device));
  ASSERT_EQ(page.runs.size(), 1u);
  EXPECT_EQ(page.runs[0].id(), b);

  RunFilter by_job;
  by_job.job_id = page.runs[0].job_id();
  ASSERT_OK_AND_ASSIGN(page, store_->ListRuns(by_job));
  ASSERT_EQ(page.runs.size(), 1u);
  EXPECT_EQ(page.runs[0].id(), b);

  RunFilter by_worker;
  by_worker.worker_id = workers_["GPU-a"];
  ASSERT_OK_AND_ASSIGN(page, store_->ListRuns(by_worker));
  ASSERT_EQ(page.runs.size(), 1u);
  EXPECT_EQ(page.runs[0].id(), a);

  RunFilter all;
  ASSERT_OK_AND_ASSIGN(page, store_->ListRuns(all));
  ASSERT_EQ(page.runs.size(), 2u);
  EXPECT_EQ(page.runs[0].id(), b);  // newest first
}

TEST_F(HistoryTest, ListRunsFiltersByStartTime) {
  const int64_t a = MakeRun("GPU-a", kH100, {MakePoint("reduce", "tree", 1, 1e-3)});
  ASSERT_GT(a, 0);
  RunFilter future;
  future.started.mutable_start()->set_seconds(4102444800);  // 2100
  ASSERT_OK_AND_ASSIGN(RunPage page, store_->ListRuns(future));
  EXPECT_TRUE(page.runs.empty());
  RunFilter past;
  past.started.mutable_end()->set_seconds(4102444800);
  ASSERT_OK_AND_ASSIGN(page, store_->ListRuns(past));
  EXPECT_EQ(page.runs.size(), 1u);
}

TEST_F(HistoryTest, ListRunsPagesThroughEveryRunOnce) {
  std::vector<int64_t> made;
  for (int i = 0; i < 5; ++i) made.push_back(MakeRun("GPU-a", kH100, {MakePoint("r", "v", i, 1)}));
  RunFilter filter;
  filter.page_size = 2;
  std::vector<int64_t> seen;
  for (int pages = 0; pages < 10; ++pages) {
    ASSERT_OK_AND_ASSIGN(RunPage page, store_->ListRuns(filter));
    for (const v1::Run& run : page.runs) seen.push_back(run.id());
    if (page.next_page_token.empty()) break;
    filter.page_token = page.next_page_token;
  }
  std::reverse(made.begin(), made.end());
  EXPECT_EQ(seen, made);
}

TEST_F(HistoryTest, ARunsPageTokenIsRefusedWithOtherFilters) {
  for (int i = 0; i < 3; ++i) MakeRun("GPU-a", kH100, {MakePoint("r", "v", i, 1)});
  RunFilter filter;
  filter.page_size = 1;
  ASSERT_OK_AND_ASSIGN(RunPage page, store_->ListRuns(filter));
  ASSERT_FALSE(page.next_page_token.empty());
  RunFilter other;
  other.gpu_model = kH100;
  other.page_token = page.next_page_token;
  StatusOr<RunPage> refused = store_->ListRuns(other);
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(refused.status().message().find("page_token"), std::string::npos)
      << refused.status().message();
}

TEST_F(HistoryTest, GetRunOfAnUnknownIdIsNotFound) {
  StatusOr<v1::Run> run = store_->GetRun(424242);
  EXPECT_EQ(run.status().code(), StatusCode::kNotFound);
  EXPECT_NE(run.status().message().find("424242"), std::string::npos);
}

TEST_F(HistoryTest, QueryMeasurementsMatchesGlobsParamsAndSeries) {
  const int64_t run = MakeRun("GPU-a", kH100,
                              {MakePoint("reduce", "tree", 1024, 1e-3),
                               MakePoint("reduce", "warp_shuffle", 1024, 2e-3),
                               MakePoint("reduce", "warp_shuffle", 4096, 3e-3),
                               MakePoint("memory.copy", "coalesced", 1024, 4e-3)});
  ASSERT_GT(run, 0);
  MeasurementQuery q;
  q.run_id = run;
  q.family_glob = "red*";
  q.variant_glob = "warp_?huffle";
  ASSERT_OK_AND_ASSIGN(MeasurementPage page, store_->QueryMeasurements(q));
  ASSERT_EQ(page.measurements.size(), 2u);
  EXPECT_EQ(page.measurements[0].case_().canonical(), "reduce/warp_shuffle?n=1024");
  EXPECT_EQ(page.measurements[0].run_id(), run);
  EXPECT_TRUE(page.measurements[0].samples_seconds().empty());  // not asked for

  q.params = {{"n", 4096}};
  ASSERT_OK_AND_ASSIGN(page, store_->QueryMeasurements(q));
  ASSERT_EQ(page.measurements.size(), 1u);
  EXPECT_EQ(page.measurements[0].case_().canonical(), "reduce/warp_shuffle?n=4096");

  MeasurementQuery by_series;
  by_series.series_id = std::string("memory.copy/coalesced?n=1024@") + kH100;
  by_series.include_samples = true;
  ASSERT_OK_AND_ASSIGN(page, store_->QueryMeasurements(by_series));
  ASSERT_EQ(page.measurements.size(), 1u);
  EXPECT_EQ(page.measurements[0].samples_seconds_size(), 3);
  EXPECT_DOUBLE_EQ(page.measurements[0].stats().median(), 4e-3);

  // "_" and "%" in a glob are literal, as catalog::GlobMatch has them.
  MeasurementQuery literal;
  literal.variant_glob = "warp%";
  ASSERT_OK_AND_ASSIGN(page, store_->QueryMeasurements(literal));
  EXPECT_TRUE(page.measurements.empty());
}

TEST_F(HistoryTest, QueryMeasurementsPagesAndRefusesAForeignToken) {
  std::vector<v1::Measurement> points;
  for (int i = 0; i < 5; ++i) points.push_back(MakePoint("reduce", "tree", i, 1e-3));
  const int64_t run = MakeRun("GPU-a", kH100, points);
  MeasurementQuery q;
  q.run_id = run;
  q.page_size = 2;
  int seen = 0;
  std::string token;
  for (int pages = 0; pages < 10; ++pages) {
    q.page_token = token;
    ASSERT_OK_AND_ASSIGN(MeasurementPage page, store_->QueryMeasurements(q));
    seen += static_cast<int>(page.measurements.size());
    if (page.next_page_token.empty()) break;
    token = page.next_page_token;
  }
  EXPECT_EQ(seen, 5);
  q.page_token = "";
  ASSERT_OK_AND_ASSIGN(MeasurementPage first, store_->QueryMeasurements(q));
  MeasurementQuery other = q;
  other.family_glob = "reduce";
  other.page_token = first.next_page_token;
  EXPECT_EQ(store_->QueryMeasurements(other).status().code(), StatusCode::kInvalidArgument);
}

TEST_F(HistoryTest, QueryMeasurementsReadsDocumentsStoredAsJsonBeforeMigration10) {
  const int64_t run = MakeRun("GPU-a", kH100,
                              {MakePoint("reduce", "tree", 1, 1e-3),
                               MakePoint("reduce", "tree", 2, 2e-3),
                               MakePoint("reduce", "tree", 3, 3e-3)});
  MeasurementQuery q;
  q.run_id = run;
  q.include_samples = true;
  ASSERT_OK_AND_ASSIGN(MeasurementPage binary, store_->QueryMeasurements(q));
  ASSERT_EQ(binary.measurements.size(), 3u);
  // Rows 1 and 3 as an older server stored them: JSON in doc, no doc_pb.
  {
    pqxx::connection conn(url_);
    pqxx::work tx(conn);
    for (int i : {0, 2}) {
      v1::Measurement doc = binary.measurements[i];  // as stored: no sample arrays
      doc.clear_samples_seconds();
      doc.clear_sample_sm_clock_mhz();
      doc.clear_sample_throttled();
      doc.clear_sample_kernel_seconds();
      doc.clear_sample_group();
      ASSERT_OK_AND_ASSIGN(std::string json, detail::MessageToJson(doc));
      tx.exec_params(
          "UPDATE measurement SET doc = $1::jsonb, doc_pb = NULL"
          " WHERE run_id = $2 AND case_canonical = $3",
          json, run, binary.measurements[i].case_().canonical());
    }
    tx.commit();
  }
  ASSERT_OK_AND_ASSIGN(MeasurementPage mixed, store_->QueryMeasurements(q));
  ASSERT_EQ(mixed.measurements.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(mixed.measurements[i].SerializeAsString(),
              binary.measurements[i].SerializeAsString())
        << "row " << i;
  }
  EXPECT_EQ(mixed.measurements[1].samples_seconds_size(), 3);
}

TEST_F(HistoryTest, QueryMeasurementsOfAnUnknownRunIsNotFound) {
  MeasurementQuery q;
  q.run_id = 999;
  StatusOr<MeasurementPage> page = store_->QueryMeasurements(q);
  EXPECT_EQ(page.status().code(), StatusCode::kNotFound);
  EXPECT_NE(page.status().message().find("run 999"), std::string::npos);
}

TEST_F(HistoryTest, GetSeriesReturnsTheModelsPointsOldestFirstWithCycles) {
  const int64_t r1 = MakeRun("GPU-a", kH100, {MakePoint("reduce", "tree", 1024, 1.0e-3, 1980)});
  const int64_t r2 = MakeRun("GPU-b", kH100, {MakePoint("reduce", "tree", 1024, 1.1e-3, 1800)});
  MakeRun("GPU-c", kA100, {MakePoint("reduce", "tree", 1024, 9e-3)});  // another model
  SeriesQuery q;
  q.case_canonical = "reduce/tree?n=1024";
  q.gpu_model = kH100;
  ASSERT_OK_AND_ASSIGN(v1::Series series, store_->GetSeries(q));
  EXPECT_EQ(series.series_id(), std::string("reduce/tree?n=1024@") + kH100);
  ASSERT_EQ(series.points_size(), 2);
  EXPECT_EQ(series.points(0).run_id(), r1);
  EXPECT_EQ(series.points(1).run_id(), r2);
  EXPECT_EQ(series.points(1).device_uuid(), "GPU-b");
  EXPECT_DOUBLE_EQ(series.points(1).median_seconds(), 1.1e-3);
  EXPECT_DOUBLE_EQ(series.points(1).median_cycles(), 1.1e-3 * 1800e6);
  EXPECT_DOUBLE_EQ(series.points(1).p90_seconds(), 1.1e-3 * 1.01);
  EXPECT_DOUBLE_EQ(series.points(1).achieved_occupancy(), 0.61);
  EXPECT_TRUE(series.points(1).verified());

  q.limit = 1;  // the latest point only
  ASSERT_OK_AND_ASSIGN(series, store_->GetSeries(q));
  ASSERT_EQ(series.points_size(), 1);
  EXPECT_EQ(series.points(0).run_id(), r2);
}

TEST_F(HistoryTest, GetSeriesOfOneDeviceTakesItsModelAndItsOwnChangePoints) {
  const int64_t r1 = MakeRun("GPU-a", kH100, {MakePoint("reduce", "tree", 1024, 1.0e-3)});
  MakeRun("GPU-b", kH100, {MakePoint("reduce", "tree", 1024, 1.0e-3)});
  const int64_t r3 = MakeRun("GPU-a", kH100, {MakePoint("reduce", "tree", 1024, 1.2e-3)});
  const std::string series_id = std::string("reduce/tree?n=1024@") + kH100;
  InsertChangePoint(series_id, "GPU-a", r3, 1.0e-3, 1.2e-3);
  InsertChangePoint(series_id, "", r3, 1.0e-3, 1.1e-3);
  const int64_t on_a = InsertRegression(r3, "reduce/tree?n=1024", "reduce", kH100, "OPEN",
                                        "OUTLIER", "GPU-a");
  InsertRegression(r1, "reduce/tree?n=1024", "reduce", kH100, "OPEN", "OUTLIER", "GPU-b");

  SeriesQuery q;
  q.case_canonical = "reduce/tree?n=1024";
  q.device_uuid = "GPU-a";
  ASSERT_OK_AND_ASSIGN(v1::Series series, store_->GetSeries(q));
  EXPECT_EQ(series.gpu_model(), kH100);
  ASSERT_EQ(series.points_size(), 2);
  EXPECT_EQ(series.points(0).run_id(), r1);
  EXPECT_EQ(series.points(1).run_id(), r3);
  ASSERT_EQ(series.change_points_size(), 1);
  EXPECT_EQ(series.change_points(0).device_uuid(), "GPU-a");
  EXPECT_EQ(series.change_points(0).run_id(), r3);
  EXPECT_DOUBLE_EQ(series.change_points(0).median_after(), 1.2e-3);
  ASSERT_EQ(series.regressions_size(), 1);
  EXPECT_EQ(series.regressions(0).id(), on_a);

  q.device_uuid = "";
  q.gpu_model = kH100;
  ASSERT_OK_AND_ASSIGN(series, store_->GetSeries(q));
  EXPECT_EQ(series.points_size(), 3);
  ASSERT_EQ(series.change_points_size(), 1);
  EXPECT_EQ(series.change_points(0).device_uuid(), "");  // the model-wide one
  EXPECT_EQ(series.regressions_size(), 2);
}

TEST_F(HistoryTest, GetSeriesKeepsItsRangeAndTakesAnyTextOnItsPlannedOnceRead) {
  // The point read is one prepared statement per connection run with its generic plan
  // (pg_store_series.cc): the range still filters on the same pooled connection call after call,
  // and quotes in a key are text, not SQL.
  MakeRun("GPU-a", kH100, {MakePoint("reduce", "tree", 1024, 1.0e-3)});
  MakeRun("GPU-a", kH100, {MakePoint("reduce", "tree", 1024, 1.1e-3)});
  SeriesQuery q;
  q.case_canonical = "reduce/tree?n=1024";
  q.device_uuid = "GPU-a";
  for (int call = 0; call < 7; ++call) {  // past PostgreSQL's five custom plans, both forms
    q.range = v1::TimeRange();
    ASSERT_OK_AND_ASSIGN(v1::Series all, store_->GetSeries(q));
    EXPECT_EQ(all.points_size(), 2);
    q.range.mutable_end()->set_seconds(1);  // 1970: before every run
    ASSERT_OK_AND_ASSIGN(v1::Series none, store_->GetSeries(q));
    EXPECT_EQ(none.points_size(), 0);
    q.range.mutable_start()->set_seconds(4102444800);  // 2100: after every run
    q.range.clear_end();
    ASSERT_OK_AND_ASSIGN(none, store_->GetSeries(q));
    EXPECT_EQ(none.points_size(), 0);
  }
  q.range = v1::TimeRange();
  q.case_canonical = "reduce/tree?n=1024'); DROP TABLE run; --\\'";
  ASSERT_OK_AND_ASSIGN(v1::Series hostile, store_->GetSeries(q));
  EXPECT_EQ(hostile.points_size(), 0);
  q.device_uuid = "";
  q.gpu_model = std::string(kH100) + "'\\";
  ASSERT_OK_AND_ASSIGN(hostile, store_->GetSeries(q));
  EXPECT_EQ(hostile.points_size(), 0);
  q.case_canonical = "reduce/tree?n=1024";
  q.gpu_model = kH100;
  ASSERT_OK_AND_ASSIGN(v1::Series after, store_->GetSeries(q));
  EXPECT_EQ(after.points_size(), 2);  // the run table is still there
}

TEST_F(HistoryTest, GetSeriesRefusesADeviceOfAnotherModelAndAnUnknownDevice) {
  MakeRun("GPU-a", kH100, {MakePoint("reduce", "tree", 1024, 1.0e-3)});
  SeriesQuery q;
  q.case_canonical = "reduce/tree?n=1024";
  q.device_uuid = "GPU-a";
  q.gpu_model = kA100;
  StatusOr<v1::Series> series = store_->GetSeries(q);
  EXPECT_EQ(series.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(series.status().message().find("GPU-a"), std::string::npos);
  q.gpu_model = "";
  q.device_uuid = "GPU-nope";
  EXPECT_EQ(store_->GetSeries(q).status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace warpwatch::server::testing
