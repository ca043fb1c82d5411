// File: tests/server/metrics/job_metrics_rpc_test.cc
// A job claimed and finished over real gRPC channels shows in /metrics as one queue wait and one
// job duration under the state it ended in.
#include <gtest/gtest.h>

#include <string>

#include "tests/server/metrics/metrics_scrape.h"
#include "tests/server/service/worker_service_rpc_fixture.h"

namespace warpwatch::testing {
namespace {

TEST_F(WorkerServiceRpcTest, AClaimedAndFinishedJobIsObservedOnceInTheJobHistograms) {
  server::ServerConfig config = TestConfig();
  config.metrics_listen = "127.0.0.1:0";
  StartServer(config);
  ASSERT_EQ(runtime_->metrics_ports().size(), 1u);
  const Held held = RegisterAndTakeAJob();
  ASSERT_TRUE(held.lease.has_job());
  std::string metrics = FetchMetrics(runtime_->metrics_ports()[0]);
  EXPECT_TRUE(HasLineWith(metrics, {"warpwatch_job_queue_wait_seconds_count", " 1"})) << metrics;
  EXPECT_TRUE(
      HasLineWith(metrics, {"warpwatch_job_duration_seconds_count", "state=\"succeeded\"", "} 0"}))
      << metrics;

  v1::Job finished;
  ASSERT_TRUE(Finish(held.worker, held.lease.job().id(), held.lease.run_id(),
                     v1::JOB_OUTCOME_SUCCEEDED, &finished)
                  .ok());
  ASSERT_EQ(finished.state(), v1::JOB_STATE_SUCCEEDED);
  metrics = FetchMetrics(runtime_->metrics_ports()[0]);
  EXPECT_TRUE(
      HasLineWith(metrics, {"warpwatch_job_duration_seconds_count", "state=\"succeeded\"", "} 1"}))
      << metrics;
  EXPECT_TRUE(
      HasLineWith(metrics, {"warpwatch_job_duration_seconds_count", "state=\"failed\"", "} 0"}))
      << metrics;
  EXPECT_TRUE(HasLineWith(metrics, {"warpwatch_job_queue_wait_seconds_count", " 1"})) << metrics;
}

}  // namespace
}  // namespace warpwatch::testing
