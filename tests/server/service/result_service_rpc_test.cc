// ResultService queries over real channels: runs, measurements, series and run comparison, with
// the status codes and messages bad requests get.
#include <gtest/gtest.h>

#include "tests/server/service/result_rpc_test_util.h"

namespace warpwatch::testing {
namespace {

using ResultServiceRpcTest = ResultRpcTest;

TEST_F(ResultServiceRpcTest, ListRunsPagesWithTokensBoundToTheirFilters) {
  const int64_t a = MakeRun({ResultPoint("tree", 1e-3)});
  const int64_t b = MakeRun({ResultPoint("tree", 1e-3)});
  v1::ListRunsRequest request;
  request.set_page_size(1);
  v1::ListRunsResponse first;
  grpc::Status s = Results()->ListRuns(Context(kReaderToken).get(), request, &first);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(first.runs_size(), 1);
  EXPECT_EQ(first.runs(0).id(), b);
  EXPECT_EQ(first.runs(0).environment().device().name(), kModel);
  EXPECT_EQ(first.runs(0).measurement_count(), 1);
  ASSERT_FALSE(first.next_page_token().empty());

  request.set_page_token(first.next_page_token());
  v1::ListRunsResponse second;
  s = Results()->ListRuns(Context(kReaderToken).get(), request, &second);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(second.runs_size(), 1);
  EXPECT_EQ(second.runs(0).id(), a);
  EXPECT_TRUE(second.next_page_token().empty());

  request.set_gpu_model(kModel);  // another query: the token is refused
  v1::ListRunsResponse refused;
  s = Results()->ListRuns(Context(kReaderToken).get(), request, &refused);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("page_token"), std::string::npos) << s.error_message();
}

TEST_F(ResultServiceRpcTest, PageSizesFollowTheOnePolicy) {
  MakeRun({ResultPoint("tree", 1e-3)});
  MakeRun({ResultPoint("tree", 1e-3)});
  v1::ListRunsRequest request;
  v1::ListRunsResponse out;
  request.set_page_size(0);  // the default
  ASSERT_TRUE(Results()->ListRuns(Context(kReaderToken).get(), request, &out).ok());
  EXPECT_EQ(out.runs_size(), 2);
  request.set_page_size(2000000000);  // clamped to the maximum, not refused
  out.Clear();
  ASSERT_TRUE(Results()->ListRuns(Context(kReaderToken).get(), request, &out).ok());
  EXPECT_EQ(out.runs_size(), 2);
  request.set_page_size(-1);
  grpc::Status s = Results()->ListRuns(Context(kReaderToken).get(), request, &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("page_size"), std::string::npos) << s.error_message();

  v1::ListRegressionsRequest regressions;
  regressions.set_page_size(-5);
  v1::ListRegressionsResponse listed;
  s = Results()->ListRegressions(Context(kReaderToken).get(), regressions, &listed);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("page_size"), std::string::npos) << s.error_message();
}

TEST_F(ResultServiceRpcTest, QueryMeasurementsFiltersAndSendsSamplesOnlyWhenAsked) {
  const int64_t run = MakeRun({ResultPoint("tree", 1e-3), ResultPoint("warp_shuffle", 2e-3)});
  v1::QueryMeasurementsRequest request;
  request.set_run_id(run);
  request.set_variant("warp_*");
  v1::QueryMeasurementsResponse out;
  grpc::Status s = Results()->QueryMeasurements(Context(kReaderToken).get(), request, &out);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(out.measurements_size(), 1);
  EXPECT_EQ(out.measurements(0).case_().canonical(), "reduce/warp_shuffle?n=1024");
  EXPECT_EQ(out.measurements(0).samples_seconds_size(), 0);

  request.set_include_samples(true);
  (*request.mutable_params())["n"] = 1024;
  out.Clear();
  s = Results()->QueryMeasurements(Context(kReaderToken).get(), request, &out);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(out.measurements_size(), 1);
  EXPECT_EQ(out.measurements(0).samples_seconds_size(), 5);

  (*request.mutable_params())["n"] = 4096;
  out.Clear();
  ASSERT_TRUE(Results()->QueryMeasurements(Context(kReaderToken).get(), request, &out).ok());
  EXPECT_EQ(out.measurements_size(), 0);
}

TEST_F(ResultServiceRpcTest, AnUnknownRunIsNotFound) {
  v1::QueryMeasurementsRequest query;
  query.set_run_id(987654);
  v1::QueryMeasurementsResponse out;
  grpc::Status s = Results()->QueryMeasurements(Context(kReaderToken).get(), query, &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_NE(s.error_message().find("run 987654"), std::string::npos) << s.error_message();

  const int64_t run = MakeRun({ResultPoint("tree", 1e-3)});
  v1::CompareRunsRequest compare;
  compare.set_base_run_id(run);
  compare.set_new_run_id(987654);
  v1::CompareRunsResponse compared;
  s = Results()->CompareRuns(Context(kReaderToken).get(), compare, &compared);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_NE(s.error_message().find("run 987654"), std::string::npos) << s.error_message();
}

TEST_F(ResultServiceRpcTest, GetSeriesRefusesAMalformedCaseKeyNamingIt) {
  for (const char* key : {"reduce", "reduce/tree?n=x", "reduce/tree?b=1&a=2", "/tree"}) {
    v1::GetSeriesRequest request;
    request.set_case_canonical(key);
    request.set_gpu_model(kModel);
    v1::Series out;
    grpc::Status s = Results()->GetSeries(Context(kReaderToken).get(), request, &out);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << key;
    EXPECT_NE(s.error_message().find("case_canonical"), std::string::npos) << s.error_message();
  }
  v1::GetSeriesRequest no_model;
  no_model.set_case_canonical("reduce/tree?n=1024");
  v1::Series out;
  grpc::Status s = Results()->GetSeries(Context(kReaderToken).get(), no_model, &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("gpu_model or device_uuid"), std::string::npos);
}

TEST_F(ResultServiceRpcTest, GetSeriesReturnsTheCaseOverTimeWithItsRegressions) {
  const int64_t r1 = MakeRun({ResultPoint("tree", 1.00e-3, 1980)});
  const int64_t r2 = MakeRun({ResultPoint("tree", 1.10e-3, 1980)});
  const int64_t regression = InsertRegression(r2, "OPEN");
  for (const bool by_device : {false, true}) {
    v1::GetSeriesRequest request;
    request.set_case_canonical("reduce/tree?n=1024");
    if (by_device) {
      request.set_device_uuid("GPU-1");
    } else {
      request.set_gpu_model(kModel);
    }
    v1::Series series;
    grpc::Status s = Results()->GetSeries(Context(kReaderToken).get(), request, &series);
    ASSERT_TRUE(s.ok()) << s.error_message();
    EXPECT_EQ(series.series_id(), std::string("reduce/tree?n=1024@") + kModel);
    ASSERT_EQ(series.points_size(), 2);
    EXPECT_EQ(series.points(0).run_id(), r1);
    EXPECT_EQ(series.points(1).run_id(), r2);
    EXPECT_DOUBLE_EQ(series.points(1).median_cycles(), 1.10e-3 * 1980e6);
    EXPECT_DOUBLE_EQ(series.points(1).theoretical_occupancy(), 0.5);
    if (!by_device) {
      ASSERT_EQ(series.regressions_size(), 1);
      EXPECT_EQ(series.regressions(0).id(), regression);
    }
  }
}

TEST_F(ResultServiceRpcTest, CompareRunsJudgesEverySharedCaseAndListsTheRest) {
  const int64_t base = MakeRun({ResultPoint("tree", 1.00e-3, 1980),
                                ResultPoint("warp_shuffle", 2.00e-3, 1980),
                                ResultPoint("two_pass", 3.00e-3, 1980)});
  const int64_t next = MakeRun({ResultPoint("tree", 1.20e-3, 1980),
                                ResultPoint("warp_shuffle", 2.00e-3, 1980),
                                ResultPoint("atomic", 4.00e-3, 1980)});
  v1::CompareRunsRequest request;
  request.set_base_run_id(base);
  request.set_new_run_id(next);
  v1::CompareRunsResponse out;
  grpc::Status s = Results()->CompareRuns(Context(kReaderToken).get(), request, &out);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(out.cases_size(), 2);
  const v1::CaseComparison& tree = out.cases(0);
  EXPECT_EQ(tree.case_().canonical(), "reduce/tree?n=1024");
  EXPECT_NEAR(tree.change(), 0.2, 1e-9);
  EXPECT_EQ(tree.verdict(), v1::COMPARISON_VERDICT_SLOWER);
  EXPECT_EQ(tree.blame(), v1::BLAME_CODE);
  EXPECT_TRUE(tree.has_p_value());
  EXPECT_LT(tree.p_value(), 0.05);
  EXPECT_NEAR(tree.cycles_change(), 0.2, 1e-9);
  EXPECT_DOUBLE_EQ(tree.base_sm_clock_mhz(), 1980);
  EXPECT_DOUBLE_EQ(tree.new_theoretical_occupancy(), 0.5);
  EXPECT_DOUBLE_EQ(tree.new_achieved_occupancy(), 0.45);
  EXPECT_EQ(out.cases(1).verdict(), v1::COMPARISON_VERDICT_SAME);
  ASSERT_EQ(out.only_in_base_size(), 1);
  EXPECT_EQ(out.only_in_base(0), "reduce/two_pass?n=1024");
  ASSERT_EQ(out.only_in_new_size(), 1);
  EXPECT_EQ(out.only_in_new(0), "reduce/atomic?n=1024");

  request.set_base_run_id(0);
  s = Results()->CompareRuns(Context(kReaderToken).get(), request, &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("base_run_id"), std::string::npos);
}

TEST_F(ResultServiceRpcTest, QueriesNeedACredential) {
  v1::ListRunsResponse out;
  grpc::Status s = Results()->ListRuns(Context("").get(), v1::ListRunsRequest(), &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  s = Results()->ListRuns(Context(kWorkerToken).get(), v1::ListRunsRequest(), &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED);
}

}  // namespace
}  // namespace warpwatch::testing
