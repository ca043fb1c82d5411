// File: tests/server/metrics/job_and_database_metrics_test.cc
// The job, database and regression metrics as a Prometheus scrape would see them.
#include <google/protobuf/util/time_util.h>
#include <gtest/gtest.h>
#include <prometheus/registry.h>

#include "server/metrics/database_metrics.h"
#include "server/metrics/job_metrics.h"
#include "server/metrics/regression_metrics.h"
#include "tests/server/metrics/registry_samples.h"

namespace warpwatch::server::metrics {
namespace {

using google::protobuf::util::TimeUtil;

v1::Job Job(v1::JobState state, int attempts, int64_t created, int64_t started, int64_t finished) {
  v1::Job job;
  job.set_state(state);
  job.set_attempts(attempts);
  *job.mutable_created_at() = TimeUtil::SecondsToTimestamp(created);
  if (started > 0) *job.mutable_started_at() = TimeUtil::SecondsToTimestamp(started);
  if (finished > 0) *job.mutable_finished_at() = TimeUtil::SecondsToTimestamp(finished);
  return job;
}

TEST(JobMetricsTest, TheFirstClaimObservesTheQueueWaitAndLaterClaimsDoNot) {
  prometheus::Registry registry;
  JobMetrics metrics(registry);
  metrics.ObserveClaimed(Job(v1::JOB_STATE_RUNNING, 1, 1000, 1042, 0));
  metrics.ObserveClaimed(Job(v1::JOB_STATE_RUNNING, 2, 1000, 1042, 0));  // after a lease expiry
  auto s = Samples(registry);
  EXPECT_EQ(s["warpwatch_job_queue_wait_seconds_count"], 1);
  EXPECT_DOUBLE_EQ(s["warpwatch_job_queue_wait_seconds_sum"], 42);
}

TEST(JobMetricsTest, FinishedJobsObserveTheirDurationByStateAndReleasedOnesNothing) {
  prometheus::Registry registry;
  JobMetrics metrics(registry);
  metrics.ObserveFinished(Job(v1::JOB_STATE_SUCCEEDED, 1, 1000, 1010, 1100));
  metrics.ObserveFinished(Job(v1::JOB_STATE_FAILED, 1, 1000, 1010, 1015));
  metrics.ObserveFinished(Job(v1::JOB_STATE_QUEUED, 0, 1000, 1010, 0));  // RELEASED: queued again
  metrics.ObserveFinished(Job(v1::JOB_STATE_SUCCEEDED, 1, 1000, 0, 1100));  // never started: skip
  auto s = Samples(registry);
  EXPECT_EQ(s["warpwatch_job_duration_seconds_count{state=succeeded}"], 1);
  EXPECT_DOUBLE_EQ(s["warpwatch_job_duration_seconds_sum{state=succeeded}"], 90);
  EXPECT_EQ(s["warpwatch_job_duration_seconds_count{state=failed}"], 1);
  EXPECT_EQ(s["warpwatch_job_duration_seconds_count{state=cancelled}"], 0);
}

TEST(DatabaseMetricsTest, CountsErrorsByOperationAndKindAndShowsThePoolsUse) {
  prometheus::Registry registry;
  DatabaseMetrics metrics(registry);
  metrics.OnDatabaseError("ClaimJob", DatabaseErrorKind::kQuery);
  metrics.OnDatabaseError("ClaimJob", DatabaseErrorKind::kQuery);
  metrics.OnDatabaseError("Ping", DatabaseErrorKind::kUnavailable);
  metrics.OnPoolUse(3, 2, 8);
  auto s = Samples(registry);
  EXPECT_EQ(s["warpwatch_database_errors_total{kind=query}{operation=ClaimJob}"], 2);
  EXPECT_EQ(s["warpwatch_database_errors_total{kind=unavailable}{operation=Ping}"], 1);
  EXPECT_EQ(s["warpwatch_database_pool_connections{state=in_use}"], 3);
  EXPECT_EQ(s["warpwatch_database_pool_connections{state=idle}"], 2);
  EXPECT_EQ(s["warpwatch_database_pool_connections{state=max}"], 8);
}

TEST(RegressionMetricsTest, OpenFindingsAreCountedByModelFamilyAndKindAndResolvedOnesDropToZero) {
  prometheus::Registry registry;
  RegressionMetrics metrics(registry);
  metrics.SetOpen({{"NVIDIA H100", "reduce", "REGRESSION", "OPEN", 2},
                   {"NVIDIA H100", "memory.coalescing", "OUTLIER", "ACKNOWLEDGED", 1}});
  auto s = Samples(registry);
  EXPECT_EQ(s["warpwatch_regressions_open{family=reduce}{kind=regression}{modelName=NVIDIA "
              "H100}{state=open}"],
            2);
  metrics.SetOpen({{"NVIDIA H100", "reduce", "REGRESSION", "OPEN", 1}});
  s = Samples(registry);
  EXPECT_EQ(s["warpwatch_regressions_open{family=reduce}{kind=regression}{modelName=NVIDIA "
              "H100}{state=open}"],
            1);
  const std::string outlier =
      "warpwatch_regressions_open{family=memory.coalescing}{kind=outlier}{modelName=NVIDIA H100}"
      "{state=acknowledged}";
  ASSERT_TRUE(s.count(outlier)) << "a resolved group must read 0, not vanish";
  EXPECT_EQ(s[outlier], 0);
}

TEST(RegressionMetricsTest, DetectedFindingsAreCountedByModelFamilyKindAndFirstState) {
  prometheus::Registry registry;
  RegressionMetrics metrics(registry);
  metrics.AddDetected("NVIDIA H100", "reduce", "REGRESSION", "SUSPECTED");
  metrics.AddDetected("NVIDIA H100", "reduce", "REGRESSION", "SUSPECTED");
  metrics.AddDetected("NVIDIA H100", "reduce", "REGRESSION", "DISMISSED");
  auto s = Samples(registry);
  EXPECT_EQ(s["warpwatch_regressions_detected_total{family=reduce}{kind=regression}"
              "{modelName=NVIDIA H100}{state=suspected}"],
            2);
  EXPECT_EQ(s["warpwatch_regressions_detected_total{family=reduce}{kind=regression}"
              "{modelName=NVIDIA H100}{state=dismissed}"],
            1);
}

}  // namespace
}  // namespace warpwatch::server::metrics
